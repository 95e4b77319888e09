import { StateConflictError } from '#core/errors';
import { timeOrderedId } from '#core/ids';
import { cardIdentityOf } from '#core/card-caps';
import { classifyFailedPayment, dedupeKeyOf, type IngestEvent, type IngestResult, pspOf } from '#core/ingest/ingest-event';
import { type AttemptDecline, OPEN_STATUSES, type PaymentEvent, type PaymentRecord, isOpen } from '#core/payments';
import { getCustomerByEmail, setCardExpiry } from '#data/customer-repository';
import { refuseIfErased } from '#data/erasure-tombstones';
import { claimIngestEvent, completeIngestEvent, type IngestClaim, releaseIngestEvent } from '#data/ingest-events';
import {
  addProviderReference,
  applyPaymentEvent,
  getPayment,
  getPaymentByAnyId,
  getPaymentByInvoice,
  recordFailedPayment,
  recordTimelineEvent,
} from '#data/payment-repository';
import { listPayments } from '#data/payment-queries';
import type { StrategyInputs } from '#data/strategy-settings';
import type { CustomerRecord } from '#core/customers';
import { logger } from '#shared/logger';
import { enrollOnFailure } from './campaign-enrollment';
import { stopEnrollmentsOnCardUpdate } from './campaign-enrollment-writes';
import { recordExperimentConversion } from './experiment-conversions';
import { campaignChannelOf } from './recovery-attribution';

/** How long a duplicate delivery waits for the first one to finish before answering 409. */
const WAIT_FOR_FIRST_DELIVERY_MS = 5_000;

interface Outcome {
  readonly result: IngestResult;
  /** The customer the event concerned, when known (its dedupe record is tagged for erasure). */
  readonly customerId?: string | undefined;
}

/**
 * Ingests one payment event for a merchant; the logic behind POST /ingest/payment-event, free of
 * HTTP so provider webhooks reuse it.
 *
 * - payment_failed: classifies the decline (advice code, network code, provider code) and records
 *   the payment and its recovery (customer created on first sight). A do-not-retry decline is
 *   terminal at once (`recovery_initiated: false`); a hard_customer one opens waiting for a card.
 * - payment_succeeded: recovers the customer's matching open recovery: by provider payment id,
 *   then invoice id, else the newest open one of the same amount and currency.
 * - subscription_cancelled: ends the customer's open recoveries as terminal (only those of
 *   `subscriptionId` when given).
 * - payment_method_updated: lifts the wait on the customer's open recoveries awaiting a card.
 * - charge_refunded: adds a `charge_refunded` entry to the timeline of the payment with that
 *   provider payment id or invoice id.
 * For every type but payment_failed, an unknown customer or no matching payment changes nothing
 * (`processed`, no customer created); a payment found by id must be the customer's.
 *
 * Dedupe: an event with a dedupe key (sender event id, else type + provider payment id) is
 * claimed with a conditional put first; a later delivery gets the stored result as `duplicate`
 * and changes nothing. A concurrent one waits for the first to finish (409 after 5 s).
 *
 * @example await ingestPaymentEvent('merch_1', { type: 'payment_failed', amount: 4999, currency: 'usd', customerEmail: 'a@b.co', declineCode: 'insufficient_funds', psp: 'stripe', metadata: {} }, new Date());
 */
export async function ingestPaymentEvent(merchantId: string, event: IngestEvent, now: Date = new Date()): Promise<IngestResult> {
  const eventId = `evt_${timeOrderedId(now)}`;
  // An erased customer's events are refused before anything is claimed or written (erasure-tombstones.ts).
  if (await refuseIfErased(merchantId, { email: event.customerEmail, providerCustomerId: event.providerCustomerId }, event.type, now))
    return { ...resultOf(event, eventId), status: 'refused' };
  const dedupeKey = dedupeKeyOf(event);
  if (dedupeKey === undefined) return (await applyEvent(merchantId, event, eventId, now)).result;
  const claim = await claimOrWait(merchantId, dedupeKey, eventId, now);
  if (claim.state === 'done') return { ...claim.result, status: 'duplicate' };
  try {
    const { result, customerId } = await applyEvent(merchantId, event, eventId, now);
    await completeIngestEvent(merchantId, dedupeKey, claim.token, result, customerId);
    return result;
  } catch (error) {
    // The lease would run out anyway; releasing lets a redelivery process the event at once.
    await releaseIngestEvent(merchantId, dedupeKey, claim.token).catch(() => undefined);
    throw error;
  }
}

