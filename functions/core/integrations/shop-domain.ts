/** The longest hostname DNS allows (RFC 1035: 253 characters in text form, without the final dot). */
export const MAX_SHOP_DOMAIN_LENGTH = 253;

/** Top-level names that never denote a public storefront (RFC 2606, RFC 6761, RFC 6762, common private use). */
const RESERVED_TLDS: ReadonlySet<string> = new Set([
  'localhost',
  'local',
  'internal',
  'test',
  'invalid',
  'example',
  'onion',
  'arpa',
  'home',
  'lan',
  'corp',
  'intranet',
  'private',
]);

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** A top-level label: letters (2-63), or an IDN in its ASCII form (`xn--…`). */
const TLD = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/**
 * The shop domain a merchant may register, lowercased, or undefined when it is not a public
 * hostname: lowercase ASCII labels of 1-63 letters, digits and inner hyphens (IDNs in their
 * `xn--` form), at least two labels, a top-level label of letters that is not a reserved or
 * private name, 253 characters at most; no scheme, path, query, port, credentials, spaces,
 * trailing dot or IP address.
 *
 * @example normaliseShopDomain('Acme.myshopify.com') // 'acme.myshopify.com'
 * @example normaliseShopDomain('https://acme.myshopify.com/') // undefined
 */
export function normaliseShopDomain(input: string): string | undefined {
  const domain = input.toLowerCase();
  if (domain.length === 0 || domain.length > MAX_SHOP_DOMAIN_LENGTH) return undefined;
  const labels = domain.split('.');
  const tld = labels.at(-1) ?? '';
  if (labels.length < 2 || !TLD.test(tld) || RESERVED_TLDS.has(tld)) return undefined;
  return labels.every((label) => LABEL.test(label)) ? domain : undefined;
}
