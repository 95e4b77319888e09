import type { VectorMetadata } from '#core/vectors/store';
import { recommendFromNeighbours, wilsonLowerBound } from '#core/vectors/recommend';

const neighbour = (outcome: VectorMetadata['outcome'], strategy: VectorMetadata['strategy']) => ({
  metadata: { outcome, strategy, decline_code: 'insufficient_funds', customer_id: null },
});

describe('wilsonLowerBound', () => {
  it('is cautious with few trials and nears the rate with many', () => {
    // Assess
    expect(wilsonLowerBound(3, 3)).toBeCloseTo(0.4385, 3);
    expect(wilsonLowerBound(5, 6)).toBeCloseTo(0.4365, 3);
    expect(wilsonLowerBound(500, 600)).toBeCloseTo(0.8015, 3);
    expect(wilsonLowerBound(0, 10)).toBe(0);
    expect(wilsonLowerBound(0, 0)).toBe(0);
  });
});

describe('recommendFromNeighbours', () => {
  it('recommends the strategy that recovered most, its confidence the Wilson bound of its rate', () => {
    // Prepare
    const neighbours = [
      neighbour('recovered', 'retry'),
      neighbour('recovered', 'retry'),
      neighbour('failed', 'retry'),
      neighbour('recovered', 'card_update'),
      neighbour('pending', 'card_update'),
    ];

    // Act
    const recommendation = recommendFromNeighbours(neighbours);

    // Assess
    expect(recommendation).toEqual({
      recommended_strategy: 'retry',
      confidence: Math.round(wilsonLowerBound(2, 3) * 10_000) / 10_000,
      similar_outcomes: { recovered: 3, failed: 1, pending: 1, total: 5 },
      strategies: [
        { strategy: 'retry', recovered: 2, failed: 1, recovery_rate: 0.6667 },
        { strategy: 'card_update', recovered: 1, failed: 0, recovery_rate: 1 },
      ],
    });
  });

  it('breaks a tie on recoveries by the higher recovery rate', () => {
    // Act
    const recommendation = recommendFromNeighbours([neighbour('recovered', 'retry'), neighbour('failed', 'retry'), neighbour('recovered', 'campaign_email')]);

    // Assess
    expect(recommendation.recommended_strategy).toBe('campaign_email');
  });

  it('recommends nothing, with confidence 0, when no neighbour was recovered or there are none', () => {
    // Assess
    expect(recommendFromNeighbours([neighbour('failed', 'retry')])).toMatchObject({ recommended_strategy: null, confidence: 0 });
    expect(recommendFromNeighbours([])).toEqual({
      recommended_strategy: null,
      confidence: 0,
      similar_outcomes: { recovered: 0, failed: 0, pending: 0, total: 0 },
      strategies: [],
    });
  });
});
