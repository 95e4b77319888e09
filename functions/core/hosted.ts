import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ValidationError } from './errors';

/**
 * What end customers meet outside the merchant API: the embeddable widget (its signed init), the
 * merchant's branding, and the update-payment page the dunning messages link to. Pure domain: no
 * AWS, no table.
 */

/** logo_url, primary_color and merchant_name: null until the operator sets them. */
export interface Branding {
  readonly logo_url: string | null;
  readonly primary_color: string | null;
  readonly merchant_name: string | null;
}

/** The merchant's hosted-page settings, as the table keeps them. */
export interface HostedSettings {
  readonly merchant_id: string;
  /** The widget secret, sealed by the secret box (an HMAC needs the secret itself, so it cannot be stored as a hash). */
  readonly widget_secret_sealed: string | null;
  readonly widget_secret_rotated_at: string | null;
  readonly branding: Branding;
  /** The payment provider's hosted payment-method page customers are sent on to (https; loopback http for local use). */
  readonly update_payment_page_url: string | null;
  readonly updated_at: string | null;
}

export const NO_BRANDING: Branding = { logo_url: null, primary_color: null, merchant_name: null };

/** DESIGN §1: |now − timestamp| ≤ 300 s. */
export const WIDGET_TIMESTAMP_TOLERANCE_SECONDS = 300;

/** Widget secrets: `wsec_` and 32 random bytes, base64url. */
export const newWidgetSecret = (): string => `wsec_${randomBytes(32).toString('base64url')}`;

/** The string a widget signature covers (DESIGN §1). */
export const widgetSigningString = (merchantId: string, customerId: string, timestamp: number): string => `${merchantId}.${customerId}.${timestamp}`;

/**
 * The hex HMAC-SHA256 a merchant's server computes for the widget's attributes.
 *
 * @example signWidget('wsec_…', 'merch_1', 'cus_42', 1764000000) // '9f2c…' (64 hex characters)
 */
export const signWidget = (secret: string, merchantId: string, customerId: string, timestamp: number): string =>
  createHmac('sha256', secret)
    .update(widgetSigningString(merchantId, customerId, timestamp), 'utf8')
    .digest('hex');

/** Whether `signature` (64 hex characters, any case) is the widget signature of these fields; compared in constant time. */
export function widgetSignatureMatches(secret: string, merchantId: string, customerId: string, timestamp: number, signature: string): boolean {
  const expected = Buffer.from(signWidget(secret, merchantId, customerId, timestamp), 'hex');
  const given = Buffer.from(signature.toLowerCase(), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Whether a signed timestamp (Unix seconds) is within the tolerance of now. */
export const timestampIsFresh = (timestamp: number, now: Date): boolean =>
  Math.abs(Math.floor(now.getTime() / 1000) - timestamp) <= WIDGET_TIMESTAMP_TOLERANCE_SECONDS;

/** Lowercase hex SHA-256: the only form in which signatures and link tokens are stored. */
export const sha256Hex = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

/** Update-payment links stay valid this long after the message that carries them is sent (documented in docs/widget.md). */
export const UPDATE_PAYMENT_LINK_TTL_SECONDS = 30 * 24 * 60 * 60;

/** A link token: 32 random bytes, base64url (43 characters). */
export const newLinkToken = (): string => randomBytes(32).toString('base64url');

/** What a link token looks like; anything else is refused before a lookup. */
export const looksLikeLinkToken = (token: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(token);

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** An https URL (or http on a loopback host, as OAuth redirect URIs allow for local use: RFC 8252 §7.3); else the reason. */
function urlProblem(value: string, allowLoopback: boolean): string | undefined {
  if (value.length > 2048) return 'must be at most 2048 characters';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username !== '' || url.password !== '') return 'must not carry credentials';
  if (url.protocol === 'https:') return undefined;
  if (allowLoopback && url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  return allowLoopback ? 'must be an https URL (http only on a loopback host)' : 'must be an https URL';
}

/**
 * Checks a branding change: an https logo URL, a `#rrggbb` colour, a name of 1-200 characters.
 * Throws ValidationError naming the field.
 */
export function checkBranding(change: Partial<Branding>): Partial<Branding> {
  if (change.logo_url != null) {
    const problem = urlProblem(change.logo_url, false);
    if (problem !== undefined) throw new ValidationError(`logo_url ${problem}.`, { param: 'logo_url' });
  }
  if (change.primary_color != null && !/^#[0-9a-fA-F]{6}$/.test(change.primary_color)) {
    throw new ValidationError('primary_color must be a #rrggbb colour.', { param: 'primary_color' });
  }
  if (change.merchant_name != null) {
    const name = change.merchant_name.trim();
    if (name.length < 1 || name.length > 200) throw new ValidationError('merchant_name must be 1-200 characters.', { param: 'merchant_name' });
    return { ...change, merchant_name: name, ...(change.primary_color == null ? {} : { primary_color: change.primary_color.toLowerCase() }) };
  }
  return { ...change, ...(change.primary_color == null ? {} : { primary_color: change.primary_color.toLowerCase() }) };
}

/** Checks the provider's hosted payment-method page URL; throws ValidationError (`param` update_payment_page_url). */
export function checkUpdatePaymentPageUrl(value: string): string {
  const problem = urlProblem(value, true);
  if (problem !== undefined) throw new ValidationError(`The update-payment page ${problem}.`, { param: 'update_payment_page_url' });
  return value;
}

/** What the provider's page URL may name, filled in (URL-encoded) for each customer sent there. */
export interface PagePlaceholders {
  readonly customer_id: string;
  readonly provider_customer_id: string | null;
  readonly payment_id: string | null;
}

/**
 * The provider page for one customer: `{customer_id}`, `{provider_customer_id}` and `{payment_id}`
 * in the configured URL are replaced by their URL-encoded values (empty when unknown).
 *
 * @example providerPageFor('https://billing.example.com/update?c={provider_customer_id}', { customer_id: 'cust_1', provider_customer_id: 'cus_9', payment_id: null })
 */
export function providerPageFor(template: string, values: PagePlaceholders): string {
  return template.replace(/\{(customer_id|provider_customer_id|payment_id)\}/g, (_, name: keyof PagePlaceholders) => encodeURIComponent(values[name] ?? ''));
}
