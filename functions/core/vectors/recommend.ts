import type { RecoveryStrategy } from './features';
import type { VectorMetadata } from './store';

/** z for a two-sided 95% interval. */
const Z95 = 1.959964;

/**
 * The lower bound of the Wilson score interval (95%) of a proportion: a recovery rate that is
 * cautious when it rests on few payments (3 of 3 gives 0.44, 300 of 300 gives 0.99).
 *
 * @example wilsonLowerBound(8, 10) // 0.49
 */
export function wilsonLowerBound(successes: number, trials: number, z = Z95): number {
  if (trials <= 0) return 0;
  const p = successes / trials;
  const z2 = z * z;
  const centre = p + z2 / (2 * trials);
  const margin = z * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return Math.max(0, (centre - margin) / (1 + z2 / trials));
}

export interface StrategyTally {
  readonly strategy: RecoveryStrategy;
  readonly recovered: number;
  readonly failed: number;
  /** recovered / (recovered + failed), null when neither. */
  readonly recovery_rate: number | null;
}

export interface StrategyRecommendation {
  readonly recommended_strategy: RecoveryStrategy | null;
  readonly confidence: number;
  readonly similar_outcomes: { readonly recovered: number; readonly failed: number; readonly pending: number; readonly total: number };
  readonly strategies: readonly StrategyTally[];
}

const round = (value: number): number => Math.round(value * 10_000) / 10_000;

/**
 * The recommendation from a payment's neighbours: the strategy that recovered the most of them
 * (a tie goes to the higher recovery rate, then the name), and as confidence the Wilson lower
 * bound of that strategy's recovery rate among the neighbours it was used on (pending ones, whose
 * outcome is not known, are left out of the rate). No neighbour recovered: no recommendation, 0.
 */
export function recommendFromNeighbours(neighbours: readonly { readonly metadata: VectorMetadata }[]): StrategyRecommendation {
  const outcomes = { recovered: 0, failed: 0, pending: 0, total: neighbours.length };
  const byStrategy = new Map<RecoveryStrategy, { recovered: number; failed: number }>();
  for (const { metadata } of neighbours) {
    outcomes[metadata.outcome] += 1;
    if (metadata.outcome === 'pending') continue;
    const tally = byStrategy.get(metadata.strategy) ?? { recovered: 0, failed: 0 };
    tally[metadata.outcome] += 1;
    byStrategy.set(metadata.strategy, tally);
  }
  const strategies: StrategyTally[] = [...byStrategy.entries()]
    .map(([strategy, { recovered, failed }]) => ({
      strategy,
      recovered,
      failed,
      recovery_rate: recovered + failed === 0 ? null : round(recovered / (recovered + failed)),
    }))
    .sort((a, b) => b.recovered - a.recovered || (b.recovery_rate ?? 0) - (a.recovery_rate ?? 0) || a.strategy.localeCompare(b.strategy));
  const best = strategies[0];
  if (best === undefined || best.recovered === 0) return { recommended_strategy: null, confidence: 0, similar_outcomes: outcomes, strategies };
  return {
    recommended_strategy: best.strategy,
    confidence: round(wilsonLowerBound(best.recovered, best.recovered + best.failed)),
    similar_outcomes: outcomes,
    strategies,
  };
}
