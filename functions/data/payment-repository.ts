import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { type CustomerRecord, customerMoneyAfter, openPaymentRefsAfter } from '#core/customers';
import type { DeclineCategory } from '#core/decline-codes/types';
import { ResourceNotFoundError } from '#core/errors';
import { timeOrderedId } from '#core/ids';
import { blocked, cardIdentityOf } from '#core/card-caps';
import {
  DEFAULT_MAX_RETRIES,
  type InvoicedPayment,
  isInvoiced,
  type PaymentEvent,
  type PaymentRecord,
  type PaymentStatus,
  type StateHistoryEntry,
  type Transition,
  commitInstant,
  isOpen,
  paymentBodyOf,
  paymentIdFor,
  recoveryIdFor,
  transition,
} from '#core/payments';
import { env } from '#shared/env';
import { outboundEventItem } from './outbound-event-repository';
import { documentClient } from './client';
import { cardLedgerPut, getCardLedger } from './card-ledger-repository';
import { type CustomerIdentity, type TransactItem, getCustomer, putCustomer, resolveCustomer } from './customer-repository';
import { paymentEntity } from './entities/payment';
import { type ChangeRetry, newPaymentEventItems, paymentChangeEventItems } from './payment-change-events';
import { customerTags, ENTITY, paymentKeys } from './keys';
import { loadPlanningContext, needsRetryPlan, plannedRetryEvent } from './retry-planning';
import type { StrategyInputs } from './strategy-settings';
import { transactOptimistically } from './transact';

type Item = Record<string, unknown>;

const get = async (key: { PK: string; SK: string }): Promise<Item | undefined> =>
  (await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: key, ConsistentRead: true }))).Item;

const bodyOf = (payment: PaymentRecord): string => paymentBodyOf(payment.id) as string;

export const paymentFromItem = (item: Item): PaymentRecord => paymentEntity.fromItem(item);

/** The stored item of a payment, with the index attributes its list patterns need (entities/payment.ts). */
export const paymentItem = (payment: PaymentRecord): Item => paymentEntity.toItem(payment);

/** The unique reference from the provider's payment id to the payment (GET /payments/{provider charge id}). */
export function providerRefItem(payment: PaymentRecord, providerPaymentId: string): Item {
  const key = paymentKeys.providerRef(payment.merchant_id, providerPaymentId);
  return { ...key, entity: ENTITY.paymentRef, payment_id: payment.id, ...customerTags.reference(payment.merchant_id, payment.customer_id, key) };
}

/**
 * A further provider id the payment is found by (GET /payments/{id}: Stripe's charge `ch_…` of a
 * payment recorded under its PaymentIntent), as the same unique reference item, tagged for
 * erasure. An id already referenced (to this payment or another) is left as it is.
 */
export async function addProviderReference(payment: PaymentRecord, providerId: string): Promise<void> {
  try {
    await documentClient.send(
      new PutCommand({ TableName: env.TABLE_NAME, Item: providerRefItem(payment, providerId), ConditionExpression: 'attribute_not_exists(PK)' }),
    );
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
  }
}

/** Payment list totals are kept by the table-stream consumer (projections/payment-counters.ts). */
export { paymentCounterNames } from './projections/payment-counters';

/**
 * The Put of one timeline entry of a payment (carries the customer's GSI2PK, so erasure removes
 * it); for transactions of other repositories too. Entries written at the same instant keep the
 * order they happened in: by the payment's version (each write bumps it: an attempt's record and
 * its outcome may share an instant when the clock is a job's scheduled time), then by `order`
 * within one write.
 */
