import * as z from '#shared/zod';
import { customerFetcherFor, providerApiFor } from '#adapters/provider-api/index';
import type { IngestEvent } from '#core/ingest/ingest-event';
import { type Currency, isCurrency } from '#core/money';
import {
  type FetchedCustomer,
  type FetchedOwner,
  type FetchedPayment,
  type FetchedResource,
  type FetchedSubscription,
  ProviderApiError,
  type ThinResource,
} from '#core/provider-api';
import { PSPS, type Psp } from '#core/providers';
import { getCustomer, getCustomerByAnyId, getCustomerByEmail, setCardExpiry } from '#data/customer-repository';
import { refuseIfErased } from '#data/erasure-tombstones';
import { recordAnnouncedCharge } from '#services/upcoming-charges';
import { ingestPaymentEvent } from '#services/ingest-payment-event';
import { getPaymentByAnyId } from '#data/payment-repository';
import { getProviderApiKey } from '#data/provider-secret-repository';
import {
  deleteWebhookLog,
  fileWebhookLogUnderCustomers,
  getWebhookLog,
  PROVIDER_WEBHOOK_KIND,
  rawBodyOf,
  type WebhookLogRecord,
} from '#data/webhook-log-repository';
import { logger } from '#shared/logger';
import { webhookModuleFor } from '#webhooks/registry';
import { type NormalisedWebhookEvent, WebhookPayloadError } from '#webhooks/types';
import type { MessageProcessor } from './consume';

/** What the webhook intake enqueues on `inbound-webhooks`: ids only, never the payload. */
export const ProviderWebhookMessageSchema = z.object({
  kind: z.literal(PROVIDER_WEBHOOK_KIND),
  merchant_id: z.string().check(z.minLength(1)),
  psp: z.enum(PSPS),
  webhook_log_id: z.string().check(z.minLength(1)),
});
export type ProviderWebhookMessage = z.infer<typeof ProviderWebhookMessageSchema>;

/**
 * A thin event names a resource no provider API adapter fetches. Every resource the webhook
 * modules put in `fetch` has an adapter (functions/adapters/provider-api/index.ts), so this is a
 * programming error (a module naming a new resource before its adapter exists): the message fails
 * until the DLQ, and a redrive after the fix processes it; nothing of it is recorded meanwhile.
 */
export class ProviderFetchNotImplementedError extends Error {
  constructor(psp: Psp, resource: string) {
    super(`${psp} sent a thin event naming a resource (${resource}) that no provider API adapter fetches`);
    this.name = 'ProviderFetchNotImplementedError';
  }
}

/**
 * A thin event the service could fetch, but the merchant has no API key for the provider
 * (`providers set-api-key`). Ends in the DLQ; a redrive after the key is set processes it.
 */
export class ProviderApiKeyMissingError extends Error {
  constructor(psp: Psp) {
    super(
      `${psp} sent a thin event whose details must be fetched from the provider's API, but the merchant has no ${psp} API key (set it with: providers set-api-key)`,
    );
    this.name = 'ProviderApiKeyMissingError';
  }
}

/**
 * A failed payment the service cannot file: the provider sent no customer email, no customer or
 * payment it names is known here, and the provider's API gave no email for the customer (no API
 * key for the psp, no customer lookup for it, the customer unknown to the provider (404) or
 * without email). Such messages end in the DLQ; a redrive after the key is set processes them.
 */
