/**
 * The payment rollups and the hourly recompute on DynamoDB Local, through the real services:
 * payments ingested, retried, recovered, reclassified, paused, ended and erased, the table's
 * stream drained through the consumer (drainTableStream), then the rollup items compared with a
 * direct count over the payments that remain, and with the recompute (drift 0); a tampered or
 * stray rollup item is reported with its delta, and only drift that lasts is confirmed.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { newCampaign } from '#core/campaigns/lifecycle';
import type { IngestEvent } from '#core/ingest/ingest-event';
import { isOpen, type PaymentRecord } from '#core/payments';
import { countedRecoveryMethodOf } from '#core/recovery-method';
import { changeCampaignStatus, createCampaign } from '#data/campaign-repository';
import { documentClient } from '#data/client';
import { ENTITY, type ItemKey, rollupKeys } from '#data/keys';
import { createMerchant } from '#data/merchant-repository';
import { applyPaymentEvent, getPayment } from '#data/payment-repository';
import { readRollups } from '#data/rollup-queries';
import { handler as hourly } from '#jobs/hourly';
import { attemptRetry } from '#services/attempt-retry';
import { eraseCustomer } from '#services/erase-customer';
import { ingestPaymentEvent } from '#services/ingest-payment-event';
import { confirmedMerchantRollups, recomputeMerchantRollups } from '#services/recompute-rollups';
import { env } from '#shared/env';
import { drainTableStream } from '#test/fixtures/table-stream';

jest.setTimeout(60_000);

const DAY = '2026-11-20';
const at = (time: string): Date => new Date(`${time}Z`);
let sequence = 0;
const unique = (prefix: string): string => `${prefix}${(sequence += 1)}${Math.random().toString(36).slice(2, 8)}`;

interface Seeded {
  readonly merchantId: string;
  readonly campaignId: string;
  /** Every payment the scenario recorded (erased ones included). */
  readonly paymentIds: readonly string[];
}

const event = (type: IngestEvent['type'], email: string, overrides: Partial<IngestEvent> = {}): IngestEvent => ({
  type,
  amount: 2500,
  currency: 'usd',
  customerEmail: email,
  declineCode: type === 'payment_failed' ? 'insufficient_funds' : null,
  eventId: unique('evt_'),
  psp: 'stripe',
  metadata: {},
  ...overrides,
});

/**
 * A realistic day of one merchant with an active campaign enrolling payments of stripe's: failures
 * in several providers, currencies and hours of DAY (and one on each neighbouring day), then
 * recovered by the provider, by our retry and after a card update; one reclassified when a
 * sibling event brings its decline code; one paused; one ended by a cancelled subscription; one
 * customer erased.
 */
