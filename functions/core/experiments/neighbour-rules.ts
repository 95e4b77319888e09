import type { VectorMatch } from '#core/vectors/store';
import { neighbourEvidenceOf, relevantNeighbours } from './neighbour-evidence';
import {
  isNearPayday,
  MIN_ENDED_FOR_STOP,
  MIN_PAYDAY_GAP,
  MIN_PAYDAY_SAMPLE,
  PAYDAY_SETTING,
  PAYDAY_TITLE,
  round,
  SUGGESTION_WINDOW_DAYS,
  type Suggestion,
  type SuggestionCandidate,
} from './suggestions';

/**
 * The vector neighbours' side of the suggestions (issue 15: "Suggestions come from the merchant's
 * own analytics and vector neighbours"). Pure: the caller passes each candidate's neighbours (the
 * merchant's vectors nearest a typical payment of its target, core/experiments/neighbour-evidence.ts).
 * Only neighbours that share the target and have ended (recovered, or failed) count; pending ones
 * tell nothing yet. The neighbours are the merchant's own past payments of any age (auto-embedded
 * when they ended) and the recoveries it embedded through POST /vectors/embed-event.
 *
 * | rule                  | the neighbours support it when                                   | they contradict it when                                          |
 * |-----------------------|------------------------------------------------------------------|------------------------------------------------------------------|
 * | `stop_retrying_code`  | ≥ NEIGHBOUR_MIN_ENDED_FOR_STOP (20) ended, none recovered         | ≥ 20 ended, ≥ STOP_CONTRADICTION_RATE (10%) of them recovered     |
 * | `payday_retry_timing` | ≥ NEIGHBOUR_MIN_PAYDAY_SAMPLE (20) ended on each side (failed near a payday, or not), the payday side recovered ≥ MIN_PAYDAY_GAP (5 points) more | the same samples, the other side recovered ≥ 5 points more |
 * | `add_sms_step`        | (no neighbour rule: its lift is an assumption the experiment measures) | |
 *
 * Then:
 * - the analytics propose it, the neighbours support it: offered, source `both`;
 * - the analytics propose it, the neighbours say nothing clear (too few, or a gap in between): `analytics`;
 * - the analytics propose it, the neighbours contradict it: withheld (not offered; the service logs why);
 * - the analytics are too thin for the rule, the neighbours support it: offered, source `neighbours`,
 *   its evidence and expected lift from the neighbours.
 *
 * "Stop retrying" counts a recovery by any strategy, not only by retry: stopping makes a payment of
 * the code terminal at once, so a card update or a campaign message could not recover it either.
 */

/** Ended neighbours of a code before they may propose or contradict "stop retrying": as many as the analytics' rule needs. */
export const NEIGHBOUR_MIN_ENDED_FOR_STOP = MIN_ENDED_FOR_STOP;
/** The share of ended neighbours recovered that contradicts "stop retrying" (with at least NEIGHBOUR_MIN_ENDED_FOR_STOP ended). */
export const STOP_CONTRADICTION_RATE = 0.1;
/** Ended neighbours on each side of the payday comparison, as the analytics' rule needs; the gap is MIN_PAYDAY_GAP either way. */
export const NEIGHBOUR_MIN_PAYDAY_SAMPLE = MIN_PAYDAY_SAMPLE;

interface Side {
  readonly ended: number;
  readonly recovered: number;
}
const rate = (side: Side): number => side.recovered / side.ended;

/** What the neighbours say about a candidate. */
export type NeighbourVerdict =
  | { readonly verdict: 'supports'; readonly stop?: Side; readonly payday?: { readonly near: Side; readonly rest: Side } }
  | { readonly verdict: 'contradicts'; readonly why: string }
  | { readonly verdict: 'silent' };

const SILENT: NeighbourVerdict = { verdict: 'silent' };

function tallyOf(matches: readonly VectorMatch[]): Side {
  const ended = matches.filter((match) => match.metadata.outcome !== 'pending');
  return { ended: ended.length, recovered: ended.filter((match) => match.metadata.outcome === 'recovered').length };
}

/** The UTC day of the month a neighbour failed, when its vector records it. */
function failureDay(match: VectorMatch): number | undefined {
  const at = match.metadata.failed_at;
  if (at === undefined || at === null) return undefined;
  const day = new Date(at).getUTCDate();
  return Number.isNaN(day) ? undefined : day;
}

/** The neighbours' verdict on the candidate's rule (the table above). */
export function neighbourVerdict(candidate: Pick<SuggestionCandidate, 'type' | 'target'>, matches: readonly VectorMatch[]): NeighbourVerdict {
  const relevant = relevantNeighbours(candidate, matches);
  if (candidate.type === 'stop_retrying_code') {
    const side = tallyOf(relevant);
    if (side.ended < NEIGHBOUR_MIN_ENDED_FOR_STOP) return SILENT;
    if (side.recovered === 0) return { verdict: 'supports', stop: side };
    if (rate(side) >= STOP_CONTRADICTION_RATE) {
      return {
        verdict: 'contradicts',
        why: `${side.recovered} of ${side.ended} similar past payments declined with ${candidate.target} recovered (at least ${STOP_CONTRADICTION_RATE * 100}%)`,
      };
    }
    return SILENT;
  }
  if (candidate.type === 'payday_retry_timing') {
    const dated = relevant.filter((match) => failureDay(match) !== undefined);
    const near = tallyOf(dated.filter((match) => isNearPayday(failureDay(match) as number)));
    const rest = tallyOf(dated.filter((match) => !isNearPayday(failureDay(match) as number)));
    if (near.ended < NEIGHBOUR_MIN_PAYDAY_SAMPLE || rest.ended < NEIGHBOUR_MIN_PAYDAY_SAMPLE) return SILENT;
    const gap = rate(near) - rate(rest);
    if (gap >= MIN_PAYDAY_GAP) return { verdict: 'supports', payday: { near, rest } };
    if (-gap >= MIN_PAYDAY_GAP) {
      return {
        verdict: 'contradicts',
        why: `similar past insufficient-funds payments that failed near a payday recovered ${percent(rate(near))}, the others ${percent(rate(rest))}`,
      };
    }
    return SILENT;
  }
  return SILENT;
}

