import ipaddr from 'ipaddr.js';
import { ValidationError } from '#core/errors';

/**
 * Where outbound webhooks may go (SSRF rules). A URL is `https://`, without credentials, at most
 * 2,048 characters; its host must resolve only to public unicast addresses: never private,
 * loopback, link-local (the metadata service 169.254.169.254), CGNAT 100.64/10, benchmarking
 * 198.18/15, unique-local, multicast, reserved, or an IPv6 form embedding an IPv4 address
 * (IPv4-mapped private addresses are judged as the IPv4 they carry).
 *
 * `allowLoopback` (WEBHOOK_ALLOW_LOOPBACK=true, the local stack only) admits loopback addresses,
 * and `http://` for a host whose addresses are all loopback, so a developer's receiver needs no
 * certificate. Every refusal is a 422 with `param: "url"`.
 */

export const MAX_URL_LENGTH = 2048;

export interface AddressPolicy {
  readonly allowLoopback: boolean;
}

/** The range ipaddr.js gives an address, an IPv4-mapped IPv6 judged as its IPv4. */
function rangeOf(address: string): string {
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) return (parsed as ipaddr.IPv6).toIPv4Address().range();
  return parsed.range();
}

export function isLoopbackAddress(address: string): boolean {
  return ipaddr.isValid(address) && rangeOf(address) === 'loopback';
}

/** Whether a delivery may connect to this address. */
export function isDeliverableAddress(address: string, policy: AddressPolicy): boolean {
  if (!ipaddr.isValid(address)) return false;
  const range = rangeOf(address);
  return range === 'unicast' || (policy.allowLoopback && range === 'loopback');
}

const refuse = (message: string): ValidationError => new ValidationError(message, { param: 'url' });

/** The host as a name or a bare IP literal (an IPv6 literal loses its brackets). */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * The URL's own checks, before any resolution: https (or http with loopback allowed, confirmed
 * by `checkResolvedAddresses`), no credentials, a length limit, and an IP literal host that is
 * deliverable.
 */
export function parseWebhookUrl(raw: string, policy: AddressPolicy): URL {
  if (raw.length > MAX_URL_LENGTH) throw refuse(`url must be at most ${MAX_URL_LENGTH} characters`);
  if (!URL.canParse(raw)) throw refuse('url must be an absolute URL');
  const url = new URL(raw);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowLoopback)) throw refuse('url must use https://');
  if (url.username !== '' || url.password !== '') throw refuse('url must not contain credentials');
  const host = hostOf(url);
  if (host === '') throw refuse('url must name a host');
  if (ipaddr.isValid(host)) checkResolvedAddresses(url, [host], policy);
  return url;
}

/**
 * The host's resolved addresses must all be deliverable (one private address among public ones
 * refuses the lot: a receiver never gets to pick), and `http://` needs every one to be loopback.
 */
export function checkResolvedAddresses(url: URL, addresses: readonly string[], policy: AddressPolicy): void {
  if (addresses.length === 0) throw refuse(`url host ${hostOf(url)} does not resolve`);
  if (!addresses.every((address) => isDeliverableAddress(address, policy))) throw refuse('url must resolve only to public addresses');
  if (url.protocol === 'http:' && !addresses.every(isLoopbackAddress)) throw refuse('url must use https://');
}
