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
 * same finding keeps its id from one day to the next and an applied or dismissed one is not
 * proposed again.
 *
 * Neighbour evidence (vector search over similar past recoveries) is not read here: the service
 * adds it (core/experiments/neighbour-evidence.ts); it never decides which suggestions exist.
 */
export const SUGGESTION_TYPES = ['stop_retrying_code', 'payday_retry_timing', 'add_sms_step'] as const;
export type SuggestionType = (typeof SUGGESTION_TYPES)[number];

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

interface Tally {
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
const round = (x: number): number => Math.round(x * 10_000) / 10_000;

/** Days of the month when balances are refilled (salaries on the 1st and 15th) and the two days after. */
const nearPayday = (bucket: string): boolean => [1, 2, 3, 15, 16, 17].includes(Number(bucket.slice(8, 10)));

/** Every suggestion the rollups support, in a fixed order (type, then target). */
export function generateSuggestions(rollups: readonly RollupItem[]): Suggestion[] {
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
  const suggestions: Suggestion[] = [];
  for (const [code, t] of [...byCode].sort(([a], [b]) => a.localeCompare(b))) {
    if (t.recovered + t.terminal < MIN_ENDED_FOR_STOP || t.recovered > 0) continue;
    const setting = { stop_decline_codes: [code] };
    suggestions.push({
      id: suggestionIdOf('stop_retrying_code', code),
      type: 'stop_retrying_code',
      title: `Stop retrying ${code}`,
      description: `None of the ${t.recovered + t.terminal} payments declined with ${code} that ended in the last ${SUGGESTION_WINDOW_DAYS} days recovered: retries of this code cost fees and card-network standing for nothing.`,
      kind: 'retry_timing',
      target: code,
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
    });
  }
  const { near, rest } = payday;
  if (near.failed >= MIN_PAYDAY_SAMPLE && rest.failed >= MIN_PAYDAY_SAMPLE) {
    const nearRate = near.recovered / near.failed;
    const restRate = rest.recovered / rest.failed;
    if (nearRate - restRate >= MIN_PAYDAY_GAP) {
      const setting = { payday_aligned: true };
      suggestions.push({
        id: suggestionIdOf('payday_retry_timing', 'insufficient_funds'),
        type: 'payday_retry_timing',
        title: 'Retry insufficient-funds declines on paydays',
        description: `Insufficient-funds payments that failed near the 1st or 15th recovered ${(nearRate * 100).toFixed(1)}%, the others ${(restRate * 100).toFixed(1)}%: retrying the others on the next payday should close part of the gap.`,
        kind: 'retry_timing',
        target: 'insufficient_funds',
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
        experiment: { variants: [{}, setting] },
        direct_setting: setting,
        neighbour_evidence: null,
      });
    }
  }
  for (const [category, t] of [...byCategory].sort(([a], [b]) => a.localeCompare(b))) {
    if (t.failed < MIN_SEGMENT_FAILED || t.sms > 0) continue;
    const emailRate = t.email / t.failed;
    if (emailRate >= EMAIL_RATE_FLOOR) continue;
    suggestions.push({
      id: suggestionIdOf('add_sms_step', category),
      type: 'add_sms_step',
      title: `Add an SMS step for ${category} declines`,
      description: `Dunning emails recovered ${(emailRate * 100).toFixed(1)}% of the ${t.failed} ${category} payments in the last ${SUGGESTION_WINDOW_DAYS} days, and no SMS was sent: an SMS step reaches customers who do not read the emails.`,
      kind: 'channel',
      target: category,
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
    });
  }
  return suggestions;
}
