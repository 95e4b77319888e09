import type { RecoveryFeatures, RecoveryStrategy } from '#core/vectors/features';
import { categoryOfCode } from '#core/vectors/recovery-features';
import type { VectorMatch } from '#core/vectors/store';
import type { NeighbourEvidence, Suggestion } from './suggestions';

/**
 * Neighbour evidence of a suggestion (issue 15: "Suggestions come from the merchant's own
 * analytics and vector neighbours"). Pure: the caller queries the vector store with the probe and
 * passes the matches. The probe is a typical payment of what the suggestion concerns (its decline
 * code, or for a segment its category); only neighbours that really share it are counted, since a
 * nearest-neighbour search returns the nearest vectors whatever they are.
 */

/** Neighbours asked for (the store's largest topK): enough for counts, one query per suggestion. */
export const NEIGHBOUR_EVIDENCE_K = 100;
/** The probe's amount (minor units of USD): a typical subscription charge; the code or category decides who counts. */
export const NEIGHBOUR_PROBE_AMOUNT = 5000;

/** The typical payment whose neighbours are the suggestion's evidence. */
export function neighbourProbe(suggestion: Suggestion): RecoveryFeatures {
  if (suggestion.type === 'add_sms_step') {
    return { declineCode: '', declineCategory: suggestion.target as RecoveryFeatures['declineCategory'], amount: NEIGHBOUR_PROBE_AMOUNT };
  }
  return { declineCode: suggestion.target, amount: NEIGHBOUR_PROBE_AMOUNT };
}

/** Whether a neighbour is about what the suggestion concerns. */
const concerns = (suggestion: Suggestion, match: VectorMatch): boolean =>
  suggestion.type === 'add_sms_step'
    ? categoryOfCode(match.metadata.decline_code) === suggestion.target
    : match.metadata.decline_code.toLowerCase() === suggestion.target.toLowerCase();

/**
 * The counts the matches support: how many similar past payments there are, how many recovered
 * and how many ended unrecovered, and the same by the strategy that was tried. Null when none of
 * the merchant's vectors concerns the suggestion (no evidence either way).
 */
export function neighbourEvidenceOf(suggestion: Suggestion, matches: readonly VectorMatch[]): NeighbourEvidence | null {
  const relevant = matches.filter((match) => concerns(suggestion, match));
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
