import { InvalidRequestError, ResourceNotFoundError } from '#core/errors';
import { deleteSubscription, getSubscriptionById, getSubscriptionByTarget } from '#data/automation-repository';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { resolveEventType } from './event-types';
import { unsubscribeAutomationHookSchemas } from './schemas';
import { normalisedTargetUrl } from './target-url';
import { subscriptionView } from './views';

/**
 * DELETE /api/v1/automation/subscribe: removes a subscription named by `id`, or by `target_url`
 * and `event_type` (either name of the type); 200 with the removed subscription. None of the
 * merchant's (another merchant's id included): 404. Neither id nor both of target_url and
 * event_type: 400.
 */
export const unsubscribeAutomationHook = defineOperation(
  { auth: 'api_key', schemas: unsubscribeAutomationHookSchemas },
  async ({ body, principal, requestId }) => {
    const merchantId = principal.merchantId;
    let subscription: Awaited<ReturnType<typeof getSubscriptionById>>;
    if (body.id !== undefined) subscription = await getSubscriptionById(merchantId, body.id);
    else if (body.target_url !== undefined && body.event_type !== undefined) {
      const canonical = resolveEventType(body.event_type)?.canonical ?? body.event_type;
      subscription = await getSubscriptionByTarget(merchantId, canonical, normalisedTargetUrl(body.target_url));
    } else {
      throw new InvalidRequestError('Name the subscription by id, or by target_url and event_type.', {
        param: body.target_url === undefined && body.event_type === undefined ? 'id' : body.target_url === undefined ? 'target_url' : 'event_type',
      });
    }
    const param = body.id !== undefined ? 'id' : 'target_url';
    if (subscription === undefined || !(await deleteSubscription(subscription))) {
      throw new ResourceNotFoundError('No such automation subscription.', { param });
    }
    return { body: envelope({ ...subscriptionView(subscription), deleted: true as const }, requestId, merchantId) };
  },
);
