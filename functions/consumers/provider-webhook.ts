import { z } from 'zod';
import type { IngestEvent } from '../core/ingest/ingest-event';
import { type Currency, isCurrency } from '../core/money';
import { PSPS, type Psp } from '../core/providers';
import { getCustomer, getCustomerByAnyId, getCustomerByEmail } from '../data/customer-repository';
import { ingestPaymentEvent } from '../data/ingest-payment-event';
import { getPaymentByAnyId } from '../data/payment-repository';
import { getWebhookLog, PROVIDER_WEBHOOK_KIND, rawBodyOf, tagWebhookLogWithCustomer, type WebhookLogRecord } from '../data/webhook-log-repository';
import { logger } from '../shared/logger';
import { webhookModuleFor } from '../webhooks/registry';
import { type NormalisedWebhookEvent, WebhookPayloadError } from '../webhooks/types';
import type { MessageProcessor } from './consume';

/** What the webhook intake enqueues on `inbound-webhooks`: ids only, never the payload. */
export const ProviderWebhookMessageSchema = z.object({
  kind: z.literal(PROVIDER_WEBHOOK_KIND),
  merchant_id: z.string().min(1),
  psp: z.enum(PSPS),
  webhook_log_id: z.string().min(1),
});
export type ProviderWebhookMessage = z.infer<typeof ProviderWebhookMessageSchema>;

/**
 * A thin event (Mollie classic, GoCardless, Authorize.Net, thin Recurly) carries ids only: its
 * amount, status and customer must be fetched from the provider's API, which the service does not
 * call yet. The message fails on every delivery and ends in the DLQ, where it waits for that
 * client (a redrive then processes it); nothing of it is recorded meanwhile.
 */
export class ProviderFetchNotImplementedError extends Error {
  constructor(psp: Psp, resource: string) {
    super(`${psp} sent a thin event (${resource}) whose details must be fetched from the provider's API, which is not implemented yet`);
    this.name = 'ProviderFetchNotImplementedError';
  }
}

/**
 * A failed payment the service cannot file: the provider sent no customer email and no customer
 * or payment it names is known here. Looking the customer up through the provider's API is the
 * gap ("customer lookup through the provider's API") left to the next issue; until then such
 * messages end in the DLQ.
 */
export class UnknownWebhookCustomerError extends Error {
  constructor(psp: Psp) {
    super(`${psp} sent a payment_failed with no customer email and no known customer or payment (customer lookup through the provider's API is not implemented yet)`);
    this.name = 'UnknownWebhookCustomerError';
  }
}

/** A verified event the ingest logic cannot take as it stands (no amount, or a currency outside the 20). */
export class UnusableWebhookEventError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnusableWebhookEventError';
  }
}

/** Stands in for a currency an event without amount does not carry; never compared with amount 0 > 0. */
const UNUSED_CURRENCY: Currency = 'usd';

interface Identity {
  readonly email: string;
}

/** The customer's email: the event's, else that of the customer or payment the provider names. */
async function identityOf(merchantId: string, event: NormalisedWebhookEvent): Promise<Identity | undefined> {
  const email = event.customer?.email?.trim();
  if (email !== undefined && email !== '') return { email };
  const providerCustomerId = event.customer?.providerCustomerId;
  if (providerCustomerId !== undefined) {
    const customer = await getCustomerByAnyId(merchantId, providerCustomerId);
    if (customer !== undefined) return { email: customer.email };
  }
  const providerPaymentId = event.payment?.providerPaymentId;
  if (providerPaymentId !== undefined) {
    const payment = await getPaymentByAnyId(merchantId, providerPaymentId);
    if (payment !== undefined) {
      const customer = await getCustomer(merchantId, payment.customer_id);
      return { email: customer?.email ?? payment.customer_email };
    }
  }
  return undefined;
}

/**
 * The ingest event of a normalised one. A payment_failed needs its amount and one of the 20
 * currencies (else UnusableWebhookEventError). The other types do not use amount and currency
 * to change anything except where given: payment_succeeded matches an open payment by amount only
 * when both are present (otherwise amount 0, which matches no failed payment, and UNUSED_CURRENCY),
 * charge_refunded records them on its timeline entry.
 */