export class UnknownWebhookCustomerError extends Error {
  constructor(psp: Psp) {
    super(
      `${psp} sent a payment_failed with no customer email and no known customer or payment, and the customer could not be looked up through the provider's API`,
    );
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
 * The customer the event names, looked up through the provider's API (for a payment_failed whose
 * event carries no email and whose customer is unknown here): undefined when there is no
 * provider customer id, no lookup for the psp, no API key for it, the provider answers 404 or the
 * customer has no email. A 5xx, 429 or timeout (and a refused key or an unexpected answer) is
 * thrown, so the message is redelivered, then dead-lettered, as on the thin-event path.
 */
async function lookedUpCustomer(merchantId: string, psp: Psp, event: NormalisedWebhookEvent, log: typeof logger): Promise<FetchedCustomer | undefined> {
  const providerCustomerId = event.customer?.providerCustomerId;
  const fetcher = customerFetcherFor(psp);
  if (providerCustomerId === undefined || fetcher === undefined) return undefined;
  const credential = await getProviderApiKey(merchantId, psp);
  if (credential === undefined) {
    log.info('no provider API key to look the customer up with', { event_type: event.type });
    return undefined;
  }
  let customer: FetchedCustomer | undefined;
  try {
    customer = await fetcher.fetchCustomer({ apiKey: credential.api_key }, providerCustomerId);
  } catch (error) {
    if (error instanceof ProviderApiError && error.notFound) {
      log.info('provider does not know the customer the event names', { event_type: event.type });
      return undefined;
    }
    if (error instanceof ProviderApiError) {
      log.warn(
        error.retryable
          ? 'provider API unavailable for the customer lookup; the message will be retried'
          : 'provider API refused the customer lookup; failing it',
        { error_name: error.name, failure: error.failure, status: error.status },
      );
    }
    throw error;
  }
  const email = customer?.email?.trim();
  if (email === undefined || email === '') {
    log.info('provider holds no email for the customer the event names', { event_type: event.type });
    return undefined;
  }
  return { email, name: customer?.name };
}

/**
 * The ingest event of a normalised one. A payment_failed needs its amount and one of the 20
 * currencies (else UnusableWebhookEventError). The other types do not use amount and currency
 * to change anything except where given: payment_succeeded matches an open payment by amount only
 * when both are present (otherwise amount 0, which matches no failed payment, and UNUSED_CURRENCY),
 * charge_refunded records them on its timeline entry.
 */
type IngestableEvent = NormalisedWebhookEvent & { readonly type: IngestEvent['type'] };
const isIngestable = (event: NormalisedWebhookEvent): event is IngestableEvent => event.type !== 'upcoming_charge' && event.type !== 'card_expiry';

function ingestEventOf(psp: Psp, event: IngestableEvent, identity: Identity): IngestEvent {
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
    providerChargeId: payment.providerChargeId,
    psp,
    customerName: event.customer?.name,
    providerCustomerId: event.customer?.providerCustomerId,
    subscriptionId: payment.subscriptionId,
    invoiceId: payment.invoiceId,
    networkCode: payment.networkCode,
    network: payment.network,
    adviceCode: payment.adviceCode,
    cardExpiry: event.cardExpiry,
    metadata: {
      source: 'provider_webhook',
      provider_event_id: event.providerEventId,
      ...(payment.providerPaymentId === undefined ? {} : { provider_payment_id: payment.providerPaymentId }),
      ...(payment.invoiceId === undefined ? {} : { invoice_id: payment.invoiceId }),
      ...(payment.subscriptionId === undefined ? {} : { subscription_id: payment.subscriptionId }),
    },
  };
}

/**
 * Mollie's payment resource is the one thin resource whose event type is only provisional: the
 * classic body (`id=tr_…`) states nothing, so the fetched payment's status decides the type, and
 * since Mollie calls again with the same body on every status change, the dedupe id is
 * `mollie:<payment id>:<status>`. Every other thin event is a signed fact (GoCardless
 * `payments.failed`, a Mollie `chargeback.received` …): its type stands (a failed payment
 * GoCardless already retries reads `pending_submission` when fetched), and the fetch adds amount,
 * currency and customer; the event's own decline code stays when the fetch has none.
 */
const typeFromFetchedStatus = (psp: Psp, thin: ThinResource): boolean => psp === 'mollie' && thin.resource === 'payment';

const TYPE_OF_STATUS: Readonly<Record<Exclude<FetchedPayment['status'], 'other'>, NormalisedWebhookEvent['type']>> = {
  failed: 'payment_failed',
  succeeded: 'payment_succeeded',
  refunded: 'charge_refunded',
};

