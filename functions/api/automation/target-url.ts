import { type AddressResolver, dnsResolver } from '#adapters/dns/resolver';
import { ValidationError } from '#core/errors';
import { checkResolvedAddresses, hostOf, parseWebhookUrl } from '#core/webhooks/address-policy';
import { env } from '#shared/env';

const resolver: AddressResolver = dnsResolver();

/**
 * The SSRF rules of outbound webhooks (core/webhooks/address-policy.ts, shared with endpoints and
 * the delivery client) applied to an automation `target_url` at save: https, no credentials, and a
 * host resolving only to public addresses (loopback, and http:// to loopback, only where
 * WEBHOOK_ALLOW_LOOPBACK=true: the local stack). Refusals are 422 with `param` target_url; a host
 * that does not resolve too. Delivery resolves and checks again at every send (the dispatcher's).
 */
export async function assertPublicTargetUrl(raw: string): Promise<void> {
  const policy = { allowLoopback: env.WEBHOOK_ALLOW_LOOPBACK === 'true' };
  try {
    const url = parseWebhookUrl(raw, policy);
    let addresses: string[];
    try {
      addresses = await resolver.resolve(hostOf(url));
    } catch {
      addresses = [];
    }
    checkResolvedAddresses(url, addresses, policy);
  } catch (error) {
    if (error instanceof ValidationError) throw new ValidationError(error.message.replace(/^url\b/, 'target_url'), { param: 'target_url' });
    throw error;
  }
}