async function claimOrWait(merchantId: string, dedupeKey: string, eventId: string, now: Date): Promise<Exclude<IngestClaim, { state: 'in_progress' }>> {
  const deadline = Date.now() + WAIT_FOR_FIRST_DELIVERY_MS;
  // Doubling pauses up to 1 s: a storm of duplicates polls the claim a few times each, leaving the
  // table's capacity to the first delivery they wait for.
  for (let pause = 50; ; pause = Math.min(pause * 2, 1000)) {
    const claim = await claimIngestEvent(merchantId, dedupeKey, eventId, now);
    if (claim.state !== 'in_progress') return claim;
    if (Date.now() + pause > deadline) throw new StateConflictError('Another delivery of this event is being processed; retry shortly.');
    await new Promise((done) => setTimeout(done, pause * (0.5 + Math.random())));
  }
}

function applyEvent(merchantId: string, event: IngestEvent, eventId: string, now: Date): Promise<Outcome> {
  switch (event.type) {
    case 'payment_failed':
      return paymentFailed(merchantId, event, eventId, now);
    case 'payment_succeeded':
      return paymentSucceeded(merchantId, event, eventId, now);
    case 'subscription_cancelled':
      return onOpenPayments(merchantId, event, eventId, now, (p) => event.subscriptionId === undefined || p.subscription_id === event.subscriptionId, {
        type: 'terminate',
        reason: `Subscription cancelled (event ${eventId})`,
      });
    case 'payment_method_updated':
      return paymentMethodUpdated(merchantId, event, eventId, now);
    case 'charge_refunded':
      return chargeRefunded(merchantId, event, eventId, now);
  }
}

/**
 * A new card: a card identity of its own (fresh network caps), and the policy plans its retry; the
 * customer's card expiry becomes the new card's (cleared when the event gives none: the card-expiry
 * check then no longer enrolls the old card); then the customer's campaign enrollments whose
 * campaign stops on a card update end (`card_updated`), card-expiry notices of the old card included.
 */
async function paymentMethodUpdated(merchantId: string, event: IngestEvent, eventId: string, now: Date): Promise<Outcome> {
  const outcome = await onOpenPayments(
    merchantId,
    event,
    eventId,
    now,
    (p) => p.awaiting_card_update,
    (p) => ({
      type: 'card_updated',
      reason: `Payment method updated (event ${eventId})`,
      cardIdentity: cardIdentityOf({ psp: p.psp, customerId: p.customer_id, cardGeneration: now.toISOString() }),
    }),
  );
  if (outcome.customerId === undefined) return outcome;
  if (event.cardExpiry !== undefined) await setCardExpiry(merchantId, outcome.customerId, event.cardExpiry, now);
  await stopEnrollmentsOnCardUpdate(merchantId, outcome.customerId, now);
  return outcome;
}

const resultOf = (event: IngestEvent, eventId: string, payment?: PaymentRecord, affected: readonly string[] = []): IngestResult => ({
  event_id: eventId,
  event_type: event.type,
  status: 'processed',
  recovery_initiated: false,
  payment_event_id: payment?.id ?? null,
  recovery_id: payment?.recovery_id ?? null,
  affected_payment_ids: affected,
});

