/**
 * Monthly recovery counters against DynamoDB Local: what `recoveryPeriodProjection` adds for a
 * payment's changes, applied as the table-stream consumer applies them, and the
 * progress `recoveryProgress` reads back for a month, a quarter and a year.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { PaymentStatus } from '#core/payments';
import { documentClient, dynamo } from '#data/client';
import { ENTITY, recoveryCounterKeys } from '#data/keys';
import { incrementsOf } from '#data/projections/increments';
import { recoveryPeriodProjection } from '#data/projections/recovery-period-counters';
import { type CountedPayment, recoveryProgress } from '#data/recovery-period-counters';
import { applyCounterChange, countFailedPayment } from '#test/fixtures/recovery-counters';

const TableName = process.env.TABLE_NAME as string;

afterAll(() => dynamo.destroy());

let merchantSequence = 0;
const newMerchantId = (): string => `merch_counters${(merchantSequence += 1)}_${Math.random().toString(36).slice(2, 8)}`;

const payment = (merchantId: string, createdAt: string, overrides: Partial<CountedPayment> = {}): CountedPayment => ({
  merchant_id: merchantId,
  created_at: createdAt,
  status: 'pending',
  amount: 4999,
  currency: 'usd',
  ...overrides,
});

/** A payment counted as failed, then (optionally) recovered, each change in its own transaction. */
const fail = countFailedPayment;

const image = (counted: CountedPayment): Record<string, unknown> => ({ ...counted, entity: ENTITY.payment });

describe('recoveryPeriodProjection', () => {
  it('adds one failed payment and its amount in its currency to the month it failed in, when created', () => {
    // Act
    const increments = incrementsOf(
      [recoveryPeriodProjection],
      undefined,
      image(payment('merch_a', '2026-10-20T08:00:00.000Z', { amount: 1250, currency: 'eur' })),
    );
    // Assess
    expect(increments).toEqual([
      { key: recoveryCounterKeys.month('merch_a', '2026-10'), counters: { failed_count: 1, failed_amount_eur: 1250 }, attributes: { entity: 'counters' } },
    ]);
  });

  it('adds one recovered payment to the month it failed in when it becomes recovered', () => {
    // Prepare
    const before = payment('merch_a', '2026-10-31T23:59:59.000Z', { status: 'retrying' });
    // Act
    const increments = incrementsOf([recoveryPeriodProjection], image(before), image({ ...before, status: 'recovered' }));
    // Assess
    expect(increments).toEqual([
      {
        key: recoveryCounterKeys.month('merch_a', '2026-10'),
        counters: { recovered_count: 1, recovered_amount_usd: 4999 },
        attributes: { entity: 'counters' },
      },
    ]);
  });

  it('takes an erased payment out of its month', () => {
    // Prepare
    const erased = payment('merch_a', '2026-10-02T08:00:00.000Z', { status: 'recovered', amount: 300 });
    // Act
    const increments = incrementsOf([recoveryPeriodProjection], image(erased), undefined);
    // Assess
    expect(increments[0]?.counters).toEqual({ failed_count: -1, failed_amount_usd: -300, recovered_count: -1, recovered_amount_usd: -300 });
  });

  it('counts a payment recorded already recovered as failed and recovered at once', async () => {
    // Prepare
    const merchantId = newMerchantId();
    // Act
    await applyCounterChange(undefined, payment(merchantId, '2026-09-09T09:00:00.000Z', { status: 'recovered', amount: 300 }));
    // Assess
    expect(await recoveryProgress(merchantId, 'monthly', new Date('2026-09-30T00:00:00Z'))).toMatchObject({
      failed_payments: 1,
      recovered_payments: 1,
      failed_amounts: { usd: 300 },
      recovered_amounts: { usd: 300 },
    });
  });

  it.each([
    ['pending', 'retrying'],
    ['retrying', 'paused'],
    ['paused', 'pending'],
    ['pending', 'terminal'],
    ['recovered', 'recovered'],
  ] as const satisfies readonly (readonly [PaymentStatus, PaymentStatus])[])('adds nothing when a payment moves from %s to %s', (from, to) => {
    // Prepare
    const before = payment('merch_a', '2026-10-20T08:00:00.000Z', { status: from });
    // Act and assess
    expect(incrementsOf([recoveryPeriodProjection], image(before), image({ ...before, status: to }))).toEqual([]);
  });
});

