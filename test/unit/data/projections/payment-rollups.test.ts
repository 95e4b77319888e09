import { paymentRollupsProjection } from '#data/projections/payment-rollups';
import { paymentImage } from '#test/fixtures/payment-images';

describe('paymentRollupsProjection', () => {
  it('counts an open payment as failed in the hour and day items of its cohort', () => {
    // Act
    const contributions = paymentRollupsProjection(paymentImage());
    // Assess
    expect(contributions).toEqual([
      {
        key: { PK: 'M#merch_1#RU#PAY#H', SK: '2026-11-24T13#stripe#soft_retry#insufficient_funds#usd' },
        counters: { failed_count: 1, failed_amount: 4999, recovered_count: 0, recovered_amount: 0, terminal_count: 0, terminal_amount: 0 },
        attributes: {
          entity: 'rollup',
          merchant_id: 'merch_1',
          bucket: '2026-11-24T13',
          dims: { psp: 'stripe', decline_category: 'soft_retry', decline_code: 'insufficient_funds', currency: 'usd' },
        },
      },
      expect.objectContaining({ key: { PK: 'M#merch_1#RU#PAY#D', SK: '2026-11-24#stripe#soft_retry#insufficient_funds#usd' } }),
    ]);
  });

  it('counts a recovered payment under its method, in its failure cohort', () => {
    // Act
    const [hour] = paymentRollupsProjection(paymentImage({ status: 'recovered', recovered_at: '2026-11-26T09:00:00.000Z', recovery_method: 'card_update' }));
    // Assess
    expect(hour?.key.SK.startsWith('2026-11-24T13#')).toBe(true);
    expect(hour?.counters).toEqual({
      failed_count: 1,
      failed_amount: 4999,
      recovered_count: 1,
      recovered_amount: 4999,
      terminal_count: 0,
      terminal_amount: 0,
      recovered_by_card_update_count: 1,
      recovered_by_card_update_amount: 4999,
    });
  });

  it('counts an old recovered payment without a method by what it holds', () => {
    // Prepare
    const at = '2026-11-25T10:00:00.000Z';
    // Act
    const [byRetry] = paymentRollupsProjection(paymentImage({ status: 'recovered', recovered_at: at, last_attempt_at: at }));
    const [byProvider] = paymentRollupsProjection(paymentImage({ status: 'recovered', recovered_at: at }));
    // Assess
    expect(byRetry?.counters).toMatchObject({ recovered_by_retry_count: 1 });
    expect(byProvider?.counters).toMatchObject({ recovered_by_provider_count: 1 });
  });

  it('counts a terminal payment, and files a payment with no decline code under an empty one', () => {
    // Act
    const [hour] = paymentRollupsProjection(paymentImage({ status: 'terminal', decline_code: null, currency: 'jpy', amount: 300 }));
    // Assess
    expect(hour?.key.SK).toBe('2026-11-24T13#stripe#soft_retry#-#jpy');
    expect(hour?.attributes?.dims).toEqual({ psp: 'stripe', decline_category: 'soft_retry', decline_code: '', currency: 'jpy' });
    expect(hour?.counters).toMatchObject({ failed_amount: 300, terminal_count: 1, terminal_amount: 300, recovered_count: 0 });
  });

  it('counts nothing for other items', () => {
    // Act
    const contributions = [
      paymentRollupsProjection({ ...paymentImage(), entity: 'timeline_entry' }),
      paymentRollupsProjection({ PK: 'M#merch_1', SK: 'COUNT#PAY', entity: 'counters', all: 3 }),
    ];
    // Assess
    expect(contributions).toEqual([[], []]);
  });
});