async function paymentFailed(merchantId: string, event: IngestEvent, eventId: string, now: Date): Promise<Outcome> {
  const decline = classifyFailedPayment(event);
  const { payment, created, customer, strategyInputs } = await recordFailedPayment(
    {
      merchantId,
      customer: {
        email: event.customerEmail,
        name: event.customerName ?? null,
        provider_customer_id: event.providerCustomerId ?? null,
        timezone: event.customerTimezone,
        phone: event.customerPhone,
        card_expiry: event.cardExpiry,
      },
      psp: pspOf(event),
      providerPaymentId: event.providerPaymentId ?? null,
      amount: event.amount,
      currency: event.currency,
      declineCode: event.declineCode,
      declineCategory: decline.category,
      declineSubcategory: decline.subcategory,
      retryAllowed: decline.retryAllowed,
      subscriptionId: event.subscriptionId ?? null,
      invoiceId: event.invoiceId ?? null,
      metadata: event.metadata,
      networkCode: event.networkCode ?? null,
      adviceCode: event.adviceCode ?? null,
      cardNetwork: event.network ?? null,
    },
    now,
  );
  // A sibling event of a failure already recorded (Stripe's charge after its invoice) may be the one that carries the card's expiry.
  if (!created && event.cardExpiry != null) await setCardExpiry(merchantId, payment.customer_id, event.cardExpiry, now);
  // The charge id beside the id the payment is recorded under (Stripe's ch_… of a pi_…), from this event or a sibling's.
  if (event.providerChargeId !== undefined && event.providerChargeId !== payment.provider_payment_id)
    await addProviderReference(payment, event.providerChargeId);
  // A sibling event of a failure already recorded (Stripe's invoice, charge and PaymentIntent
  // events of one charge arrive in any order) may carry a decline the first one lacked. A payment
  // recorded without a code learns it, and a retry planned for the unknown decline but not
  // attempted yet is planned again by the policy for the code as classified now (a do-not-retry
  // answer ends the recovery, a hard decline waits for a new card, insufficient funds waits for
  // the payday plan). A payment with a code already still ends on a do-not-retry answer, or waits
  // on a hard decline, so no retry goes out that the networks or the issuer forbid.
  if (!created && isOpen(payment.status)) {
    const sameCharge = `event ${eventId} for the same charge`;
    const change: PaymentEvent | undefined =
      payment.decline_code === null && event.declineCode !== null
        ? { type: 'decline_detailed', decline: declineDetailsOf(event, decline), reason: sameCharge }
        : payment.status === 'paused'
          ? undefined
          : !decline.retryAllowed
            ? { type: 'terminate', reason: `Not retried: ${decline.reason} (${sameCharge})` }
            : decline.category === 'hard_customer' && !payment.awaiting_card_update
              ? { type: 'await_card_update', reason: `Waiting for a card update: ${decline.reason} (${sameCharge})` }
              : undefined;
    if (change !== undefined && (await applyWhileOpen(merchantId, payment.id, change, now))) {
      return {
        result: { ...resultOf(event, eventId, payment, [payment.id]), status: 'processed', recovery_initiated: false },
        customerId: payment.customer_id,
      };
    }
  }
  if (created) await enrollQuietly(payment, customer, now, strategyInputs);
  const result: IngestResult = {
    ...resultOf(event, eventId, payment, created ? [payment.id] : []),
    status: created ? 'processed' : 'duplicate',
    recovery_initiated: created && isOpen(payment.status),
  };
  return { result, customerId: payment.customer_id };
}

/**
 * Enrolls a newly recorded failure in the merchant's matching campaign (services/campaign-enrollment.ts).
 * A failure to enroll is logged and does not fail the ingest: the payment and its retry plan are
 * recorded already, and a redelivery would find the payment recorded and enroll nothing either.
 */
