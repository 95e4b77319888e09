import type { z } from 'zod/mini';
import { type CardExpiry, cardExpiryOf } from '#core/customers';
import type { IngestEvent } from '#core/ingest/ingest-event';
import { ingestPaymentEvent as ingest } from '#services/ingest-payment-event';
import { meta } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { type IngestPaymentEventBody, ingestPaymentEventSchemas } from './schemas';

/** The body, as the ingest logic takes it: B's amount_cents or A's amount, recognised metadata keys lifted out. */
function eventOf(body: z.output<typeof IngestPaymentEventBody>): IngestEvent {
  const metadata = body.metadata ?? {};
  return {
    type: body.event_type,
    // The schema refuses a body with neither.
    amount: (body.amount_cents ?? body.amount) as number,
    currency: body.currency,
    customerEmail: body.customer_email,
    declineCode: body.decline_code ?? null,
    eventId: metadata.event_id,
    providerPaymentId: metadata.payment_id ?? metadata.provider_payment_id ?? metadata.charge_id,
    psp: metadata.psp,
    customerName: metadata.customer_name,
    providerCustomerId: metadata.provider_customer_id,
    customerTimezone: metadata.customer_timezone,
    customerPhone: metadata.customer_phone,
    subscriptionId: metadata.subscription_id,
    invoiceId: metadata.invoice_id,
    networkCode: metadata.network_code,
    network: metadata.network,
    adviceCode: metadata.advice_code,
    cardExpiry: cardExpiryFrom(body.event_type, metadata.card_exp_month, metadata.card_exp_year),
    metadata,
  };
}

/**
 * The card expiry an event tells (the schema checked the pair): given, it is the card's; on a
 * payment_method_updated without it, the new card's expiry is unknown (null clears the old one);
 * otherwise the event says nothing of it (undefined).
 */
function cardExpiryFrom(type: IngestEvent['type'], month: unknown, year: unknown): CardExpiry | null | undefined {
  const given = cardExpiryOf(month, year);
  if (given !== undefined) return given;
  return type === 'payment_method_updated' ? null : undefined;
}

/**
 * POST /api/v1/ingest/payment-event: a payment event from a platform without native webhooks.
 * Answers 200 with `{ event_id, event_type, status, recovery_initiated, payment_event_id,
 * recovery_id, affected_payment_ids }`; what each event type does is `ingestPaymentEvent`'s.
 */
export const ingestPaymentEvent = defineOperation({ auth: 'api_key', schemas: ingestPaymentEventSchemas }, async ({ body, principal, requestId }) => {
  const now = new Date();
  const result = await ingest(principal.merchantId, eventOf(body), now);
  return { body: { data: result, meta: meta(requestId, principal.merchantId, now) } };
});