export function timelineItem(payment: PaymentRecord, at: string, entry: Transition['timeline'], order = 0): TransactItem {
  const seq = `${payment.version.toString().padStart(6, '0')}${order.toString().padStart(2, '0')}${randomBytes(4).toString('hex')}`;
  return {
    Put: {
      TableName: env.TABLE_NAME,
      Item: {
        ...paymentKeys.timelineEntry(payment.merchant_id, bodyOf(payment), at, seq),
        entity: ENTITY.timelineEntry,
        payment_id: payment.id,
        invoice_id: payment.invoice_id,
        type: entry.type,
        timestamp: at,
        detail: entry.detail,
        details: entry.details,
        ...customerTags.record(payment.merchant_id, payment.customer_id, paymentKeys.timelineEntry(payment.merchant_id, bodyOf(payment), at, seq)),
      },
    },
  };
}

/** How a customer's figures move when one of its payments changes. */
export function customerAfter(customer: CustomerRecord, before: PaymentRecord | undefined, after: PaymentRecord): CustomerRecord {
  const wasOpen = before !== undefined && isOpen(before.status);
  const recovered = after.status === 'recovered' && before?.status !== 'recovered';
  const openPayments = customer.open_payments + (isOpen(after.status) ? 1 : 0) - (wasOpen ? 1 : 0);
  const openRefs = openPaymentRefsAfter(customer, { ...after, open: isOpen(after.status) }, openPayments);
  return {
    ...customer,
    total_payments: customer.total_payments + (before === undefined ? 1 : 0),
    failed_payments: customer.failed_payments + (before === undefined ? 1 : 0),
    open_payments: openPayments,
    ...(openRefs === undefined ? {} : { open_payment_refs: openRefs }),
    recovered_payments: customer.recovered_payments + (recovered ? 1 : 0),
    ...customerMoneyAfter(customer, after, { created: before === undefined, recovered }),
  };
}

export async function getPayment(merchantId: string, id: string): Promise<PaymentRecord | undefined> {
  const body = paymentBodyOf(id);
  if (body === undefined) return undefined;
  const item = await get(paymentKeys.payment(merchantId, body));
  return item === undefined ? undefined : paymentFromItem(item);
}

/** B: the id may be ours (`pe_…`, `rec_…`) or the provider's charge id. */
export async function getPaymentByAnyId(merchantId: string, id: string): Promise<PaymentRecord | undefined> {
  if (paymentBodyOf(id) !== undefined) return getPayment(merchantId, id);
  const ref = await get(paymentKeys.providerRef(merchantId, id));
  return ref === undefined ? undefined : getPayment(merchantId, ref.payment_id as string);
}

export async function getPaymentByInvoice(merchantId: string, invoiceId: string): Promise<InvoicedPayment | undefined> {
  const ref = await get(paymentKeys.invoiceRef(merchantId, invoiceId));
  const payment = ref === undefined ? undefined : await getPayment(merchantId, ref.payment_id as string);
  return payment !== undefined && isInvoiced(payment) ? payment : undefined;
}

export interface NewFailedPayment {
  readonly merchantId: string;
  readonly customer: CustomerIdentity;
  readonly psp: string;
  readonly providerPaymentId: string | null;
  readonly amount: number;
  readonly currency: string;
  readonly declineCode: string | null;
  readonly declineCategory: DeclineCategory;
  readonly declineSubcategory: string;
  /** False for a do-not-retry decline: the payment is recorded as terminal at once. */
  readonly retryAllowed: boolean;
  readonly subscriptionId?: string | null;
  readonly invoiceId?: string | null;
  readonly metadata?: Readonly<Record<string, unknown>>;
  readonly maxRetries?: number;
  readonly networkCode?: string | null;
  readonly adviceCode?: string | null;
  readonly cardNetwork?: string | null;
  /** The provider's fingerprint of the card, when the event gave one (core/card-caps.ts cardIdentityOf). */
  readonly cardFingerprint?: string | null;
}

/** What recordFailedPayment did: the payment (new, or the one it already was), and for a new one its customer as written and the merchant's strategy its retry plan read (strategy-settings.ts). */
export interface RecordedFailure {
  readonly payment: PaymentRecord;
  readonly created: boolean;
  readonly customer?: CustomerRecord;
  readonly strategyInputs?: StrategyInputs | undefined;
}