async function enrollQuietly(payment: PaymentRecord, customer: CustomerRecord | undefined, now: Date, strategyInputs?: StrategyInputs): Promise<void> {
  try {
    await enrollOnFailure(payment, customer, now, strategyInputs);
  } catch (error) {
    logger.error('campaign enrollment failed', {
      merchant_id: payment.merchant_id,
      payment_id: payment.id,
      error_name: error instanceof Error ? error.name : 'Error',
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

/** The decline an event carries, as a payment records it. */
const declineDetailsOf = (event: IngestEvent, decline: { category: AttemptDecline['decline_category']; subcategory: string }): AttemptDecline => ({
  decline_code: event.declineCode ?? '',
  decline_category: decline.category,
  decline_subcategory: decline.subcategory,
  network_code: event.networkCode ?? null,
  advice_code: event.adviceCode ?? null,
  card_network: event.network ?? null,
});

/** The customer's payment the event names by provider payment id or invoice id, else (when allowed) the newest open one of its amount. */
async function matchingPayment(merchantId: string, customerId: string, event: IngestEvent, byAmount: boolean): Promise<PaymentRecord | undefined> {
  const byId = event.providerPaymentId === undefined ? undefined : await getPaymentByAnyId(merchantId, event.providerPaymentId);
  if (byId?.customer_id === customerId) return byId;
  const byInvoice = event.invoiceId === undefined ? undefined : await getPaymentByInvoice(merchantId, event.invoiceId);
  if (byInvoice?.customer_id === customerId) return byInvoice;
  if (!byAmount) return undefined;
  return (await openPaymentsOf(merchantId, customerId)).find((p) => p.amount === event.amount && p.currency === event.currency);
}

/** The customer's open recoveries, newest first. */
async function openPaymentsOf(merchantId: string, customerId: string): Promise<PaymentRecord[]> {
  const open: PaymentRecord[] = [];
  for (let page = 1; ; page += 1) {
    const { payments, pagination } = await listPayments(merchantId, { customerId, statuses: OPEN_STATUSES }, page, 100);
    open.push(...payments);
    if (page >= pagination.total_pages || payments.length === 0) return open;
  }
}

/** Applies a transition; false when the payment is no longer open (another event got there first). */
async function applyWhileOpen(merchantId: string, paymentId: string, change: PaymentEvent, now: Date): Promise<boolean> {
  try {
    await applyPaymentEvent(merchantId, paymentId, change, now);
    return true;
  } catch (error) {
    if (!(error instanceof StateConflictError)) throw error;
    const current = await getPayment(merchantId, paymentId);
    if (current !== undefined && isOpen(current.status)) throw error;
    return false;
  }
}

async function paymentSucceeded(merchantId: string, event: IngestEvent, eventId: string, now: Date): Promise<Outcome> {
  const customer = await getCustomerByEmail(merchantId, event.customerEmail);
  if (customer === undefined) return { result: resultOf(event, eventId) };
  const payment = await matchingPayment(merchantId, customer.id, event, true);
  if (payment === undefined || !isOpen(payment.status)) return { result: resultOf(event, eventId, payment), customerId: customer.id };
  // What the campaign sent it decides the recovery's method (core/recovery-method.ts), read before the write.
  const campaignChannel = await campaignChannelOf(payment);
  const recovered = await applyWhileOpen(merchantId, payment.id, { type: 'recover', reason: `Payment succeeded (event ${eventId})`, campaignChannel }, now);
  if (recovered) await recordExperimentConversion(payment, now);
  return { result: resultOf(event, eventId, payment, recovered ? [payment.id] : []), customerId: customer.id };
}

async function onOpenPayments(
  merchantId: string,
  event: IngestEvent,
  eventId: string,
  now: Date,
  applies: (p: PaymentRecord) => boolean,
  change: PaymentEvent | ((p: PaymentRecord) => PaymentEvent),
): Promise<Outcome> {
  const customer = await getCustomerByEmail(merchantId, event.customerEmail);
  if (customer === undefined) return { result: resultOf(event, eventId) };
  const affected: string[] = [];
  // One at a time: every change also rewrites the customer item, so parallel writes would only contend.
  for (const payment of (await openPaymentsOf(merchantId, customer.id)).filter(applies)) {
    if (await applyWhileOpen(merchantId, payment.id, typeof change === 'function' ? change(payment) : change, now)) affected.push(payment.id);
  }
  return { result: resultOf(event, eventId, undefined, affected), customerId: customer.id };
}

async function chargeRefunded(merchantId: string, event: IngestEvent, eventId: string, now: Date): Promise<Outcome> {
  const customer = await getCustomerByEmail(merchantId, event.customerEmail);
  if (customer === undefined) return { result: resultOf(event, eventId) };
  const payment = await matchingPayment(merchantId, customer.id, event, false);
  if (payment === undefined) return { result: resultOf(event, eventId), customerId: customer.id };
  await recordTimelineEvent(
    merchantId,
    payment.id,
    {
      type: 'charge_refunded',
      detail: `Charge refunded: ${event.amount} ${event.currency}`,
      details: {
        amount: event.amount,
        amount_cents: event.amount,
        currency: event.currency,
        provider_payment_id: event.providerPaymentId ?? null,
        event_id: eventId,
      },
    },
    now,
  );
  return { result: resultOf(event, eventId, payment, [payment.id]), customerId: customer.id };
}
