import { ValidationError } from '#core/errors';
import { checkEndpointUrl } from '#services/webhook-endpoints';

/**
 * The SSRF rules of outbound webhooks applied to an automation `target_url` at save: the same check
 * as a webhook endpoint's URL (services/webhook-endpoints.ts `checkEndpointUrl`: https, no
 * credentials, a host resolving only to public addresses; loopback, and http:// to loopback, only
 * where WEBHOOK_ALLOW_LOOPBACK=true: the local stack). Its refusals are 422 with `param`
 * target_url. Answers the URL normalised (WHATWG `href`), the form subscriptions are stored and
 * looked up by. Delivery resolves and checks again at every send (the dispatcher's).
 */
export async function checkTargetUrl(raw: string): Promise<string> {
  try {
    return await checkEndpointUrl(raw);
  } catch (error) {
    if (error instanceof ValidationError && error.param === 'url') {
      throw new ValidationError(error.message.replace(/^url\b/, 'target_url'), { param: 'target_url', cause: error });
    }
    throw error;
  }
}

/** The normalised form of a target URL given to unsubscribe (as stored by subscribe); unparseable: as given. */
export const normalisedTargetUrl = (raw: string): string => (URL.canParse(raw) ? new URL(raw).href : raw);