/**
 * Records a failed payment and opens its recovery, in one transaction with its customer
 * (created on first sight), references, first timeline entry and its events (the retry planned
 * with it, or `payment.terminal` for a decline that forbids retries: payment-change-events.ts)
 * (list totals and the monthly
 * recovery counters follow from the table's stream: functions/consumers/table-stream.ts). A
 * provider payment id already recorded returns the payment that has it, unchanged
 * (`created: false`), so a redelivered event changes nothing, however many arrive at once; so does
 * an invoice whose recovery is still open (the provider retried it under a new transaction id).
 */
export async function recordFailedPayment(input: NewFailedPayment, now: Date = new Date()): Promise<RecordedFailure> {
  return transactOptimistically<RecordedFailure>(async () => {
    if (input.providerPaymentId !== null) {
      const existing = await getPaymentByAnyId(input.merchantId, input.providerPaymentId);
      if (existing !== undefined) return { items: [], result: { payment: existing, created: false } };
    }
    // The same invoice failing again while its recovery is open is the same debt: the provider's
    // own retry (Braintree, Razorpay, Chargebee give each attempt a new transaction id) or a
    // sibling event naming the invoice only. A second recovery would retry it twice.
    let previousOfInvoice: string | undefined;
    if (input.invoiceId !== undefined && input.invoiceId !== null) {
      const sameInvoice = await getPaymentByInvoice(input.merchantId, input.invoiceId);
      if (sameInvoice !== undefined && isOpen(sameInvoice.status)) return { items: [], result: { payment: sameInvoice, created: false } };
      previousOfInvoice = sameInvoice?.id;
    }
    const { customer, isNew } = await resolveCustomer(input.merchantId, { ...input.customer, psp: input.customer.psp ?? input.psp }, now);
    const at = now.toISOString();
    const body = timeOrderedId(now);
    const codeText = input.declineCode ?? 'none';
    const history: StateHistoryEntry[] = [
      { status: 'pending', at, reason: `Payment failed: decline code ${codeText} (${input.declineCategory}/${input.declineSubcategory})` },
    ];
    if (!input.retryAllowed) history.push({ status: 'terminal', at, reason: `Not retried: decline code ${codeText} forbids further attempts` });
    const status: PaymentStatus = input.retryAllowed ? 'pending' : 'terminal';
    const payment: PaymentRecord = {
      id: paymentIdFor(body),
      recovery_id: recoveryIdFor(body),
      merchant_id: input.merchantId,
      customer_id: customer.id,
      customer_email: customer.email,
      psp: input.psp,
      provider_payment_id: input.providerPaymentId,
      amount: input.amount,
      currency: input.currency,
      status,
      previous_status: null,
      decline_code: input.declineCode,
      decline_category: input.declineCategory,
      decline_subcategory: input.declineSubcategory,
      retry_count: 0,
      max_retries: input.maxRetries ?? DEFAULT_MAX_RETRIES,
      next_retry_at: null,
      paused_at: null,
      resumed_at: null,
      recovered_at: null,
      recovery_method: null,
      terminal_at: status === 'terminal' ? at : null,
      card_updated_at: null,
      awaiting_card_update: input.declineCategory === 'hard_customer',
      network_code: input.networkCode ?? null,
      advice_code: input.adviceCode ?? null,
      card_network: input.cardNetwork ?? null,
      card_identity: cardIdentityOf({ psp: input.psp, customerId: customer.id, fingerprint: input.cardFingerprint ?? null }),
      ...(customer.timezone === undefined ? {} : { customer_timezone: customer.timezone }),
      attempt: null,
      gateway_errors: 0,
      last_attempt_at: null,
      retry_requested_at: null,
      subscription_id: input.subscriptionId ?? null,
      invoice_id: input.invoiceId ?? null,
      campaign_id: null,
      metadata: input.metadata ?? {},
      state_history: history,
      created_at: at,
      updated_at: at,
      version: 1,
    };
    // The policy's first decision is written with the payment, so no open payment is ever left unplanned.
    const firstTimeline: Transition['timeline'] = {
      type: 'payment_failed',
      detail: `Payment of ${input.amount} ${input.currency} failed with ${codeText}`,
      details: { decline_code: input.declineCode, decline_category: input.declineCategory, amount: input.amount, currency: input.currency },
    };
    const {
      after: planned,
      timelines,
      strategyInputs,
    } = needsRetryPlan(payment) ? await withRetryPlan(input.merchantId, payment, [], now) : { after: payment, timelines: [], strategyInputs: undefined };
    const customerNow = customerAfter(customer, undefined, planned);
    const items: TransactItem[] = [
      { Put: { TableName: env.TABLE_NAME, Item: paymentItem(planned), ConditionExpression: 'attribute_not_exists(PK)' } },
      ...[firstTimeline, ...timelines].map((entry, order) => timelineItem(planned, at, entry, order)),
      ...putCustomer(isNew ? undefined : customer, customerNow, now),
      // The outbox (webhooks): B's `payment.failed` (A names no such event), filed under the customer.
      outboundEventItem(
        input.merchantId,
        planned.customer_id,
        ['payment.failed'],
        {
          payment_id: planned.id,
          recovery_id: planned.recovery_id,
          customer_id: planned.customer_id,
          amount: planned.amount,
          currency: planned.currency,
          decline_code: planned.decline_code,
          decline_category: planned.decline_category,
          psp: planned.psp,
          status: planned.status,
          next_retry_at: planned.next_retry_at,
        },
        now,
      ),
      ...newPaymentEventItems(planned, timelines, now),
    ];
    if (input.providerPaymentId !== null) {
      items.push({
        Put: { TableName: env.TABLE_NAME, Item: providerRefItem(payment, input.providerPaymentId), ConditionExpression: 'attribute_not_exists(PK)' },
      });
    }
    if (payment.invoice_id !== null) {
      // Guarded by what was read, so two failures of one invoice at once cannot both open a recovery.
      const guard =
        previousOfInvoice === undefined
          ? { ConditionExpression: 'attribute_not_exists(PK)' }
          : { ConditionExpression: 'payment_id = :previous', ExpressionAttributeValues: { ':previous': previousOfInvoice } };
      items.push({
        Put: {
          TableName: env.TABLE_NAME,
          Item: {
            ...paymentKeys.invoiceRef(input.merchantId, payment.invoice_id),
            entity: ENTITY.invoiceRef,
            payment_id: payment.id,
            ...customerTags.reference(input.merchantId, payment.customer_id, paymentKeys.invoiceRef(input.merchantId, payment.invoice_id)),
          },
          ...guard,
        },
      });
    }
    if (!input.retryAllowed && input.declineCategory === 'terminal') {
      // A do-not-retry answer (Visa category 1, Mastercard MAC 03/21) is about the card, not this
      // payment: the card is blocked as an attempt's answer blocks it (services/attempt-retry.ts),
      // so the customer's other payments on it are not retried either.
      const card = await getCardLedger(input.merchantId, payment.card_identity);
      items.push(
        cardLedgerPut(input.merchantId, payment.customer_id, card, blocked(card.ledger, now, `do-not-retry answer ${codeText} on payment ${payment.id}`)),
      );
    }
    if (payment.subscription_id !== null) {
      const key = paymentKeys.subscriptionInvoice(input.merchantId, payment.subscription_id, at, body);
      items.push({
        Put: {
          TableName: env.TABLE_NAME,
          Item: { ...key, entity: ENTITY.subscriptionInvoice, payment_id: payment.id, ...customerTags.reference(input.merchantId, payment.customer_id, key) },
        },
      });
    }
    // The customer as written (this payment counted), and the merchant's strategy the plan read: campaign enrollment uses both without reading them again.
    return { items, result: { payment: planned, created: true, customer: customerNow, strategyInputs } };
  });
}