/** The event completed with what was fetched: the fetched values first, the event's where the fetch has none. */
function completedEvent(
  event: NormalisedWebhookEvent,
  fetched: { payment?: NonNullable<NormalisedWebhookEvent['payment']>; customer: FetchedOwner },
  overrides: Pick<NormalisedWebhookEvent, 'type' | 'providerEventId'> = event,
): NormalisedWebhookEvent {
  const payment = fetched.payment ?? {};
  return {
    psp: event.psp,
    providerEventId: overrides.providerEventId,
    type: overrides.type,
    occurredAt: event.occurredAt,
    payment: {
      ...event.payment,
      providerPaymentId: payment.providerPaymentId ?? event.payment?.providerPaymentId,
      amount: payment.amount ?? event.payment?.amount,
      currency: payment.currency ?? event.payment?.currency,
      declineCode: overrides.type === 'payment_failed' ? (payment.declineCode ?? event.payment?.declineCode) : undefined,
      subscriptionId: payment.subscriptionId ?? event.payment?.subscriptionId,
      invoiceId: payment.invoiceId ?? event.payment?.invoiceId,
    },
    customer: {
      email: fetched.customer.email ?? event.customer?.email,
      name: fetched.customer.name ?? event.customer?.name,
      providerCustomerId: fetched.customer.providerCustomerId ?? event.customer?.providerCustomerId,
    },
  };
}

/** A payment completes the event with its amount, currency, decline code, ids and customer. */
function withPayment(psp: Psp, event: NormalisedWebhookEvent, thin: ThinResource, fetched: FetchedPayment): NormalisedWebhookEvent | undefined {
  const { customer, status, ...payment } = fetched;
  if (!typeFromFetchedStatus(psp, thin)) return completedEvent(event, { payment, customer });
  if (status === 'other') return undefined;
  return completedEvent(event, { payment, customer }, { type: TYPE_OF_STATUS[status], providerEventId: `${fetched.providerPaymentId}:${status}` });
}

/**
 * A subscription completes the event with its id (as the provider's payments name it, which is
 * what recoveries are filed under) and its customer; a subscription_cancelled whose subscription
 * has not ended (reactivated since) is dropped, since ending recoveries cannot be undone. Only a
 * failed renewal that names no transaction (Authorize.Net ARB) uses the subscription's recurring
 * amount and currency, for the amount it does not carry.
 */
function withSubscription(event: NormalisedWebhookEvent, fetched: FetchedSubscription): NormalisedWebhookEvent | undefined {
  if (event.type === 'subscription_cancelled' && !fetched.ended) return undefined;
  const { customer, subscriptionId } = fetched;
  if (event.type !== 'payment_failed') return completedEvent(event, { payment: { subscriptionId }, customer });
  return completedEvent(event, { payment: { subscriptionId, amount: event.payment?.amount ?? fetched.amount, currency: fetched.currency }, customer });
}

/** The thin event completed with its fetched resource, or undefined when there is nothing to ingest. */
function enriched(psp: Psp, event: NormalisedWebhookEvent, thin: ThinResource, fetched: FetchedResource): NormalisedWebhookEvent | undefined {
  switch (fetched.kind) {
    case 'payment':
      return withPayment(psp, event, thin, fetched.payment);
    case 'refund': {
      const { customer, ...refund } = fetched.refund;
      return completedEvent(event, { payment: refund, customer });
    }
    case 'subscription':
      return withSubscription(event, fetched.subscription);
    case 'payment_method':
      return completedEvent(event, { customer: fetched.paymentMethod.customer });
  }
}