async function seedDay(): Promise<Seeded> {
  const merchantId = (await createMerchant({ name: unique('Rollups ') })).id;
  const draft = await createCampaign(
    newCampaign(
      merchantId,
      {
        name: 'Stripe failures',
        trigger: 'payment_failed',
        filters: { psp: ['stripe'] },
        steps: [{ action: 'email', delay_hours: 24, template_id: 'tmpl_soft_decline_1' }],
        delay_hours: 0,
        start_hour: 0,
        end_hour: 23,
      },
      at('2026-11-19T08:00:00'),
    ),
  );
  const campaign = await changeCampaignStatus(merchantId, draft.id, 'activate');
  const ids: string[] = [];
  const fail = async (time: string, email: string, overrides: Partial<IngestEvent> = {}): Promise<string> => {
    const result = await ingestPaymentEvent(merchantId, event('payment_failed', email, { providerPaymentId: unique('pi_'), ...overrides }), at(time));
    ids.push(result.payment_event_id as string);
    return result.payment_event_id as string;
  };
  const retryDue = async (id: string) => {
    const payment = (await getPayment(merchantId, id)) as PaymentRecord;
    return attemptRetry(merchantId, id, payment.psp, { now: new Date(payment.next_retry_at as string) });
  };

  await fail('2026-11-19T23:30:00', 'before@example.com');
  const byProvider = await fail('2026-11-20T09:15:00', 'ana@example.com', { providerPaymentId: 'pi_ana_1' });
  const byRetry = await fail('2026-11-20T10:15:00', 'ben@example.com', { declineCode: 'processing_error', amount: 1000 });
  await fail('2026-11-20T10:40:00', 'cleo@example.com', { psp: 'adyen', declineCode: 'expired_card', currency: 'eur', amount: 3000 });
  await fail('2026-11-20T13:00:00', 'dan@example.com', { psp: 'braintree', currency: 'jpy', amount: 500, subscriptionId: 'sub_dan' });
  await fail('2026-11-20T14:00:00', 'eve@example.com', { declineCode: null, providerPaymentId: 'pi_eve_1' });
  const paused = await fail('2026-11-20T15:00:00', 'fay@example.com', { amount: 4200 });
  const erased = await fail('2026-11-20T16:00:00', 'gus@example.com', { amount: 777 });
  await fail('2026-11-20T23:59:00', 'hal@example.com', { psp: 'adyen', amount: 900 });
  await fail('2026-11-21T00:10:00', 'after@example.com');

  await ingestPaymentEvent(merchantId, event('payment_succeeded', 'ana@example.com', { providerPaymentId: 'pi_ana_1' }), at('2026-11-21T10:00:00'));
  expect(await retryDue(byRetry)).toMatchObject({ kind: 'attempted', outcome: 'succeeded' });
  await ingestPaymentEvent(merchantId, event('payment_method_updated', 'cleo@example.com', { amount: 0 }), at('2026-11-21T11:00:00'));
  await ingestPaymentEvent(merchantId, event('payment_succeeded', 'cleo@example.com', { currency: 'eur', amount: 3000 }), at('2026-11-21T12:00:00'));
  await ingestPaymentEvent(merchantId, event('subscription_cancelled', 'dan@example.com', { subscriptionId: 'sub_dan', amount: 0 }), at('2026-11-21T13:00:00'));
  await ingestPaymentEvent(
    merchantId,
    event('payment_failed', 'eve@example.com', { declineCode: 'card_declined', providerPaymentId: 'pi_eve_1' }),
    at('2026-11-20T14:00:01'),
  );
  await applyPaymentEvent(merchantId, paused, { type: 'pause', reason: 'merchant asked' }, at('2026-11-21T09:00:00'));
  await eraseCustomer(merchantId, ((await getPayment(merchantId, erased)) as PaymentRecord).customer_id);
  expect((await getPayment(merchantId, byProvider))?.status).toBe('recovered');
  return { merchantId, campaignId: campaign.id, paymentIds: ids };
}

/** The payments of the scenario that still exist. */
const remaining = async (seeded: Seeded): Promise<PaymentRecord[]> =>
  (await Promise.all(seeded.paymentIds.map((id) => getPayment(seeded.merchantId, id)))).filter((p): p is PaymentRecord => p !== undefined);

/** A direct count over payments, per group: the PAY/CAMP counters they should add up to. */
function directCount(payments: readonly PaymentRecord[], group: (p: PaymentRecord) => string): Record<string, Record<string, number>> {
  const counts: Record<string, Record<string, number>> = {};
  const add = (key: string, counter: string, value: number) => {
    const entry = (counts[key] ??= {});
    entry[counter] = (entry[counter] ?? 0) + value;
  };
  for (const p of payments) {
    const key = group(p);
    add(key, 'failed_count', 1);
    add(key, 'failed_amount', p.amount);
    if (p.status === 'terminal') add(key, 'terminal_count', 1);
    const method = countedRecoveryMethodOf(p);
    if (method !== null) {
      add(key, 'recovered_count', 1);
      add(key, 'recovered_amount', p.amount);
      add(key, `recovered_by_${method}_count`, 1);
    }
  }
  return counts;
}

/** Rollup items' counters per group, only the counters directCount knows, zeros dropped. */
function storedCount(
  items: readonly { dims: Readonly<Record<string, string>>; counters: Readonly<Record<string, number>> }[],
  group: (dims: Readonly<Record<string, string>>) => string,
) {
  const counts: Record<string, Record<string, number>> = {};
  for (const item of items) {
    const entry = (counts[group(item.dims)] ??= {});
    for (const [counter, value] of Object.entries(item.counters)) {
      if (value === 0 || counter === 'terminal_amount' || (counter.startsWith('recovered_by_') && counter.endsWith('_amount'))) continue;
      entry[counter] = (entry[counter] ?? 0) + value;
    }
  }
  for (const [key, counters] of Object.entries(counts)) if (Object.keys(counters).length === 0) delete counts[key];
  return counts;
}