describe('recoveryProgress', () => {
  it('counts a payment failed in October and recovered in November in October, not in November', async () => {
    // Prepare
    const merchantId = newMerchantId();
    await fail(merchantId, '2026-10-20T08:00:00.000Z', {}, true);
    // Act
    const october = await recoveryProgress(merchantId, 'monthly', new Date('2026-10-25T00:00:00Z'));
    const november = await recoveryProgress(merchantId, 'monthly', new Date('2026-11-15T00:00:00Z'));
    // Assess
    expect(october).toEqual({
      period: 'monthly',
      period_start: '2026-10-01T00:00:00.000Z',
      period_end: '2026-11-01T00:00:00.000Z',
      failed_payments: 1,
      recovered_payments: 1,
      recovery_rate: 1,
      failed_amounts: { usd: 4999 },
      recovered_amounts: { usd: 4999 },
    });
    expect(november).toMatchObject({
      period_start: '2026-11-01T00:00:00.000Z',
      failed_payments: 0,
      recovered_payments: 0,
      recovery_rate: 0,
      failed_amounts: {},
      recovered_amounts: {},
    });
  });

  it('sums the three months of the quarter and nothing outside it', async () => {
    // Prepare
    const merchantId = newMerchantId();
    await fail(merchantId, '2026-09-30T23:59:59.999Z', {}, true); // Q3
    await fail(merchantId, '2026-10-01T00:00:00.000Z', { amount: 1000 }, true);
    await fail(merchantId, '2026-11-10T12:00:00.000Z', { amount: 2000 });
    await fail(merchantId, '2026-11-11T12:00:00.000Z', { amount: 3000 });
    await fail(merchantId, '2026-12-31T23:59:59.999Z', { amount: 4000 }, true);
    await fail(merchantId, '2027-01-01T00:00:00.000Z', {}, true); // Q1 of the next year
    // Act
    const quarter = await recoveryProgress(merchantId, 'quarterly', new Date('2026-11-15T00:00:00Z'));
    // Assess
    expect(quarter).toEqual({
      period: 'quarterly',
      period_start: '2026-10-01T00:00:00.000Z',
      period_end: '2027-01-01T00:00:00.000Z',
      failed_payments: 4,
      recovered_payments: 2,
      recovery_rate: 0.5,
      failed_amounts: { usd: 10000 },
      recovered_amounts: { usd: 5000 },
    });
  });

  it('keeps amounts apart by currency', async () => {
    // Prepare
    const merchantId = newMerchantId();
    await fail(merchantId, '2026-03-02T00:00:00.000Z', { amount: 1500, currency: 'usd' }, true);
    await fail(merchantId, '2026-03-03T00:00:00.000Z', { amount: 2500, currency: 'usd' });
    await fail(merchantId, '2026-03-04T00:00:00.000Z', { amount: 900, currency: 'eur' }, true);
    await fail(merchantId, '2026-03-05T00:00:00.000Z', { amount: 120000, currency: 'jpy' });
    // Act
    const march = await recoveryProgress(merchantId, 'monthly', new Date('2026-03-31T23:00:00Z'));
    // Assess
    expect(march.failed_amounts).toEqual({ usd: 4000, eur: 900, jpy: 120000 });
    expect(march.recovered_amounts).toEqual({ usd: 1500, eur: 900 });
    expect(march).toMatchObject({ failed_payments: 4, recovered_payments: 2, recovery_rate: 0.5 });
  });

  it('reads the twelve months of the year for an annual period', async () => {
    // Prepare
    const merchantId = newMerchantId();
    for (const month of ['01', '04', '07', '12']) await fail(merchantId, `2026-${month}-15T00:00:00.000Z`, {}, month !== '12');
    await fail(merchantId, '2025-12-31T23:59:59.999Z', {}, true);
    // Act
    const year = await recoveryProgress(merchantId, 'annual', new Date('2026-06-01T00:00:00Z'));
    // Assess
    expect(year).toMatchObject({
      period_start: '2026-01-01T00:00:00.000Z',
      period_end: '2027-01-01T00:00:00.000Z',
      failed_payments: 4,
      recovered_payments: 3,
      recovery_rate: 0.75,
    });
  });

  it('counts every one of many concurrent failures (atomic ADD, no lost update)', async () => {
    // Prepare
    const merchantId = newMerchantId();
    // Act
    await Promise.all(
      Array.from({ length: 25 }, (_, index) =>
        fail(merchantId, `2026-05-${String((index % 28) + 1).padStart(2, '0')}T10:00:00.000Z`, { amount: 100 }, index % 5 === 0),
      ),
    );
    // Assess
    const may = await recoveryProgress(merchantId, 'monthly', new Date('2026-05-20T00:00:00Z'));
    expect(may).toMatchObject({
      failed_payments: 25,
      recovered_payments: 5,
      recovery_rate: 0.2,
      failed_amounts: { usd: 2500 },
      recovered_amounts: { usd: 500 },
    });
  });

  it("never counts another merchant's payments", async () => {
    // Prepare
    const mine = newMerchantId();
    const theirs = newMerchantId();
    await fail(mine, '2026-08-10T00:00:00.000Z', {}, true);
    await fail(theirs, '2026-08-10T00:00:00.000Z');
    await fail(theirs, '2026-08-11T00:00:00.000Z');
    // Act
    const progress = await recoveryProgress(mine, 'monthly', new Date('2026-08-20T00:00:00Z'));
    // Assess
    expect(progress).toMatchObject({ failed_payments: 1, recovered_payments: 1, recovery_rate: 1 });
    expect((await recoveryProgress(theirs, 'monthly', new Date('2026-08-20T00:00:00Z'))).recovery_rate).toBe(0);
  });

  it('stores one counter item per merchant and month, marked as counters', async () => {
    // Prepare
    const merchantId = newMerchantId();
    await fail(merchantId, '2026-02-14T00:00:00.000Z', { amount: 700, currency: 'gbp' }, true);
    // Act
    const { Item } = await documentClient.send(new GetCommand({ TableName, Key: recoveryCounterKeys.month(merchantId, '2026-02') }));
    // Assess
    expect(Item).toEqual({
      ...recoveryCounterKeys.month(merchantId, '2026-02'),
      entity: 'counters',
      failed_count: 1,
      failed_amount_gbp: 700,
      recovered_count: 1,
      recovered_amount_gbp: 700,
    });
  });
});