/** A payment after a sequence of status-machine events, with the timeline entry each left. */
export interface FoldedTransitions {
  readonly after: PaymentRecord;
  readonly timelines: readonly Transition['timeline'][];
}

/** Applies `events` in order (each may throw 409), collecting state_history and timeline entries. */
export function foldTransitions(before: PaymentRecord, events: readonly PaymentEvent[], now: Date): FoldedTransitions {
  let after = before;
  const timelines: Transition['timeline'][] = [];
  for (const event of events) {
    const change = transition(after, event, now);
    after = { ...after, ...change.changes, state_history: change.history === undefined ? after.state_history : [...after.state_history, change.history] };
    timelines.push(change.timeline);
  }
  return { after, timelines };
}

/** `events`, then the retry policy's decision when the result needs one (retry-planning.ts). */
async function withRetryPlan(
  merchantId: string,
  before: PaymentRecord,
  events: readonly PaymentEvent[],
  now: Date,
): Promise<FoldedTransitions & { strategyInputs?: StrategyInputs }> {
  const folded = foldTransitions(before, events, now);
  if (!needsRetryPlan(folded.after)) return folded;
  const context = await loadPlanningContext(merchantId, folded.after);
  const planned = foldTransitions(
    folded.after,
    [plannedRetryEvent(folded.after, { quietHours: context.quietHours, ledger: context.card.ledger, retryTiming: context.retryTiming }, now)],
    now,
  );
  return { after: planned.after, timelines: [...folded.timelines, ...planned.timelines], strategyInputs: context.strategyInputs };
}

