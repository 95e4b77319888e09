import type { RecoveryStrategy } from '#core/vectors/features';
import type { RollupItem } from '#core/analytics/rollup-item';
import { classifyDecline } from '#core/decline-codes/index';
import { fnv32a } from './assign';
import type { ExperimentKind, VariantSetting } from './experiment';

/**
 * Recovery suggestions from the merchant's own analytics (the PAY day rollups: payments by failure
 * day, provider, decline category, code and currency, with their outcomes). Pure: the caller reads
 * the rollups. Each suggestion names its evidence (counts), an expected lift, the experiment that
 * tests it and the setting a direct apply makes. Ids are a hash of the rule and its target, so the
 * same finding keeps its id from one day to the next, whoever proposes it (the analytics or the
 * vector neighbours), and an applied or dismissed one is not proposed again.
 *
 * The analytics' side is here: for each rule and target, a candidate (suggestionCandidates) that
 * the analytics propose, or that their data are too thin to decide. The vector neighbours then
 * decide too (core/experiments/neighbour-rules.ts): they propose a thin candidate they clearly
 * support, and withhold an analytics suggestion they clearly contradict.
 */
export const SUGGESTION_TYPES = ['stop_retrying_code', 'payday_retry_timing', 'add_sms_step'] as const;
export type SuggestionType = (typeof SUGGESTION_TYPES)[number];

/**
 * Who proposes a suggestion: the merchant's own analytics over the window, the vector neighbours
 * (the analytics too thin for the rule's minimum), or both (each on its own meets the rule).
 */
export const SUGGESTION_SOURCES = ['analytics', 'neighbours', 'both'] as const;
export type SuggestionSource = (typeof SUGGESTION_SOURCES)[number];

export interface ExpectedLift {
  /** Recovery-rate points (0-1 scale) the change should add over the payments it concerns. */
  readonly recovery_rate_points: number;
  /** Payments over the analysed window that the lift would have recovered. */
  readonly recovered_payments: number;
  /** Retries the change avoids over the window (stop rules). */
  readonly retries_avoided: number;
  readonly basis: string;
}

export interface Suggestion {
  /** `sug_<8 hex>`: FNV-1a of type and target. */
  readonly id: string;
  readonly type: SuggestionType;
  readonly title: string;
  readonly description: string;
  readonly kind: ExperimentKind;
  readonly target: string;
  /** Who proposes it; `evidence` and `expected_lift` are the neighbours' when it is `neighbours`. */
  readonly source: SuggestionSource;
  readonly evidence: Readonly<Record<string, number | string>>;
  readonly expected_lift: ExpectedLift;
  /** The experiment apply starts: control first. */
  readonly experiment: { readonly variants: readonly VariantSetting[] };
  /** The setting `mode: direct` makes the merchant's default. */
  readonly direct_setting: VariantSetting;
  /** How the merchant's similar past payments ended (vector neighbours); null when none is known. */
  readonly neighbour_evidence: NeighbourEvidence | null;
}

/** Vector neighbours (core/experiments/neighbour-evidence.ts): how similar past payments ended, overall and by strategy tried. */
export interface NeighbourEvidence {
  readonly similar: number;
  readonly recovered: number;
  /** Ended unrecovered (B's `terminal`). */
  readonly failed: number;
  readonly by_strategy: Readonly<Partial<Record<RecoveryStrategy, { readonly similar: number; readonly recovered: number }>>>;
}

/** The days analysed. */
export const SUGGESTION_WINDOW_DAYS = 90;
/** Ended payments of a code before "never recovers" is believable. */
export const MIN_ENDED_FOR_STOP = 20;
/** Payments on each side of the payday comparison. */
export const MIN_PAYDAY_SAMPLE = 20;
/** Recovery-rate points near paydays must exceed the rest by at least this. */
export const MIN_PAYDAY_GAP = 0.05;
/** A segment's email recovery below this rate, over at least MIN_SEGMENT_FAILED payments, suggests an SMS step. */
export const EMAIL_RATE_FLOOR = 0.05;
export const MIN_SEGMENT_FAILED = 50;
/** The SMS step's expected lift: what the email floor would reach, stated as an assumption. */
const SMS_ASSUMED_RATE = EMAIL_RATE_FLOOR;

export const suggestionIdOf = (type: SuggestionType, target: string): string => `sug_${fnv32a(`${type}:${target}`).toString(16).padStart(8, '0')}`;

/** What the window's rollups hold about a decline code, a category or the payday comparison. */
export interface Tally {
  failed: number;
  recovered: number;
  terminal: number;
  email: number;
  sms: number;
}
const tally = (): Tally => ({ failed: 0, recovered: 0, terminal: 0, email: 0, sms: 0 });
function add(t: Tally, item: RollupItem): void {
  t.failed += item.counters.failed_count ?? 0;
  t.recovered += item.counters.recovered_count ?? 0;
  t.terminal += item.counters.terminal_count ?? 0;
  t.email += item.counters.recovered_by_campaign_email_count ?? 0;
  t.sms += item.counters.recovered_by_campaign_sms_count ?? 0;
}
export const round = (x: number): number => Math.round(x * 10_000) / 10_000;