describe('payment rollups and the hourly recompute', () => {
  let seeded: Seeded;

  beforeAll(async () => {
    seeded = await seedDay();
    await drainTableStream();
  }, 180_000);

  it('keeps PAY, CAMP and COUNT#OPEN equal to a direct count over the payments, by cohort', async () => {
    // Prepare
    const payments = await remaining(seeded);
    const ofDay = payments.filter((p) => p.created_at.startsWith(DAY));
    const m = seeded.merchantId;
    // Act
    const [payDay, payHours, campDay] = await Promise.all([
      readRollups(m, 'PAY', 'D', DAY, DAY),
      readRollups(m, 'PAY', 'H', `${DAY}T00`, `${DAY}T23`),
      readRollups(m, 'CAMP', 'D', DAY, DAY),
    ]);
    const open = (await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: rollupKeys.openState(m), ConsistentRead: true }))).Item ?? {};
    // Assess: the scenario covers every outcome
    expect(ofDay.map((p) => p.recovery_method ?? 'none').sort()).toEqual(['card_update', 'none', 'none', 'none', 'none', 'provider', 'retry']);
    expect(ofDay.map((p) => p.status).sort()).toEqual(['paused', 'recovered', 'recovered', 'recovered', 'retrying', 'retrying', 'terminal']);
    expect(ofDay.find((p) => p.customer_email === 'eve@example.com')?.decline_code).toBe('card_declined');
    // Assess: PAY by its dimensions, the day and its hours alike
    const payKey = (d: { psp: string; decline_category: string; decline_code: string; currency: string }) =>
      `${d.psp}|${d.decline_category}|${d.decline_code}|${d.currency}`;
    const expected = directCount(ofDay, (p) => payKey({ ...p, decline_code: p.decline_code ?? '' }));
    expect(storedCount(payDay, (d) => payKey(d as never))).toEqual(expected);
    expect(storedCount(payHours, (d) => payKey(d as never))).toEqual(expected);
    const counted = payHours.filter((item) => (item.counters.failed_count ?? 0) > 0);
    expect(counted.map((item) => item.bucket).sort()).toEqual([`${DAY}T09`, `${DAY}T10`, `${DAY}T10`, `${DAY}T13`, `${DAY}T14`, `${DAY}T15`, `${DAY}T23`]);
    // Assess: CAMP counts the stripe payments the campaign enrolled
    const enrolled = ofDay.filter((p) => p.campaign_id !== null);
    expect(enrolled.map((p) => p.psp)).toEqual(['stripe', 'stripe', 'stripe', 'stripe']);
    expect(storedCount(campDay, (d) => `${d.campaign_id}|${d.currency}`)).toEqual(directCount(enrolled, (p) => `${p.campaign_id}|${p.currency}`));
    // Assess: the open state, over every day
    const openNow = payments.filter((p) => isOpen(p.status));
    const expectedOpen: Record<string, number> = {};
    for (const p of openNow) {
      expectedOpen[`${p.status}_count`] = (expectedOpen[`${p.status}_count`] ?? 0) + 1;
      expectedOpen[`${p.status}_amount_${p.currency}`] = (expectedOpen[`${p.status}_amount_${p.currency}`] ?? 0) + p.amount;
    }
    const storedOpen = Object.fromEntries(Object.entries(open).filter(([name, value]) => typeof value === 'number' && value !== 0 && name.includes('_')));
    expect(storedOpen).toEqual(expectedOpen);
  });

  it('finds no drift between the stored rollups and the recompute from the source items', async () => {
    // Act
    const report = await recomputeMerchantRollups(seeded.merchantId, DAY);
    // Assess
    expect(report.drift).toEqual([]);
    expect(report.items_recomputed).toBeGreaterThanOrEqual(14);
    // Items a reclassification or the erasure emptied stay, with zero counters: not drift.
    expect(report.items_stored).toBeGreaterThanOrEqual(report.items_recomputed);
  });

  it('reports a tampered rollup item and a stray one with their deltas, in the recompute and the hourly job', async () => {
    // Prepare: an item counting one payment too many, and one nothing adds up to
    const m = seeded.merchantId;
    const key = rollupKeys.item(m, 'PAY', 'H', `${DAY}T09`, ['stripe', 'soft_retry', 'insufficient_funds', 'usd']);
    await documentClient.send(
      new UpdateCommand({
        TableName: env.TABLE_NAME,
        Key: key,
        UpdateExpression: 'ADD failed_count :one, failed_amount :amount',
        ExpressionAttributeValues: { ':one': 1, ':amount': 2500 },
      }),
    );
    const stray = rollupKeys.item(m, 'CAMP', 'D', DAY, ['camp_gone', 'usd']);
    await documentClient.send(
      new PutCommand({
        TableName: env.TABLE_NAME,
        Item: {
          ...stray,
          entity: ENTITY.rollup,
          merchant_id: m,
          bucket: DAY,
          dims: { campaign_id: 'camp_gone', currency: 'usd' },
          failed_count: 2,
          recovered_count: 0,
        },
      }),
    );
    // Act
    const report = await recomputeMerchantRollups(m, DAY);
    const job = await hourly({
      schedule: 'hourly',
      scheduled_time: '2026-11-21T05:00:00Z',
      execution_id: 'recompute-test',
      attempt_number: 1,
      schedule_arn: 'arn:aws:scheduler:us-east-1:000000000000:schedule/default/hourly',
    });
    // Assess
    expect(
      report.drift.map(({ family, granularity, sk, counter, stored, recomputed, delta }) => ({ family, granularity, sk, counter, stored, recomputed, delta })),
    ).toEqual([
      { family: 'CAMP', granularity: 'D', sk: stray.SK, counter: 'failed_count', stored: 2, recomputed: 0, delta: 2 },
      { family: 'PAY', granularity: 'H', sk: key.SK, counter: 'failed_amount', stored: 5000, recomputed: 2500, delta: 2500 },
      { family: 'PAY', granularity: 'H', sk: key.SK, counter: 'failed_count', stored: 2, recomputed: 1, delta: 1 },
    ]);
    const task = job.tasks.find((t) => t.name === 'analytics-rollup');
    expect(task).toMatchObject({
      status: 'ok',
      summary: { day: DAY, drifted_counters: 3, drift_by_family: { CAMP: 1, PAY: 2 }, merchants_with_drift: [m] },
    });
    // The job's report names no dimension value.
    expect(JSON.stringify(task?.summary)).not.toContain('camp_gone');
  });
});