/**
 * Completes thin events from the provider's API, before anything is written, each through the
 * adapter for its (psp, resource) (functions/adapters/provider-api):
 * - a resource no adapter fetches → ProviderFetchNotImplementedError (DLQ; a programming error);
 * - no API key for the psp → ProviderApiKeyMissingError (DLQ);
 * - ProviderApiError `not_found` (404) → the event names nothing: logged and dropped;
 *   `unavailable` (5xx, 429, timeout) and the others are thrown (redelivered, then the DLQ);
 * - a fetched state the service does not use (a payment still open, a cancelled subscription
 *   reactivated since …) → dropped.
 * Events that were not thin pass through unchanged.
 */
async function withFetched(merchantId: string, psp: Psp, events: NormalisedWebhookEvent[], log: typeof logger): Promise<NormalisedWebhookEvent[]> {
  if (events.every((event) => event.fetch === undefined)) return events;
  for (const event of events) {
    if (event.fetch !== undefined && providerApiFor(psp, event.fetch.resource) === undefined) {
      const error = new ProviderFetchNotImplementedError(psp, event.fetch.resource);
      log.error('thin webhook names a resource no provider API adapter fetches; failing it for the DLQ', {
        error_name: error.name,
        event_type: event.type,
        resource: event.fetch.resource,
      });
      throw error;
    }
  }
  const credential = await getProviderApiKey(merchantId, psp);
  if (credential === undefined) {
    const error = new ProviderApiKeyMissingError(psp);
    log.warn('thin webhook needs the provider API but the merchant has no API key for it; failing it for the DLQ', { error_name: error.name });
    throw error;
  }
  const completed: NormalisedWebhookEvent[] = [];
  for (const event of events) {
    const { fetch: thin } = event;
    const api = thin === undefined ? undefined : providerApiFor(psp, thin.resource);
    if (thin === undefined || api === undefined) {
      completed.push(event);
      continue;
    }
    let fetched: FetchedResource;
    try {
      fetched = await api.fetchResource({ apiKey: credential.api_key }, thin);
    } catch (error) {
      if (error instanceof ProviderApiError && error.notFound) {
        log.info('thin webhook names a resource the provider does not know; dropped', { resource: thin.resource });
        continue;
      }
      if (error instanceof ProviderApiError) {
        log.warn(error.retryable ? 'provider API unavailable; the message will be retried' : 'provider API refused the fetch; failing it', {
          error_name: error.name,
          failure: error.failure,
          status: error.status,
        });
      }
      throw error;
    }
    const completedOne = enriched(psp, event, thin, fetched);
    if (completedOne === undefined) {
      log.info('fetched resource is in a state the service does not use; dropped', { resource: thin.resource, event_type: event.type });
      continue;
    }
    completed.push(completedOne);
  }
  return completed;
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
 * - a thin event is completed from the provider's API (withFetched), whatever it names: Mollie
 *   payments, chargebacks and refunds; GoCardless payments, mandates, subscriptions and refunds;
 *   Authorize.Net transactions, ARB subscriptions and payment profiles; Recurly transactions,
 *   subscriptions and accounts; the PaymentIntent of a basil Stripe `invoice.payment_failed`
 *   (`invoice_payment`, so it and its PaymentIntent's own event make one recovery);
 * - each event is ingested with event id `${psp}:${providerEventId}`, so a redelivery is a
 *   duplicate that changes nothing; the customer is the event's email, else the customer or
 *   payment the provider names, else (payment_failed) the customer looked up through the
 *   provider's API (customerFetcherFor; with the merchant's API key); a payment_failed with none
 *   of these → UnknownWebhookCustomerError (DLQ); a 5xx or timeout of that lookup → retried;
 *   other types with no known customer are dropped (nothing to update);
 * - the stored delivery is filed under every customer it concerns (GSI2: a tag for the first, a
 *   link item for each further one of a batch), so erasing any of them removes it.
 * - an event for an erased customer (a tombstone matches its email or provider customer id) is
 *   refused: nothing is looked up, written or charged for it, and the stored delivery is deleted
 *   (it names the customer, and erasure could no longer find it).
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
    if (error instanceof WebhookPayloadError)
      log.warn('verified webhook is not what the provider documents; failing it for the DLQ', { error_name: error.name });
    throw error;
  }
  if (events.length === 0) {
    log.info('webhook carries no event the service uses; acknowledged');
    return;
  }
  events = await withFetched(merchantId, psp, events, log);
  if (events.length === 0) {
    log.info('thin webhook left no event to ingest after the fetch; acknowledged');
    return;
  }

  const planned: Array<{ event: NormalisedWebhookEvent; identity: Identity }> = [];
  let refused = false;
  for (const event of events) {
    // An erased customer's event is refused before any lookup (erasure-tombstones.ts).
    if (await refuseIfErased(merchantId, { email: event.customer?.email, providerCustomerId: event.customer?.providerCustomerId }, event.type)) {
      refused = true;
      continue;
    }
    const identity = await identityOf(merchantId, event);
    if (identity !== undefined) {
      planned.push({ event, identity });
    } else if (event.type === 'payment_failed') {
      const customer = await lookedUpCustomer(merchantId, psp, event, log);
      if (customer?.email !== undefined) {
        // As if the event had carried the email (and the name, when it had none).
        const withCustomer: NormalisedWebhookEvent = {
          ...event,
          customer: { ...event.customer, email: customer.email, name: event.customer?.name ?? customer.name },
        };
        planned.push({ event: withCustomer, identity: { email: customer.email } });
        continue;
      }
      const error = new UnknownWebhookCustomerError(psp);
      log.warn('provider sent no customer email and no known customer, and the provider API gave none; failing it for the DLQ', { error_name: error.name });
      throw error;
    } else {
      log.info('webhook event concerns no known customer; nothing to update', { event_type: event.type });
    }
  }
  const ingestEvents = planned.flatMap(({ event, identity }) => (isIngestable(event) ? [ingestEventOf(psp, event, identity)] : []));

  const customers = new Set<string>();
  // A renewal announced before it is charged is stored for the daily pre-dunning task, and a card's
  // expiry on its customer (known customers only: ingest creates customers); neither is ingested.
  for (const { event, identity } of planned) {
    if (event.type === 'card_expiry' && event.cardExpiry != null) {
      const known = await getCustomerByEmail(merchantId, identity.email);
      if (known !== undefined) await setCardExpiry(merchantId, known.id, event.cardExpiry, new Date());
      if (known !== undefined) customers.add(known.id);
      log.info('card expiry announced', { known: known !== undefined });
      continue;
    }
    if (isIngestable(event) || event.dueAt === undefined) continue;
    const announced = await recordAnnouncedCharge(
      merchantId,
      {
        psp,
        providerEventId: event.providerEventId,
        customerEmail: identity.email,
        subscriptionId: event.payment?.subscriptionId,
        amount: event.payment?.amount,
        currency: event.payment?.currency,
        dueAt: event.dueAt,
        cardExpiry: event.cardExpiry,
      },
      new Date(),
    );
    const customerId = announced.outcome === 'stored' ? announced.charge.customer_id : announced.customerId;
    if (customerId !== undefined) customers.add(customerId);
    log.info('upcoming charge announced', { outcome: announced.outcome, ...(announced.outcome === 'ignored' ? { reason: announced.reason } : {}) });
  }
  for (const event of ingestEvents) {
    const result = await ingestPaymentEvent(merchantId, event, new Date());
    if (result.status === 'refused') refused = true;
    const customer = await getCustomerByEmail(merchantId, event.customerEmail);
    if (customer !== undefined) customers.add(customer.id);
    log.info('webhook event ingested', { event_type: event.type, status: result.status, payment_event_id: result.payment_event_id });
  }
  // A delivery that names an erased customer is not kept: erasure could no longer find it.
  if (refused) {
    await deleteWebhookLog(merchantId, record.id);
    log.info('stored webhook deleted: it names an erased customer');
    return;
  }
  // One delivery normally concerns one customer; a batch (Adyen) is filed under each it names.
  await fileWebhookLogUnderCustomers(merchantId, record, [...customers]);
};
