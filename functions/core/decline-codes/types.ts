import type { Psp } from '#core/providers';

/**
 * The decline taxonomy (spec "Conventions" and "Decline code (B list item)"): four categories, each
 * with its subcategories. The spec shows soft_retry {balance, limit, processing_error} and
 * hard_customer {expired, stolen, closed}; it leaves terminal and unknown open. The extra values
 * are ours and explained in categories.ts, where each one is described.
 */
export const DECLINE_CATEGORIES = ['soft_retry', 'hard_customer', 'terminal', 'unknown'] as const;
export type DeclineCategory = (typeof DECLINE_CATEGORIES)[number];

export const SUBCATEGORIES_BY_CATEGORY = {
  soft_retry: ['balance', 'limit', 'processing_error', 'issuer_hold'],
  hard_customer: ['expired', 'stolen', 'closed', 'invalid_details', 'authentication_required'],
  terminal: ['fraud', 'revoked_authorization', 'do_not_retry', 'invalid_account', 'not_permitted', 'merchant_error'],
  unknown: ['generic', 'referral', 'unmapped'],
} as const satisfies Record<DeclineCategory, readonly string[]>;

export type SubcategoryOf<C extends DeclineCategory> = (typeof SUBCATEGORIES_BY_CATEGORY)[C][number];
export type DeclineSubcategory = SubcategoryOf<DeclineCategory>;

/** Every subcategory once, in category order (each name belongs to exactly one category). */
export const DECLINE_SUBCATEGORIES: readonly DeclineSubcategory[] = DECLINE_CATEGORIES.flatMap((category) => SUBCATEGORIES_BY_CATEGORY[category]);

/** A category together with one of its own subcategories: the compiler refuses a mismatched pair. */
export type CategorisedAs = {
  [C in DeclineCategory]: { readonly category: C; readonly subcategory: SubcategoryOf<C> };
}[DeclineCategory];

/**
 * One catalogue entry: the spec's B list item (code, psp, category, subcategory, description,
 * recommended_action, recovery_rate). `network_code` is added only where the provider's own
 * documentation names the raw ISO 8583 response code its code stands for (Checkout.com does).
 */
export type DeclineCodeRecord = CategorisedAs & {
  readonly psp: Psp;
  readonly code: string;
  readonly description: string;
  readonly recommended_action: string;
  /** Expected share of failures with this code recovered by retry or card update, 0-1. */
  readonly recovery_rate: number;
  readonly network_code?: string;
};

export type ClassificationSource = 'advice_code' | 'network_code' | 'provider_code' | 'none';

export interface RetryDecision {
  readonly allowed: boolean;
  /** Set only when the network fixes the wait (Mastercard merchant advice codes 24-30). */
  readonly fixedDelayHours?: number;
  readonly reason: string;
}

export type Classification = CategorisedAs & {
  /** Which input decided the category (DESIGN §2b precedence). */
  readonly source: ClassificationSource;
  readonly retry: RetryDecision;
  /** The catalogue entry for psp + declineCode when exactly one was found, whichever input decided. */
  readonly matched?: DeclineCodeRecord;
};

export interface ClassifyDeclineInput {
  readonly psp?: string;
  readonly declineCode?: string;
  readonly networkCode?: string;
  readonly network?: 'visa' | 'mastercard' | (string & {});
  readonly adviceCode?: string;
}

export const isDeclineCategory = (value: string): value is DeclineCategory => (DECLINE_CATEGORIES as readonly string[]).includes(value);

export const isDeclineSubcategory = (value: string): value is DeclineSubcategory => (DECLINE_SUBCATEGORIES as readonly string[]).includes(value);

export const isSubcategoryOf = <C extends DeclineCategory>(category: C, value: string): value is SubcategoryOf<C> =>
  (SUBCATEGORIES_BY_CATEGORY[category] as readonly string[]).includes(value);
