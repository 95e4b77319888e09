import { NEIGHBOUR_EVIDENCE_K, neighbourProbe } from '#core/experiments/neighbour-evidence';
import type { NeighbourSearch } from './experiments';
import { findSimilarRecoveries } from './vectors';

/**
 * The vector store as the suggestions' neighbours (experiments.ts NeighbourSearch): one query per
 * target, the NEIGHBOUR_EVIDENCE_K neighbours of a typical payment of what it concerns. Only the
 * merchant's own vectors are searched.
 */
export const vectorNeighbours: NeighbourSearch = (merchantId, target) => findSimilarRecoveries(merchantId, neighbourProbe(target), NEIGHBOUR_EVIDENCE_K);
