/**
 * The counter projections and the consumer's arithmetic, without a table: what a change of an
 * item adds to counter items (new image's contributions minus the old one's), and how a batch of
 * changes is cut into transactions of at most 100 items.
 */
import { ENTITY, customerKeys, paymentKeys, recoveryCounterKeys } from '#data/keys';
import { projectedEntities, projections } from '#data/projections/index';
import { incrementsOf } from '#data/projections/increments';
import { paymentCountersProjection } from '#data/projections/payment-counters';
import { MAX_TRANSACTION_ITEMS, type StreamChange, chunkChanges } from '#data/stream-apply';

const payment = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  entity: ENTITY.payment,
  merchant_id: 'merch_1',
  status: 'retrying',
  decline_category: 'soft_retry',
  psp: 'stripe',
  created_at: '2026-10-20T08:00:00.000Z',
  amount: 4999,
  currency: 'usd',
  ...overrides,
});
const customer = (openPayments: number): Record<string, unknown> => ({ entity: ENTITY.customer, merchant_id: 'merch_1', open_payments: openPayments });
const countersOf = (increments: ReturnType<typeof incrementsOf>, key: { PK: string; SK: string }) =>
  increments.find((increment) => increment.key.PK === key.PK && increment.key.SK === key.SK)?.counters;

describe('counter projections', () => {
  it('counts a new payment once under each of its filter combinations and in the month it failed in', () => {
    // Act
    const increments = incrementsOf(projections, undefined, payment());
    // Assess
    expect(countersOf(increments, paymentKeys.counters('merch_1'))).toEqual({
      all: 1,
      's:retrying': 1,
      'c:soft_retry': 1,
      'p:stripe': 1,
      's:retrying|c:soft_retry': 1,
      's:retrying|p:stripe': 1,
      'c:soft_retry|p:stripe': 1,
      's:retrying|c:soft_retry|p:stripe': 1,
    });
    expect(countersOf(increments, recoveryCounterKeys.month('merch_1', '2026-10'))).toEqual({ failed_count: 1, failed_amount_usd: 4999 });
    const counterItems = [paymentKeys.counters('merch_1'), recoveryCounterKeys.month('merch_1', '2026-10')];
    expect(counterItems.map((key) => increments.find((i) => i.key.PK === key.PK && i.key.SK === key.SK)?.attributes?.entity)).toEqual([
      ENTITY.counters,
      ENTITY.counters,
    ]);
  });

  it('adds nothing when a change leaves every counted attribute as it was', () => {
    // Act
    const increments = incrementsOf(projections, payment({ version: 1 }), payment({ version: 2, updated_at: 'later' }));
    // Assess
    expect(increments).toEqual([]);
  });

  it('moves a reclassified payment from its old combinations to its new ones, leaving `all` alone', () => {
    // Act
    const increments = incrementsOf([paymentCountersProjection], payment(), payment({ decline_category: 'unknown', status: 'paused' }));
    // Assess
    expect(countersOf(increments, paymentKeys.counters('merch_1'))).toEqual({
      's:retrying': -1,
      'c:soft_retry': -1,
      's:retrying|c:soft_retry': -1,
      's:retrying|p:stripe': -1,
      'c:soft_retry|p:stripe': -1,
      's:retrying|c:soft_retry|p:stripe': -1,
      's:paused': 1,
      'c:unknown': 1,
      's:paused|c:unknown': 1,
      's:paused|p:stripe': 1,
      'c:unknown|p:stripe': 1,
      's:paused|c:unknown|p:stripe': 1,
    });
  });

  it('takes a removed payment out of everything it counted in, its recovery included', () => {
    // Act
    const increments = incrementsOf(projections, payment({ status: 'recovered' }), undefined);
    // Assess
    expect(countersOf(increments, paymentKeys.counters('merch_1'))?.all).toBe(-1);
    expect(countersOf(increments, recoveryCounterKeys.month('merch_1', '2026-10'))).toEqual({
      failed_count: -1,
      failed_amount_usd: -4999,
      recovered_count: -1,
      recovered_amount_usd: -4999,
    });
  });

  it('counts a customer in `all`, and in `has_failed` only while it has an open payment', () => {
    // Act
    const created = incrementsOf(projections, undefined, customer(1));
    const closed = incrementsOf(projections, customer(1), customer(0));
    const erased = incrementsOf(projections, customer(0), undefined);
    // Assess
    expect(countersOf(created, customerKeys.counters('merch_1'))).toEqual({ all: 1, has_failed: 1 });
    expect(countersOf(closed, customerKeys.counters('merch_1'))).toEqual({ has_failed: -1 });
    expect(countersOf(erased, customerKeys.counters('merch_1'))).toEqual({ all: -1 });
  });

  it.each([
    ['a timeline entry', { entity: ENTITY.timelineEntry, merchant_id: 'merch_1' }],
    ['a counter item', { entity: ENTITY.counters, all: 3 }],
    ['an applied marker', { entity: ENTITY.streamApplied, expires_at: 1 }],
    ['an item without a merchant', { entity: ENTITY.payment }],
  ])('counts nothing of %s', (_, item) => {
    // Act and assess
    expect(incrementsOf(projections, undefined, item)).toEqual([]);
  });
});

describe('projectedEntities (the event source mapping filter)', () => {
  it.each(
    Object.values(ENTITY)
      .filter((entity) => !projectedEntities.includes(entity))
      .map((entity) => [entity]),
  )('leaves out %s, which no projection counts', (entity) => {
    // Prepare: an item of that entity with every attribute any projection reads.
    const item = { ...payment(), ...customer(1), entity };
    // Act and assess
    expect(projections.flatMap((projection) => projection(item))).toEqual([]);
  });
});

describe('chunkChanges', () => {
  const change = (id: number, counterItems: number): StreamChange => ({
    eventId: `evt_${id}`,
    merchantId: 'merch_1',
    increments: Array.from({ length: counterItems }, (_, index) => ({ key: recoveryCounterKeys.month('merch_1', `month-${index}`), counters: { n: 1 } })),
  });

  it('fits each chunk in one transaction: a marker per counted record and one Update per distinct counter item', () => {
    // Prepare: 150 records on the same 3 counter items, and records that count nothing between them.
    const changes = Array.from({ length: 300 }, (_, index) => change(index, index % 2 === 0 ? 3 : 0));
    // Act
    const chunks = chunkChanges(changes);
    // Assess
    expect(chunks.flat()).toEqual(changes);
    for (const chunk of chunks) {
      const counted = chunk.filter((c) => c.increments.length > 0).length;
      expect(counted + 3).toBeLessThanOrEqual(MAX_TRANSACTION_ITEMS);
    }
    expect(chunks).toHaveLength(2);
  });

  it('refuses a record that touches more counter items than one transaction holds', () => {
    // Act and assess
    expect(() => chunkChanges([change(1, MAX_TRANSACTION_ITEMS)])).toThrow(/more than one transaction holds/);
  });
});