const percent = (x: number): string => `${(x * 100).toFixed(1)}%`;

/** The suggestion the neighbours propose where the analytics are too thin: their counts as evidence and lift, the window's as what the lift applies to. */
function neighbourSuggestion(
  candidate: SuggestionCandidate,
  verdict: Extract<NeighbourVerdict, { verdict: 'supports' }>,
): Omit<Suggestion, 'neighbour_evidence'> {
  const { id, target, window } = candidate;
  if (verdict.stop !== undefined) {
    const { ended } = verdict.stop;
    const t = window.target;
    const setting = { stop_decline_codes: [target] };
    return {
      id,
      type: 'stop_retrying_code',
      title: `Stop retrying ${target}`,
      description: `None of the ${ended} similar past payments declined with ${target} that ended recovered, by retry or any other way; your last ${SUGGESTION_WINDOW_DAYS} days hold only ${t.recovered + t.terminal} ended (the analytics alone need ${MIN_ENDED_FOR_STOP}): retries of this code cost fees and card-network standing for nothing.`,
      kind: 'retry_timing',
      target,
      source: 'neighbours',
      evidence: {
        decline_code: target,
        neighbours_ended: ended,
        neighbours_recovered: 0,
        failed: t.failed,
        recovered: t.recovered,
        terminal: t.terminal,
        window_days: SUGGESTION_WINDOW_DAYS,
      },
      expected_lift: {
        recovery_rate_points: 0,
        recovered_payments: 0,
        retries_avoided: t.failed,
        basis: `no similar past payment of this code recovered (${ended} ended); each failure of it in the window would have saved its retries`,
      },
      experiment: { variants: [{}, setting] },
      direct_setting: setting,
    };
  }
  const { near, rest } = verdict.payday as { near: Side; rest: Side };
  const gap = rate(near) - rate(rest);
  const other = window.payday?.rest.failed ?? 0;
  return {
    id,
    type: 'payday_retry_timing',
    title: PAYDAY_TITLE,
    description: `Similar past insufficient-funds payments that failed near the 1st or 15th recovered ${percent(rate(near))}, the others ${percent(rate(rest))}: retrying the others on the next payday should close part of the gap. Your last ${SUGGESTION_WINDOW_DAYS} days are too few to tell on their own.`,
    kind: 'retry_timing',
    target,
    source: 'neighbours',
    evidence: {
      neighbours_near_payday_ended: near.ended,
      neighbours_near_payday_recovered: near.recovered,
      neighbours_other_ended: rest.ended,
      neighbours_other_recovered: rest.recovered,
      near_payday_failed: window.payday?.near.failed ?? 0,
      other_failed: other,
      window_days: SUGGESTION_WINDOW_DAYS,
    },
    expected_lift: {
      recovery_rate_points: round(gap),
      recovered_payments: Math.round(gap * other),
      retries_avoided: 0,
      basis: "the neighbours' payday rate applied to the window's other insufficient-funds payments",
    },
    experiment: { variants: [{}, PAYDAY_SETTING] },
    direct_setting: PAYDAY_SETTING,
  };
}

export interface ResolvedSuggestions {
  /** Offered, in the candidates' order (type, then target), each with its source and neighbour evidence. */
  readonly suggestions: Suggestion[];
  /** Analytics suggestions the neighbours contradict: not offered. */
  readonly withheld: { readonly id: string; readonly why: string }[];
}

/** The suggestions offered once the neighbours have had their say (the table above); `neighboursOf` gives each candidate's matches. */
export function resolveSuggestions(
  candidates: readonly SuggestionCandidate[],
  neighboursOf: (candidate: SuggestionCandidate) => readonly VectorMatch[],
): ResolvedSuggestions {
  const suggestions: Suggestion[] = [];
  const withheld: { id: string; why: string }[] = [];
  for (const candidate of candidates) {
    const matches = neighboursOf(candidate);
    const verdict = neighbourVerdict(candidate, matches);
    const neighbour_evidence = neighbourEvidenceOf(candidate, matches);
    if (candidate.analytics !== null) {
      if (verdict.verdict === 'contradicts') withheld.push({ id: candidate.id, why: verdict.why });
      else suggestions.push({ ...candidate.analytics, source: verdict.verdict === 'supports' ? 'both' : 'analytics', neighbour_evidence });
    } else if (verdict.verdict === 'supports') {
      suggestions.push({ ...neighbourSuggestion(candidate, verdict), neighbour_evidence });
    }
  }
  return { suggestions, withheld };
}
