import { openStateProjection } from '#data/projections/open-state';
import { paymentImage } from '#test/fixtures/payment-images';

describe('openStateProjection', () => {
  it.each(['pending', 'retrying', 'paused'])('counts a %s payment by status and currency', (status) => {
    // Act
    const contributions = openStateProjection(paymentImage({ status, currency: 'eur', amount: 1250 }));
    // Assess
    expect(contributions).toEqual([
      {
        key: { PK: 'M#merch_1', SK: 'COUNT#OPEN' },
        counters: { [`${status}_count`]: 1, [`${status}_amount_eur`]: 1250 },
        attributes: { entity: 'counters', merchant_id: 'merch_1' },
      },
    ]);
  });

  it.each(['recovered', 'terminal'])('counts nothing for a %s payment', (status) => {
    // Act
    const contributions = openStateProjection(paymentImage({ status }));
    // Assess
    expect(contributions).toEqual([]);
  });
});
