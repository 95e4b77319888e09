import { ValidationError } from '#core/errors';
import { checkEndpointUrl } from '#services/webhook-endpoints';

/**
 * The SSRF rules of outbound webhooks applied to an automation `target_url` at save: the same check
 * as a webhook endpoint's URL (services/webhook-endpoints.ts `checkEndpointUrl`: https, no
 * credentials, a host resolving only to public addresses; loopback, and http:// to loopback, only
 * where WEBHOOK_ALLOW_LOOPBACK=true: the local stack). Its refusals are 422 with `param`
 * target_url. Delivery resolves and checks again at every send (the dispatcher's).
 */
export async function assertPublicTargetUrl(raw: string): Promise<void> {
  try {
    await checkEndpointUrl(raw);
  } catch (error) {
    if (error instanceof ValidationError && error.param === 'url') {
      throw new ValidationError(error.message.replace(/^url\b/, 'target_url'), { param: 'target_url', cause: error });
    }
    throw error;
  }
}
