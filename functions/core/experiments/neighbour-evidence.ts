import type { RecoveryFeatures, RecoveryStrategy } from '#core/vectors/features';
import { categoryOfCode } from '#core/vectors/recovery-features';
import type { VectorMatch } from '#core/vectors/store';
import type { NeighbourEvidence, SuggestionCandidate } from './suggestions';

/**
 * Neighbour evidence of a suggestion (issue 15: "Suggestions come from the merchant's own
 * analytics and vector neighbours"). Pure: the caller queries the vector store with the probe and
 * passes the matches. The probe is a typical payment of what the suggestion concerns (its decline
 * code, or for a segment its category); only neighbours that really share it are counted, since a
 * nearest-neighbour search returns the nearest vectors whatever they are. The same neighbours
 * decide too (core/experiments/neighbour-rules.ts).
 */

/** What a suggestion concerns: its rule and target (a suggestion, or a candidate not proposed yet). */
export type SuggestionTarget = Pick<SuggestionCandidate, 'type' | 'target'>;

/** Neighbours asked for (the store's largest topK): enough for counts, one query per target. */
export const NEIGHBOUR_EVIDENCE_K = 100;
/** The probe's amount (minor units of USD): a typical subscription charge; the code or category decides who counts. */
export const NEIGHBOUR_PROBE_AMOUNT = 5000;

const bySegment = (target: SuggestionTarget): boolean => target.type === 'add_sms_step';

/** The typical payment whose neighbours are the suggestion's evidence. */
export function neighbourProbe(target: SuggestionTarget): RecoveryFeatures {
  if (bySegment(target)) {
    return { declineCode: '', declineCategory: target.target as RecoveryFeatures['declineCategory'], amount: NEIGHBOUR_PROBE_AMOUNT };
  }
  return { declineCode: target.target, amount: NEIGHBOUR_PROBE_AMOUNT };
}

/** Targets with the same key have the same probe and the same relevant neighbours: one vector query serves them all. */
export const neighbourProbeKey = (target: SuggestionTarget): string => `${bySegment(target) ? 'category' : 'code'}:${target.target.toLowerCase()}`;

/** The neighbours about what the suggestion concerns: the same decline code (case-insensitive), or for a segment the same category. */
export const relevantNeighbours = (target: SuggestionTarget, matches: readonly VectorMatch[]): VectorMatch[] =>
  matches.filter((match) =>
    bySegment(target)
      ? categoryOfCode(match.metadata.decline_code) === target.target
      : match.metadata.decline_code.toLowerCase() === target.target.toLowerCase(),
  );

/**
 * The counts the matches support: how many similar past payments there are, how many recovered
 * and how many ended unrecovered, and the same by the strategy that was tried. Null when none of
 * the merchant's vectors concerns the suggestion (no evidence either way).
 */
export function neighbourEvidenceOf(target: SuggestionTarget, matches: readonly VectorMatch[]): NeighbourEvidence | null {
  const relevant = relevantNeighbours(target, matches);
  if (relevant.length === 0) return null;
  const byStrategy: Partial<Record<RecoveryStrategy, { similar: number; recovered: number }>> = {};
  let recovered = 0;
  let failed = 0;
  for (const match of relevant) {
    const won = match.metadata.outcome === 'recovered';
    if (won) recovered += 1;
    if (match.metadata.outcome === 'failed') failed += 1;
    const entry = byStrategy[match.metadata.strategy] ?? { similar: 0, recovered: 0 };
    byStrategy[match.metadata.strategy] = { similar: entry.similar + 1, recovered: entry.recovered + (won ? 1 : 0) };
  }
  return { similar: relevant.length, recovered, failed, by_strategy: byStrategy };
}
