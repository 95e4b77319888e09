import * as z from '#shared/zod';
import { MAX_SHOP_DOMAIN_LENGTH, normaliseShopDomain } from '#core/integrations/shop-domain';
import { DateTime, ResponseMeta } from '#api/envelope-schemas';

/** A copy of the schema with a description for the OpenAPI document. */
function described<T extends z.ZodMiniType>(schema: T, description: string): T {
  const copy = schema.clone() as T;
  z.globalRegistry.add(copy, { description });
  return copy;
}

export const RegisterStorefrontBody = z.object({
  shop_domain: described(
    z.string().check(
      z.minLength(1),
      z.maxLength(MAX_SHOP_DOMAIN_LENGTH),
      z.refine((value) => normaliseShopDomain(value) !== undefined, 'not a public shop hostname (such as acme.myshopify.com)'),
    ),
    "The storefront's hostname, such as `acme.myshopify.com` or `shop.example.com`: letters, digits and inner hyphens in dot-separated labels of at most 63 characters, a top-level label of letters, 253 characters at most; compared in lowercase. No scheme, path, port, credentials, trailing dot, IP address or private name (`.local`, `.internal`, `localhost`, …). One shop domain belongs to one merchant.",
  ),
});

export const Storefront = z
  .object({
    shop_domain: z.string(),
    created_at: DateTime,
    updated_at: DateTime,
  })
  .clone()
  .register(z.globalRegistry, { id: 'StorefrontAssociation', description: "The merchant's storefront association." });

const IntegrationId = described(
  z.string(),
  'A provider (`stripe`, `braintree`, `adyen`, `paypal`, `checkout`, `square`, `authorize_net`, `chargebee`, `recurly`, `paddle`, `razorpay`, `mollie`, `gocardless`) or a CRM (`crm_a`, `crm_b`); anything else is 404.',
);
const Count = z.number().check(z.int(), z.gte(0));

const LastError = z.object({
  type: described(
    z.enum(['signature_failure', 'dead_lettered', 'sync_failed']),
    'A refused delivery (bad, missing or stale signature), an event the service dropped after its retries, or (CRM) a failed sync.',
  ),
  code: described(
    z.string(),
    "`invalid_signature`, the dead-lettered event's reason code (`unknown_webhook_customer`, `provider_api_key_missing`, …), or a failed sync's error kind.",
  ),
  at: DateTime,
});

export const IntegrationHealth = z
  .object({
    id: IntegrationId,
    type: z.enum(['psp', 'crm']),
    connected: described(z.boolean(), 'Provider: a webhook signing secret is configured. CRM: its OAuth callback stored tokens.'),
    status: described(
      z.enum(['healthy', 'degraded', 'not_connected']),
      '`degraded`: signature failures in the last 24 h, or dead-lettered events not redriven yet; for a CRM, its last sync failed.',
    ),
    last_event_received_at: described(
      z.nullable(DateTime),
      'Provider: the last delivery stored in the last 24 h; null when none (older ones are not read). CRM: the last sync.',
    ),
    events_24h: described(Count, 'Deliveries stored in the last 24 h (one per provider event; replays are not counted again); for a CRM, syncs started.'),
    events_24h_complete: described(
      z.boolean(),
      'False when the day held more deliveries than one request reads (8 MB of webhook bodies, newest first): events_24h is then a lower bound.',
    ),
    signature_failures_24h: described(Count, 'Refused deliveries, by hour: the current hour and the 24 before it, each counted whole.'),
    dead_lettered_events: described(Count, 'Events dropped after their retries in the last 30 days (see `GET /integrations/{id}/errors`).'),
    dead_lettered_pending: described(Count, 'Of those, the ones no operator has redriven yet (`dlq redrive`).'),
    last_error: z.nullable(LastError),
  })
  .clone()
  .register(z.globalRegistry, { id: 'IntegrationHealth', description: 'The health of one integration, from what the service stored.' });

export const IntegrationErrorEntry = z
  .object({
    type: z.enum(['signature_failure', 'dead_lettered', 'sync_failed']),
    code: z.string(),
    at: described(DateTime, 'The last failure of the hour, or when the event was dead-lettered.'),
    hour: described(z.optional(z.string()), 'signature_failure: the hour (UTC, `yyyy-mm-ddThh`).'),
    count: described(z.optional(Count), 'signature_failure: failures in that hour.'),
    id: described(z.optional(z.string()), 'dead_lettered: `dle_…`; sync_failed: the sync id.'),
    event_ids: described(z.optional(z.array(z.string())), "dead_lettered: the provider's event ids of the delivery."),
    webhook_log_id: described(z.optional(z.string()), 'dead_lettered: the stored delivery (`whk_…`) a redrive processes again.'),
    redriven_at: z.optional(z.nullable(DateTime)),
    redrive_outcome: z.optional(z.nullable(z.string())),
  })
  .clone()
  .register(z.globalRegistry, { id: 'IntegrationError', description: 'A refused delivery (hourly), a dead-lettered event, or a failed CRM sync.' });

const IntegrationParams = z.object({ id: IntegrationId });

export const registerStorefrontSchemas = {
  body: RegisterStorefrontBody,
  responses: { 200: z.object({ data: Storefront, meta: ResponseMeta }), 201: z.object({ data: Storefront, meta: ResponseMeta }) },
} as const;
export const listIntegrationHealthSchemas = { responses: { 200: z.object({ data: z.array(IntegrationHealth), meta: ResponseMeta }) } } as const;
export const getIntegrationHealthSchemas = {
  params: IntegrationParams,
  responses: { 200: z.object({ data: IntegrationHealth, meta: ResponseMeta }) },
} as const;
export const listIntegrationErrorsSchemas = {
  params: IntegrationParams,
  responses: { 200: z.object({ data: z.array(IntegrationErrorEntry), meta: ResponseMeta }) },
} as const;
