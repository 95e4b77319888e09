import { subscribe } from '#data/automation-repository';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { resolveEventType } from './event-types';
import { subscribeAutomationHookSchemas } from './schemas';
import { checkTargetUrl } from './target-url';
import { subscriptionView } from './views';

/**
 * POST /api/v1/automation/subscribe {target_url, event_type}: registers a REST-hook subscription
 * (201), stored under the canonical name of the type so the dispatcher finds it with one Query.
 * The same target and type again: 200 with the existing subscription. Unknown type or a target
 * that fails the SSRF rules: 422 with its param.
 */
export const subscribeAutomationHook = defineOperation({ auth: 'api_key', schemas: subscribeAutomationHookSchemas }, async ({ body, principal, requestId }) => {
  const type = resolveEventType(body.event_type);
  const targetUrl = await checkTargetUrl(body.target_url);
  const { subscription, created } = await subscribe(principal.merchantId, type?.canonical ?? body.event_type, targetUrl);
  return { statusCode: created ? 201 : 200, body: envelope(subscriptionView(subscription), requestId, principal.merchantId) };
});