function ingestEventOf(psp: Psp, event: NormalisedWebhookEvent, identity: Identity): IngestEvent {
  const payment = event.payment ?? {};
  const currency = payment.currency?.toLowerCase();
  if (currency !== undefined && !isCurrency(currency)) throw new UnusableWebhookEventError(`${psp} event currency is not one of the supported currencies`);
  if (event.type === 'payment_failed' && (payment.amount === undefined || currency === undefined)) {
    throw new UnusableWebhookEventError(`${psp} payment_failed event carries no amount or currency`);
  }
  const amount = payment.amount !== undefined && currency !== undefined ? payment.amount : 0;
  return {
    type: event.type,
    amount,
    currency: currency ?? UNUSED_CURRENCY,
    customerEmail: identity.email,
    declineCode: payment.declineCode ?? null,
    eventId: `${psp}:${event.providerEventId}`,
    providerPaymentId: payment.providerPaymentId,
    psp,
    customerName: event.customer?.name,
    providerCustomerId: event.customer?.providerCustomerId,
    subscriptionId: payment.subscriptionId,
    invoiceId: payment.invoiceId,
    networkCode: payment.networkCode,
    network: payment.network,
    adviceCode: payment.adviceCode,
    metadata: {
      source: 'provider_webhook',
      provider_event_id: event.providerEventId,
      ...(payment.providerPaymentId === undefined ? {} : { provider_payment_id: payment.providerPaymentId }),
      ...(payment.invoiceId === undefined ? {} : { invoice_id: payment.invoiceId }),
      ...(payment.subscriptionId === undefined ? {} : { subscription_id: payment.subscriptionId }),
    },
  };
}

function normalised(record: WebhookLogRecord): NormalisedWebhookEvent[] {
  return webhookModuleFor(record.psp).normalise({
    rawBody: rawBodyOf(record),
    headers: record.content_type === null ? {} : { 'content-type': record.content_type },
    url: record.url,
  });
}

/**
 * Turns one stored provider delivery into payment events through the ingest logic:
 * - the stored delivery gone (expired, erased with its customer) → acknowledged, nothing to do;
 * - normalised by the provider's module; a body that is not what the provider documents
 *   (WebhookPayloadError) is poison: the message fails until it is dead-lettered;
 * - events the service does not use normalise to nothing → acknowledged;
 * - a thin event (to be fetched from the provider's API) → ProviderFetchNotImplementedError, DLQ;
 * - each event is ingested with event id `${psp}:${providerEventId}`, so a redelivery is a
 *   duplicate that changes nothing; the customer is the event's email, else the customer or
 *   payment the provider names; a payment_failed with neither → UnknownWebhookCustomerError (DLQ);
 *   other types with no known customer are dropped (nothing to update);
 * - the stored delivery is filed under the customer (GSI2), so erasure removes it.
 * Every check runs before the first write, so a message that fails writes nothing. Logs name
 * the psp, the stored delivery and error names only, never the payload.
 */
export const processProviderWebhook: MessageProcessor = async (raw) => {
  const { merchant_id: merchantId, psp, webhook_log_id: logId } = ProviderWebhookMessageSchema.parse(raw);
  const log = logger.child({ merchant_id: merchantId, psp, webhook_log_id: logId });
  const record = await getWebhookLog(merchantId, logId);
  if (record === undefined) {
    log.info('stored webhook not found (expired or erased with its customer); nothing to do');
    return;
  }
  let events: NormalisedWebhookEvent[];
  try {
    events = normalised(record);
  } catch (error) {
    if (error instanceof WebhookPayloadError) log.warn('verified webhook is not what the provider documents; failing it for the DLQ', { error_name: error.name });
    throw error;
  }
  if (events.length === 0) {
    log.info('webhook carries no event the service uses; acknowledged');
    return;
  }
  const thin = events.find((event) => event.fetch !== undefined);
  if (thin?.fetch !== undefined) {
    const error = new ProviderFetchNotImplementedError(psp, thin.fetch.resource);
    log.warn('thin webhook needs the provider API, which is not implemented; failing it for the DLQ', { error_name: error.name, event_type: thin.type });
    throw error;
  }

  const planned: Array<{ event: NormalisedWebhookEvent; identity: Identity }> = [];
  for (const event of events) {
    const identity = await identityOf(merchantId, event);
    if (identity !== undefined) {
      planned.push({ event, identity });
    } else if (event.type === 'payment_failed') {
      const error = new UnknownWebhookCustomerError(psp);
      log.warn('provider sent no customer email and no known customer; failing it for the DLQ (customer lookup through the provider API is not implemented)', { error_name: error.name });
      throw error;
    } else {
      log.info('webhook event concerns no known customer; nothing to update', { event_type: event.type });
    }
  }
  const ingestEvents = planned.map(({ event, identity }) => ingestEventOf(psp, event, identity));

  const customers = new Set<string>();
  for (const event of ingestEvents) {
    const result = await ingestPaymentEvent(merchantId, event, new Date());
    const customer = await getCustomerByEmail(merchantId, event.customerEmail);
    if (customer !== undefined) customers.add(customer.id);
    log.info('webhook event ingested', { event_type: event.type, status: result.status, payment_event_id: result.payment_event_id });
  }
  // One delivery normally concerns one customer; a batch of several (Adyen) is filed under the first.
  const [customerId] = customers;
  if (customerId !== undefined) await tagWebhookLogWithCustomer(merchantId, logId, customerId);
};