/** What a change decides from the payment it read: the events to apply and any other writes of the same transaction. */
export interface PaymentChange<T> {
  readonly events: readonly PaymentEvent[];
  readonly items?: readonly TransactItem[];
  /** Writes that depend on the payment as it ends up, the policy's decision included. */
  readonly itemsAfter?: (after: PaymentRecord) => readonly TransactItem[];
  /** The retry whose answer this change records, named by the change's events (payment-change-events.ts). */
  readonly retry?: ChangeRetry;
  readonly result?: T;
}

/**
 * Changes a payment (by `pe_`/`rec_` id) through the status machine: reads it consistently, lets
 * `decide` choose the events (undefined: nothing to do), applies them with `transition` (409 when
 * the table forbids one), and, when the payment is then left open with no retry planned, the
 * retry policy's decision. Writes the new state with its state_history and timeline entries,
 * customer figures, `decide`'s own items and its outbound events (the outcome when it ends the
 * recovery, else the retry it scheduled: payment-change-events.ts) in one transaction guarded by
 * the version read
 * (counters follow from the table's stream); concurrent changes re-run on fresh state, so none is
 * lost and each successful transition leaves exactly one history entry. Entries are stamped at commit (commitInstant): ordered by time,
 * they are in the order of the writes.
 */
export async function changePayment<T = undefined>(
  merchantId: string,
  paymentId: string,
  decide: (before: PaymentRecord) => PaymentChange<T> | undefined | Promise<PaymentChange<T> | undefined>,
  now: Date = new Date(),
): Promise<{ before: PaymentRecord; after: PaymentRecord; result: T | undefined } | undefined> {
  return transactOptimistically(async () => {
    const before = await getPayment(merchantId, paymentId);
    if (before === undefined) throw new ResourceNotFoundError(`No payment ${paymentId}.`);
    const change = await decide(before);
    if (change === undefined) return { items: [], result: undefined };
    const stamp = commitInstant(before, now);
    const folded = await withRetryPlan(merchantId, before, change.events, stamp);
    // Nothing decided and nothing planned: no write (a run that skips a payment costs one read).
    if (folded.timelines.length === 0 && (change.items ?? []).length === 0) return { items: [], result: { before, after: before, result: change.result } };
    const at = stamp.toISOString();
    const after: PaymentRecord = { ...folded.after, updated_at: at, version: before.version + 1 };
    const items: TransactItem[] = [
      {
        Put: {
          TableName: env.TABLE_NAME,
          Item: paymentItem(after),
          ConditionExpression: 'version = :version',
          ExpressionAttributeValues: { ':version': before.version },
        },
      },
      ...folded.timelines.map((entry, order) => timelineItem(after, at, entry, order)),
      ...(change.items ?? []),
      ...(change.itemsAfter?.(after) ?? []),
      ...paymentChangeEventItems(before, after, folded.timelines, change.retry, stamp),
    ];
    if (before.status !== after.status) {
      const customer = await getCustomer(merchantId, before.customer_id);
      if (customer !== undefined) items.push(...putCustomer(customer, customerAfter(customer, before, after), stamp));
    }
    return { items, result: { before, after, result: change.result } };
  });
}

