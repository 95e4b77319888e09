import { NEIGHBOUR_EVIDENCE_K, neighbourEvidenceOf, neighbourProbe } from '#core/experiments/neighbour-evidence';
import type { NeighbourEvidenceSource } from './experiments';
import { findSimilarRecoveries } from './vectors';

/**
 * The vector store as the suggestions' neighbour evidence (experiments.ts NeighbourEvidenceSource):
 * one query per suggestion, the neighbours of a typical payment of what it concerns, counted by
 * outcome and by strategy tried. Only the merchant's own vectors are searched.
 */
export const vectorNeighbourEvidence: NeighbourEvidenceSource = async (merchantId, suggestion) =>
  neighbourEvidenceOf(suggestion, await findSimilarRecoveries(merchantId, neighbourProbe(suggestion), NEIGHBOUR_EVIDENCE_K));
