import { PARAMETERS } from './parameters';
import type { Authorisation } from './world';

/**
 * The card networks' retry rules, checked on every authorisation a strategy made, independently
 * of the service's own cap code (functions/core/card-caps.ts), from reference/card-network-rules.md §3:
 * - Visa: at most 20 reattempts per card, amount and currency in a rolling 30 days;
 * - Visa: no reattempt after a category 1 answer (04, 07, 12, 15, 41, 43, 46, 57, R0, R1, R3);
 * - Mastercard: at most 10 attempts per card in 24 h and 35 in 30 days (any amount, rolling: the
 *   stricter reading of the networks' "same amount" and "tumbling" windows);
 * - Mastercard: no retry of the same card and amount within 30 days of MAC 03 or 21.
 * Each authorisation beyond a rule counts once per rule it breaks; the fees follow PARAMETERS.feesUsdCents.
 */
export const VIOLATION_RULES = [
  'visa_excessive_reattempts',
  'visa_category_1_reattempt',
  'mastercard_10_per_24h',
  'mastercard_35_per_30d',
  'mastercard_mac_03_21_retry',
] as const;
export type ViolationRule = (typeof VIOLATION_RULES)[number];

export const VISA_CATEGORY_1 = new Set(['04', '07', '12', '15', '41', '43', '46', '57', 'R0', 'R1', 'R3']);
const DAY_MS = 86_400_000;

export interface AuditResult {
  readonly total: number;
  readonly byRule: Readonly<Record<ViolationRule, number>>;
  /** USD cents. */
  readonly feesUsdCents: number;
}

export function auditAuthorisations(authorisations: readonly Authorisation[]): AuditResult {
  const byRule = Object.fromEntries(VIOLATION_RULES.map((r) => [r, 0])) as Record<ViolationRule, number>;
  const byCard = new Map<string, Authorisation[]>();
  for (const a of authorisations) byCard.set(a.card, [...(byCard.get(a.card) ?? []), a]);
  for (const list of byCard.values()) {
    const sorted = [...list].sort((x, y) => x.at.getTime() - y.at.getTime() || x.attempt - y.attempt);
    sorted.forEach((a, i) => {
      const earlier = sorted.slice(0, i);
      const within = (ms: number) => earlier.filter((e) => a.at.getTime() - e.at.getTime() < ms);
      if (a.network === 'visa' && a.attempt > 0) {
        const reattempts = within(30 * DAY_MS).filter((e) => e.attempt > 0 && e.amount === a.amount && e.currency === a.currency);
        if (reattempts.length >= 20) byRule.visa_excessive_reattempts += 1;
        if (within(30 * DAY_MS).some((e) => e.decline?.networkCode !== undefined && VISA_CATEGORY_1.has(e.decline.networkCode)))
          byRule.visa_category_1_reattempt += 1;
      }
      if (a.network === 'mastercard') {
        if (within(DAY_MS).length >= 10) byRule.mastercard_10_per_24h += 1;
        if (within(30 * DAY_MS).length >= 35) byRule.mastercard_35_per_30d += 1;
        if (
          a.attempt > 0 &&
          within(30 * DAY_MS).some(
            (e) => (e.decline?.adviceCode === '03' || e.decline?.adviceCode === '21') && e.amount === a.amount && e.currency === a.currency,
          )
        )
          byRule.mastercard_mac_03_21_retry += 1;
      }
    });
  }
  const fees = PARAMETERS.feesUsdCents;
  const feesUsdCents = VIOLATION_RULES.reduce((sum, rule) => sum + byRule[rule] * fees[rule], 0);
  return { total: VIOLATION_RULES.reduce((sum, rule) => sum + byRule[rule], 0), byRule, feesUsdCents };
}