/** Days of the month when balances are refilled (salaries on the 1st and 15th) and the two days after. */
const PAYDAY_DAYS: readonly number[] = [1, 2, 3, 15, 16, 17];
/** Whether a payment that failed on this day of the month (1-31) failed near a payday. */
export const isNearPayday = (dayOfMonth: number): boolean => PAYDAY_DAYS.includes(dayOfMonth);
const nearPayday = (bucket: string): boolean => isNearPayday(Number(bucket.slice(8, 10)));

/**
 * One rule over one target, as the analytics see it: `analytics` is the suggestion they propose,
 * or null when their data are below the rule's minimum sample (too thin to decide either way).
 * A rule the analytics can decide and reject yields no candidate: the merchant's own recent
 * payments outweigh the neighbours, which can then neither propose nor revive it.
 */
export interface SuggestionCandidate {
  readonly id: string;
  readonly type: SuggestionType;
  readonly target: string;
  readonly analytics: Suggestion | null;
  /** The window's counts of the target (thin ones included): a neighbour-proposed suggestion's lift is applied to them. */
  readonly window: { readonly target: Tally; readonly payday?: { readonly near: Tally; readonly rest: Tally } };
}

/** Thin decline codes whose neighbours are consulted, those with the most failed payments first: a bound on the vector queries. */
export const MAX_THIN_CODE_CANDIDATES = 10;

/**
 * Every rule and target the window's rollups make a candidate, in a fixed order (type, then
 * target): proposed ones with their suggestion, thin ones (stop_retrying_code: a code with ended
 * payments below MIN_ENDED_FOR_STOP and none recovered, at most MAX_THIN_CODE_CANDIDATES;
 * payday_retry_timing: fewer than MIN_PAYDAY_SAMPLE on a side, at least one in all) with null.
 * add_sms_step has no neighbour rule: its candidates are the analytics' suggestions only. Only ids
 * `open` keeps (not yet applied or dismissed) are candidates, so decided ones take no thin slot.
 */
export function suggestionCandidates(rollups: readonly RollupItem[], open: (id: string) => boolean = () => true): SuggestionCandidate[] {
  const byCode = new Map<string, Tally & { psp: string }>();
  const payday = { near: tally(), rest: tally() };
  const byCategory = new Map<string, Tally>();
  for (const item of rollups) {
    const code = item.dims.decline_code ?? '';
    const psp = item.dims.psp ?? '';
    const category = item.dims.decline_category ?? 'unknown';
    if (code !== '') {
      const t = byCode.get(code) ?? { ...tally(), psp };
      add(t, item);
      byCode.set(code, t);
      if (classifyDecline({ psp, declineCode: code }).subcategory === 'balance') add(nearPayday(item.bucket) ? payday.near : payday.rest, item);
    }
    const c = byCategory.get(category) ?? tally();
    add(c, item);
    byCategory.set(category, c);
  }
  const candidates: SuggestionCandidate[] = [];
  const thinCodes: SuggestionCandidate[] = [];
  for (const [code, t] of [...byCode].sort(([a], [b]) => a.localeCompare(b))) {
    const id = suggestionIdOf('stop_retrying_code', code);
    if (t.recovered > 0 || !open(id)) continue;
    const base = { id, type: 'stop_retrying_code' as const, target: code, window: { target: t } };
    if (t.recovered + t.terminal < MIN_ENDED_FOR_STOP) {
      thinCodes.push({ ...base, analytics: null });
      continue;
    }
    const setting = { stop_decline_codes: [code] };
    candidates.push({
      ...base,
      analytics: {
        id,
        type: 'stop_retrying_code',
        title: `Stop retrying ${code}`,
        description: `None of the ${t.recovered + t.terminal} payments declined with ${code} that ended in the last ${SUGGESTION_WINDOW_DAYS} days recovered: retries of this code cost fees and card-network standing for nothing.`,
        kind: 'retry_timing',
        target: code,
        source: 'analytics',
        evidence: { decline_code: code, failed: t.failed, recovered: t.recovered, terminal: t.terminal, window_days: SUGGESTION_WINDOW_DAYS },
        expected_lift: {
          recovery_rate_points: 0,
          recovered_payments: 0,
          retries_avoided: t.failed,
          basis: 'no payment of this code recovered; each later failure saves its retries',
        },
        experiment: { variants: [{}, setting] },
        direct_setting: setting,
        neighbour_evidence: null,
      },
    });
  }
  const busiest = [...thinCodes].sort((a, b) => b.window.target.failed - a.window.target.failed).slice(0, MAX_THIN_CODE_CANDIDATES);
  candidates.push(...thinCodes.filter((candidate) => busiest.includes(candidate)));
  candidates.sort((a, b) => a.target.localeCompare(b.target));
  const paydayCandidate = paydayCandidateOf(payday.near, payday.rest);
  if (paydayCandidate !== undefined && open(paydayCandidate.id)) candidates.push(paydayCandidate);
  for (const [category, t] of [...byCategory].sort(([a], [b]) => a.localeCompare(b))) {
    if (t.failed < MIN_SEGMENT_FAILED || t.sms > 0) continue;
    const emailRate = t.email / t.failed;
    if (emailRate >= EMAIL_RATE_FLOOR) continue;
    const id = suggestionIdOf('add_sms_step', category);
    if (!open(id)) continue;
    candidates.push({
      id,
      type: 'add_sms_step',
      target: category,
      window: { target: t },
      analytics: {
        id,
        type: 'add_sms_step',
        title: `Add an SMS step for ${category} declines`,
        description: `Dunning emails recovered ${(emailRate * 100).toFixed(1)}% of the ${t.failed} ${category} payments in the last ${SUGGESTION_WINDOW_DAYS} days, and no SMS was sent: an SMS step reaches customers who do not read the emails.`,
        kind: 'channel',
        target: category,
        source: 'analytics',
        evidence: { segment: category, failed: t.failed, recovered_by_email: t.email, recovered_by_sms: t.sms, window_days: SUGGESTION_WINDOW_DAYS },
        expected_lift: {
          recovery_rate_points: round(SMS_ASSUMED_RATE - emailRate),
          recovered_payments: Math.round((SMS_ASSUMED_RATE - emailRate) * t.failed),
          retries_avoided: 0,
          basis: `assumed: the segment reaches a ${SMS_ASSUMED_RATE * 100}% message recovery rate with SMS; the experiment measures it`,
        },
        experiment: { variants: [{ channels: ['email'] }, { channels: ['email', 'sms'] }] },
        direct_setting: { channels: ['email', 'sms'] },
        neighbour_evidence: null,
      },
    });
  }
  return candidates;
}

