import { campaignRollupsProjection } from '#data/projections/campaign-rollups';
import { paymentImage } from '#test/fixtures/payment-images';

describe('campaignRollupsProjection', () => {
  it('counts an enrolled payment per campaign and currency, by failure cohort', () => {
    // Act
    const contributions = campaignRollupsProjection(
      paymentImage({ campaign_id: 'camp_01JX', status: 'recovered', recovery_method: 'campaign_email', recovered_at: '2026-11-25T00:00:00.000Z' }),
    );
    // Assess
    expect(contributions.map((contribution) => contribution.key)).toEqual([
      { PK: 'M#merch_1#RU#CAMP#H', SK: '2026-11-24T13#camp_01JX#usd' },
      { PK: 'M#merch_1#RU#CAMP#D', SK: '2026-11-24#camp_01JX#usd' },
    ]);
    expect(contributions[1]?.attributes).toEqual({
      entity: 'rollup',
      merchant_id: 'merch_1',
      bucket: '2026-11-24',
      dims: { campaign_id: 'camp_01JX', currency: 'usd' },
    });
    expect(contributions[1]?.counters).toMatchObject({
      failed_count: 1,
      recovered_count: 1,
      recovered_by_campaign_email_count: 1,
      recovered_by_campaign_email_amount: 4999,
    });
  });

  it('counts nothing for a payment not enrolled, or written before payments named their campaign', () => {
    // Act
    const contributions = [campaignRollupsProjection(paymentImage()), campaignRollupsProjection(paymentImage({ campaign_id: undefined }))];
    // Assess
    expect(contributions).toEqual([[], []]);
  });
});
