import type { DeclineCategory, DeclineSubcategory, SubcategoryOf } from './types';

/**
 * How the catalogue's recovery_rate figures are chosen.
 *
 * No provider publishes per-code recovery rates, so these are engineering estimates, not
 * measurements. They are built, never typed in per code:
 *
 *   recovery_rate = clamp(SUBCATEGORY_BASELINE[subcategory] + sum(ADJUSTMENTS[reason] for the code's reasons), 0.01, 0.95)
 *
 * rounded to two decimals. The baselines follow what each subcategory leaves open:
 * - soft_retry: a later retry on the same card usually works (issuer/network hiccups most, then
 *   limits that reset, then empty balances that refill around payday, then issuer holds).
 * - hard_customer: only a card update recovers it (account updater or the customer); expired cards
 *   come back most often, closed accounts least.
 * - terminal: recovery only if the customer starts over with another payment method.
 * - unknown: a mix of all of the above.
 * A code departs from its subcategory's baseline only for a named reason below, written next to the
 * code in its provider file, so a reviewer sees why. Once the analytics rollups hold real outcomes per
 * (psp, code), these estimates should be replaced by the measured rates.
 */
export const SUBCATEGORY_BASELINE: { readonly [C in DeclineCategory]: Readonly<Record<SubcategoryOf<C>, number>> } = {
  soft_retry: { processing_error: 0.65, limit: 0.5, balance: 0.45, issuer_hold: 0.35 },
  hard_customer: { expired: 0.4, authentication_required: 0.35, invalid_details: 0.3, stolen: 0.25, closed: 0.2 },
  terminal: { merchant_error: 0.12, invalid_account: 0.1, not_permitted: 0.08, revoked_authorization: 0.05, do_not_retry: 0.05, fraud: 0.02 },
  unknown: { generic: 0.25, referral: 0.2, unmapped: 0.15 },
};

/** Per-code departures from the baseline, each with a fixed size. */
export const RECOVERY_ADJUSTMENTS = {
  /** The provider or issuer says in so many words that a later attempt may succeed. */
  explicit_retry_signal: 0.1,
  /** A daily count or amount limit: it resets by itself within a day. */
  limit_resets_daily: 0.05,
  /** The issuer says new card details exist, so an account updater usually supplies them. */
  updated_credentials_available: 0.15,
  /** A prepaid or gift-card balance, which customers rarely top up for a subscription. */
  prepaid_balance: -0.15,
  /** The provider's own catch-all ("unknown", "other"): less is known than for a plain decline. */
  catch_all: -0.05,
} as const;
export type RecoveryAdjustment = keyof typeof RECOVERY_ADJUSTMENTS;

const MIN_RATE = 0.01;
const MAX_RATE = 0.95;

export const baselineRecoveryRate = (category: DeclineCategory, subcategory: DeclineSubcategory): number =>
  (SUBCATEGORY_BASELINE[category] as Readonly<Record<string, number>>)[subcategory] ?? 0;

export const recoveryRate = (category: DeclineCategory, subcategory: DeclineSubcategory, adjustments: readonly RecoveryAdjustment[] = []): number => {
  const raw = adjustments.reduce((rate, reason) => rate + RECOVERY_ADJUSTMENTS[reason], baselineRecoveryRate(category, subcategory));
  return Math.round(Math.min(MAX_RATE, Math.max(MIN_RATE, raw)) * 100) / 100;
};
