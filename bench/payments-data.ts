/**
 * The bench merchant's payments, PAYMENTS_PER_MERCHANT for each merchant in the table (1,000 at
 * N = 100, 10,000 at 10N), shared by the payments scenarios and resized with the table.
 *
 * The first CUSTOMERS payments go through recordFailedPayment, so customers, references and the
 * counter item are made by the real path. The rest are written with BatchWriteItem in exactly the
 * items recordFailedPayment writes for a payment (payment-repository's paymentItem, timelineItem
 * and providerRefItem), with a mix of statuses, categories and providers, each older than the
 * last; growing adds older payments and shrinking deletes them, so the newest page stays the same
 * payments at every size. The counter item is then written once with the counts of every payment
 * stored. The customers' own figures do not count the bulk payments: no payments request reads them.
 * Imported late, like the scenarios (it imports functions/).
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DeclineCategory } from '#core/decline-codes/types';
import { timeOrderedId } from '#core/ids';
import { DEFAULT_MAX_RETRIES, type PaymentRecord, type PaymentStatus, paymentIdFor, recoveryIdFor } from '#core/payments';
import { PSPS } from '#core/providers';
import { documentClient } from '#data/client';
import { ENTITY, type ItemKey, paymentKeys } from '#data/keys';
import { paymentCounterNames, paymentItem, providerRefItem, recordFailedPayment, timelineItem } from '#data/payment-repository';
import { env } from '#shared/env';
import { batchWrite } from './fixtures';
import type { BenchFixture } from './scenario';

export const PAYMENTS_PER_MERCHANT = 10;
const CUSTOMERS = 20;
/** Statuses by index modulo 20: 8 pending, 5 retrying, 1 paused, 4 recovered, 2 terminal. */
const STATUS_MIX: readonly PaymentStatus[] = [
  ...Array<PaymentStatus>(8).fill('pending'),
  ...Array<PaymentStatus>(5).fill('retrying'),
  'paused',
  ...Array<PaymentStatus>(4).fill('recovered'),
  'terminal',
  'terminal',
];
const DECLINES: ReadonlyArray<{ code: string; category: DeclineCategory; subcategory: string }> = [
  { code: 'insufficient_funds', category: 'soft_retry', subcategory: 'balance' },
  { code: 'card_velocity_exceeded', category: 'soft_retry', subcategory: 'limit' },
  { code: 'processing_error', category: 'soft_retry', subcategory: 'processing_error' },
  { code: 'expired_card', category: 'hard_customer', subcategory: 'expired' },
  { code: 'generic_decline', category: 'unknown', subcategory: 'generic' },
];

interface Stored {
  readonly payment: PaymentRecord;
  /** Every item written for it in bulk (none for the ones recordFailedPayment wrote). */
  readonly items: readonly ItemKey[];
}

const stored: Stored[] = [];
let oldest = Date.now();

export interface BenchPayments {
  readonly count: number;
  /** Stored at every size: a payment for GET /payments/{id}. */
  readonly sample: PaymentRecord;
}