/** The payday setting: insufficient-funds retries go on the next payday morning. */
export const PAYDAY_SETTING: VariantSetting = { payday_aligned: true };
export const PAYDAY_TARGET = 'insufficient_funds';
export const PAYDAY_TITLE = 'Retry insufficient-funds declines on paydays';

/** The payday candidate: proposed, thin (a side below MIN_PAYDAY_SAMPLE), or none (no balance decline in the window, or enough on both sides and no gap). */
function paydayCandidateOf(near: Tally, rest: Tally): SuggestionCandidate | undefined {
  const id = suggestionIdOf('payday_retry_timing', PAYDAY_TARGET);
  const base = { id, type: 'payday_retry_timing' as const, target: PAYDAY_TARGET, window: { target: tally(), payday: { near, rest } } };
  if (near.failed < MIN_PAYDAY_SAMPLE || rest.failed < MIN_PAYDAY_SAMPLE) return near.failed + rest.failed === 0 ? undefined : { ...base, analytics: null };
  const nearRate = near.recovered / near.failed;
  const restRate = rest.recovered / rest.failed;
  if (nearRate - restRate < MIN_PAYDAY_GAP) return undefined;
  return {
    ...base,
    analytics: {
      id,
      type: 'payday_retry_timing',
      title: PAYDAY_TITLE,
      description: `Insufficient-funds payments that failed near the 1st or 15th recovered ${(nearRate * 100).toFixed(1)}%, the others ${(restRate * 100).toFixed(1)}%: retrying the others on the next payday should close part of the gap.`,
      kind: 'retry_timing',
      target: PAYDAY_TARGET,
      source: 'analytics',
      evidence: {
        near_payday_failed: near.failed,
        near_payday_recovered: near.recovered,
        other_failed: rest.failed,
        other_recovered: rest.recovered,
        window_days: SUGGESTION_WINDOW_DAYS,
      },
      expected_lift: {
        recovery_rate_points: round(nearRate - restRate),
        recovered_payments: Math.round((nearRate - restRate) * rest.failed),
        retries_avoided: 0,
        basis: 'the payday cohort rate applied to the other insufficient-funds payments',
      },
      experiment: { variants: [{}, PAYDAY_SETTING] },
      direct_setting: PAYDAY_SETTING,
      neighbour_evidence: null,
    },
  };
}
/** Every suggestion the rollups alone support, in a fixed order (type, then target): the analytics' side, no neighbours. */
export function generateSuggestions(rollups: readonly RollupItem[]): Suggestion[] {
  return suggestionCandidates(rollups).flatMap((candidate) => (candidate.analytics === null ? [] : [candidate.analytics]));
}
