import type { VectorMatch } from '#core/vectors/store';

/** A neighbour as find-similar answers it: A's shape (the customer it names stays inside the service). */
export const matchView = (match: VectorMatch) => ({
  id: match.id,
  score: Math.round(match.score * 1_000_000) / 1_000_000,
  metadata: { outcome: match.metadata.outcome, strategy: match.metadata.strategy, decline_code: match.metadata.decline_code },
});