/** A stored PAY day item of `psp` counting `failed` payments that no source item stands for. */
async function strayItem(merchantId: string, psp: string, failed: number): Promise<ItemKey> {
  const key = rollupKeys.item(merchantId, 'PAY', 'D', DAY, [psp, 'soft_retry', '', 'usd']);
  await documentClient.send(
    new PutCommand({
      TableName: env.TABLE_NAME,
      Item: {
        ...key,
        entity: ENTITY.rollup,
        merchant_id: merchantId,
        bucket: DAY,
        dims: { psp, decline_category: 'soft_retry', decline_code: '', currency: 'usd' },
        failed_count: failed,
      },
    }),
  );
  return key;
}

describe('confirmedMerchantRollups', () => {
  it('reports only the drift still there on a second look, with its values then', async () => {
    // Prepare: two stray items; one is put right while the recompute waits (a change in flight)
    const merchantId = (await createMerchant({ name: 'Confirm drift' })).id;
    const lasting = await strayItem(merchantId, 'adyen', 2);
    const passing = await strayItem(merchantId, 'stripe', 1);
    // Act
    const confirming = confirmedMerchantRollups(merchantId, DAY, 1_500);
    await new Promise((done) => setTimeout(done, 500));
    await documentClient.send(new DeleteCommand({ TableName: env.TABLE_NAME, Key: passing }));
    const report = await confirming;
    const unconfirmed = await confirmedMerchantRollups(merchantId, DAY, 0);
    // Assess
    expect(report.drift).toEqual([
      {
        family: 'PAY',
        granularity: 'D',
        bucket: DAY,
        sk: lasting.SK,
        dims: { psp: 'adyen', decline_category: 'soft_retry', decline_code: '', currency: 'usd' },
        counter: 'failed_count',
        stored: 2,
        recomputed: 0,
        delta: 2,
      },
    ]);
    expect(unconfirmed.drift.map((drift) => drift.sk)).toEqual([lasting.SK]);
  });
});
