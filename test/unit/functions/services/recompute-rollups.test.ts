import { paymentRollupsProjection } from '#data/projections/payment-rollups';
import { driftBetween, type RollupItemCounters, recomputedRollups } from '#services/recompute-rollups';
import { paymentImage } from '#test/fixtures/payment-images';

const DAY = '2026-11-24';

describe('recomputedRollups', () => {
  it("sums the projections' contributions to the hour and day items of the day, and nothing else", () => {
    // Prepare
    const sources = [
      paymentImage(),
      paymentImage({ amount: 1000, status: 'recovered', recovery_method: 'retry' }),
      paymentImage({ created_at: '2026-11-25T00:00:00.000Z' }),
    ];
    // Act
    const items = recomputedRollups('merch_1', DAY, sources, [paymentRollupsProjection]);
    // Assess
    expect(
      [...items.values()].map((item) => [
        item.granularity,
        item.bucket,
        item.counters.failed_count,
        item.counters.failed_amount,
        item.counters.recovered_by_retry_count,
      ]),
    ).toEqual([
      ['H', '2026-11-24T13', 2, 5999, 1],
      ['D', '2026-11-24', 2, 5999, 1],
    ]);
  });
});

describe('driftBetween', () => {
  const recomputed = recomputedRollups('merch_1', DAY, [paymentImage()], [paymentRollupsProjection]);

  it('finds no drift when the stored counters match, a missing counter reading as 0', () => {
    // Prepare: as the consumer stores them, without the counters that never moved
    const stored = new Map(
      [...recomputed].map(([id, item]) => [id, { ...item, counters: Object.fromEntries(Object.entries(item.counters).filter(([, value]) => value !== 0)) }]),
    );
    // Act
    const drift = driftBetween(stored, recomputed);
    // Assess
    expect(drift).toEqual([]);
  });

  it('reports each counter that differs, and the counters of a stored item nothing recomputes', () => {
    // Prepare
    const [[hourId, hour], [dayId, day]] = [...recomputed] as [string, RollupItemCounters][] as [[string, RollupItemCounters], [string, RollupItemCounters]];
    const orphan = { ...day, sk: '2026-11-24#adyen#soft_retry#-#eur', counters: { failed_count: 2, recovered_count: 0 } };
    const stored = new Map([
      [hourId, { ...hour, counters: { ...hour.counters, failed_count: 3 } }],
      [dayId, day],
      ['orphan', orphan],
    ]);
    // Act
    const drift = driftBetween(stored, recomputed);
    // Assess
    expect(drift.map(({ granularity, sk, counter, stored: s, recomputed: r, delta }) => ({ granularity, sk, counter, s, r, delta }))).toEqual([
      { granularity: 'D', sk: '2026-11-24#adyen#soft_retry#-#eur', counter: 'failed_count', s: 2, r: 0, delta: 2 },
      { granularity: 'H', sk: '2026-11-24T13#stripe#soft_retry#insufficient_funds#usd', counter: 'failed_count', s: 3, r: 1, delta: 2 },
    ]);
  });
});