/** Grows or shrinks the bench merchant's payments to PAYMENTS_PER_MERCHANT x fixture.merchants. */
export async function benchPayments(fixture: BenchFixture): Promise<BenchPayments> {
  const target = fixture.merchants * PAYMENTS_PER_MERCHANT;
  if (stored.length !== target) {
    const started = Date.now();
    while (stored.length < Math.min(CUSTOMERS, target)) {
      const index = stored.length;
      const decline = DECLINES[index % DECLINES.length] as (typeof DECLINES)[number];
      const { payment } = await recordFailedPayment({
        merchantId: fixture.merchantId,
        customer: { email: `customer${index}@bench.example`, name: `Customer ${index}` },
        psp: PSPS[index % PSPS.length] as string,
        providerPaymentId: `ch_bench_${index}`,
        amount: 1000 + index,
        currency: 'usd',
        declineCode: decline.code,
        declineCategory: decline.category,
        declineSubcategory: decline.subcategory,
        retryAllowed: true,
      });
      stored.push({ payment, items: [] });
      oldest = Math.min(oldest, Date.parse(payment.created_at));
    }
    const added: Array<Stored & { readonly written: ReadonlyArray<Record<string, unknown>> }> = [];
    while (stored.length + added.length < target) {
      const index = stored.length + added.length;
      oldest -= 60_000;
      const payment = bulkPayment(index, stored[index % CUSTOMERS]?.payment as PaymentRecord, new Date(oldest));
      const written = bulkItems(payment);
      added.push({ payment, written, items: written.map(({ PK, SK }) => ({ PK: PK as string, SK: SK as string })) });
    }
    await batchWrite(added.flatMap(({ written }) => written.map((Item) => ({ PutRequest: { Item } }))));
    stored.push(...added.map(({ payment, items }) => ({ payment, items })));
    const removed = stored.splice(target);
    await batchWrite(removed.flatMap(({ items }) => items.map((Key) => ({ DeleteRequest: { Key } }))));
    if (removed.length > 0) oldest = Date.parse((stored.at(-1) as Stored).payment.created_at);
    await writeCounters(fixture.merchantId);
    process.stderr.write(
      `bench: ${target} payments stored (${added.length} written, ${removed.length} deleted) in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
    );
  }
  return { count: stored.length, sample: (stored[CUSTOMERS + 100] ?? (stored[0] as Stored)).payment };
}

/** The payment at `index`, from the customer of `template`, created at `at`. */
function bulkPayment(index: number, template: PaymentRecord, at: Date): PaymentRecord {
  const createdAt = at.toISOString();
  const status = STATUS_MIX[index % STATUS_MIX.length] as PaymentStatus;
  const decline = DECLINES[index % DECLINES.length] as (typeof DECLINES)[number];
  const body = timeOrderedId(at);
  const history = [
    { status: 'pending' as PaymentStatus, at: createdAt, reason: `Payment failed: decline code ${decline.code} (${decline.category}/${decline.subcategory})` },
  ];
  if (status !== 'pending') history.push({ status, at: createdAt, reason: 'bench' });
  return {
    ...template,
    id: paymentIdFor(body),
    recovery_id: recoveryIdFor(body),
    psp: PSPS[index % PSPS.length] as string,
    provider_payment_id: `ch_bench_${index}`,
    amount: 1000 + (index % 9000),
    status,
    previous_status: status === 'paused' ? 'retrying' : null,
    decline_code: decline.code,
    decline_category: decline.category,
    decline_subcategory: decline.subcategory,
    retry_count: status === 'pending' ? 0 : 1,
    max_retries: DEFAULT_MAX_RETRIES,
    next_retry_at: status === 'retrying' ? createdAt : null,
    paused_at: status === 'paused' ? createdAt : null,
    resumed_at: null,
    recovered_at: status === 'recovered' ? createdAt : null,
    recovery_method: status === 'recovered' ? 'retry' : null,
    terminal_at: status === 'terminal' ? createdAt : null,
    awaiting_card_update: decline.category === 'hard_customer' && status !== 'recovered',
    state_history: history,
    created_at: createdAt,
    updated_at: createdAt,
    version: history.length,
  };
}

/** What recordFailedPayment writes for the payment itself: the item, its first timeline entry and its provider reference. */
function bulkItems(payment: PaymentRecord): Array<Record<string, unknown>> {
  const timeline = timelineItem(payment, payment.created_at, {
    type: 'payment_failed',
    detail: `Payment of ${payment.amount} ${payment.currency} failed with ${payment.decline_code}`,
    details: { decline_code: payment.decline_code, decline_category: payment.decline_category, amount: payment.amount, currency: payment.currency },
  }).Put?.Item as Record<string, unknown>;
  return [paymentItem(payment), timeline, providerRefItem(payment, payment.provider_payment_id as string)];
}

/** The counter item, written once with the counts of every payment stored. */
async function writeCounters(merchantId: string): Promise<void> {
  const counts: Record<string, number> = {};
  for (const { payment } of stored) for (const name of paymentCounterNames(payment)) counts[name] = (counts[name] ?? 0) + 1;
  await documentClient.send(new PutCommand({ TableName: env.TABLE_NAME, Item: { ...counts, ...paymentKeys.counters(merchantId), entity: ENTITY.counters } }));
}
