import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { ValidationError } from '#core/errors';

/**
 * STOPGAP until the webhooks helper's shared URL validator (the SSRF-safe client's) is merged: the
 * SSRF rules of issue 13 at save time. HTTPS only, no credentials; the host (a literal address or
 * every address it resolves to) must be public unicast: private, loopback, link-local (metadata
 * 169.254.169.254 included), CGNAT, unspecified, multicast, reserved and IPv4-mapped forms of
 * these are refused. Any failure: 422 with `param` target_url.
 */
export async function assertPublicTargetUrl(raw: string, param = 'target_url'): Promise<void> {
  const refuse = (why: string): never => {
    throw new ValidationError(`Field ${param} is invalid: ${why}`, { param });
  };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('not a URL.');
  }
  if (url.protocol !== 'https:') refuse('only https:// URLs are accepted.');
  if (url.username !== '' || url.password !== '') refuse('URLs with credentials are refused.');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (ipaddr.isValid(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
    } catch {
      return refuse('its host does not resolve.');
    }
  }
  if (addresses.length === 0) refuse('its host does not resolve.');
  for (const address of addresses) {
    if (ipaddr.process(address).range() !== 'unicast') refuse('its host resolves to a private, loopback, link-local or reserved address.');
  }
}