/**
 * Applies one event of the status machine to a payment (changePayment with that one event).
 * Pause and resume go through services/pause-payments.ts instead, which records their events.
 *
 * @example const { after } = await applyPaymentEvent(merchantId, 'pe_01J…', { type: 'recover', reason: 'Payment succeeded (event evt_1)' });
 */
export async function applyPaymentEvent(
  merchantId: string,
  paymentId: string,
  event: PaymentEvent,
  now: Date = new Date(),
): Promise<{ before: PaymentRecord; after: PaymentRecord }> {
  const changed = await changePayment(merchantId, paymentId, () => ({ events: [event] }), now);
  if (changed === undefined) throw new Error('A change with an event always writes');
  return changed;
}

/**
 * The merchant's payment counters (names from `paymentCounterNames`), as the table-stream
 * consumer keeps them: they trail the payments' writes by the stream's lag.
 */
export async function paymentCounters(merchantId: string): Promise<Readonly<Record<string, number>>> {
  const item = await get(paymentKeys.counters(merchantId));
  const counters: Record<string, number> = {};
  for (const [name, value] of Object.entries(item ?? {})) if (typeof value === 'number') counters[name] = value;
  return counters;
}

/**
 * Adds one entry to a payment's timeline without changing its state (an event that is history,
 * not a transition: a refund of the charge, for instance). The entry is tagged for the payment's
 * customer like every other timeline item, so erasure removes it. Like a transition's entries, it
 * is stamped at commit (commitInstant) under the payment's version, which it bumps, so that a
 * concurrent transition cannot be stamped after it yet committed before it. 404 when there is no
 * payment.
 *
 * @example await recordTimelineEvent(merchantId, 'pe_01J…', { type: 'charge_refunded', detail: 'Refunded 500 usd', details: { amount: 500 } });
 */
export async function recordTimelineEvent(
  merchantId: string,
  paymentId: string,
  entry: Transition['timeline'],
  now: Date = new Date(),
): Promise<PaymentRecord> {
  return transactOptimistically(async () => {
    const before = await getPayment(merchantId, paymentId);
    if (before === undefined) throw new ResourceNotFoundError(`No payment ${paymentId}.`);
    const at = commitInstant(before, now).toISOString();
    const after: PaymentRecord = { ...before, updated_at: at, version: before.version + 1 };
    const items: TransactItem[] = [
      {
        Update: {
          TableName: env.TABLE_NAME,
          Key: paymentKeys.payment(merchantId, bodyOf(before)),
          UpdateExpression: 'SET updated_at = :at, version = :next',
          ConditionExpression: 'version = :version',
          ExpressionAttributeValues: { ':at': at, ':next': after.version, ':version': before.version },
        },
      },
      timelineItem(after, at, entry),
    ];
    return { items, result: after };
  });
}
