import { MAX_PATH_ID_BYTES } from '#core/ids';
import * as z from '#shared/zod';

function described<T extends z.ZodMiniType>(schema: T, description: string): T {
  const copy = schema.clone() as T;
  z.globalRegistry.add(copy, { description });
  return copy;
}

const Id = z.string().check(z.minLength(1), z.maxLength(MAX_PATH_ID_BYTES));

export const InitWidgetBody = z.object({
  merchant_id: described(Id, 'The merchant (`merch_…`), as in the script tag.'),
  customer_id: described(Id, "The customer: the service's id (`cust_…`) or the payment provider's customer id."),
  timestamp: described(
    z.number().check(z.int(), z.gte(0)),
    'Integer Unix time (seconds) at which the page was signed; accepted within 300 s of the server time.',
  ),
  signature: described(
    z.string().check(z.regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters (HMAC-SHA256)')),
    'Hex HMAC-SHA256 of `"{merchant_id}.{customer_id}.{timestamp}"` with the merchant\'s widget secret, made by the merchant\'s server. Accepted once.',
  ),
});

export const BrandingData = z
  .object({
    logo_url: z.nullable(z.string()),
    primary_color: described(z.nullable(z.string()), '`#rrggbb`.'),
    merchant_name: described(z.nullable(z.string()), "The merchant's display name (its account name unless set)."),
  })
  .clone()
  .register(z.globalRegistry, { id: 'Branding', description: 'How hosted pages and the widget present the merchant.' });

export const WidgetInitResponse = z
  .object({
    has_failed_payment: z.boolean(),
    amount_cents: described(z.number().check(z.int()), 'The open failed payment, in the smallest unit of its currency; 0 when none.'),
    currency: described(z.nullable(z.string()), 'Lowercase; null when there is no failed payment.'),
    update_url: described(
      z.nullable(z.string()),
      'The update-payment page for that payment (a single link of its own, valid 30 days); null when there is no failed payment.',
    ),
    branding: BrandingData,
  })
  .clone()
  .register(z.globalRegistry, { id: 'WidgetInit', description: "A's widget init response, not wrapped in data." });

/** POST /api/widget/init: the widget's signed call (unwrapped response, as A shows it). */
export const initWidgetSchemas = {
  body: InitWidgetBody,
  responses: { 200: WidgetInitResponse },
  errorStatuses: [401, 429],
} as const;

export const MerchantParams = z.object({ merchant_id: described(z.string(), 'The merchant (`merch_…`).') });

/** GET /api/widget/branding/{merchant_id}: public, cacheable 5 minutes, unwrapped like every widget response (DESIGN §1). */
export const brandingSchemas = {
  params: MerchantParams,
  responses: { 200: BrandingData },
} as const;

const Page = z.string();

/** GET /widget.js: the embeddable script (`text/javascript`; documented as a page of text). */
export const widgetScriptSchemas = {
  responses: { 200: Page },
  htmlStatuses: [200],
} as const;

const TokenParams = z.object({ token: described(z.string(), 'The link token of a dunning message (or of the widget).') });

/**
 * GET /update-payment/{token}: 303 to the provider's page; HTML pages for an unknown or expired
 * link (404) and an unconfigured merchant (503). (A token longer than any id, 320 bytes, is the
 * pipeline's JSON 404, like every path parameter.)
 */
export const showUpdatePaymentSchemas = {
  params: TokenParams,
  responses: { 303: Page, 404: Page, 503: Page },
  htmlStatuses: [303, 404, 503],
} as const;
