import type { DeclineCategory } from '#core/decline-codes/types';
import { type CampaignFailure, isHighValue } from './failure';

/**
 * Campaign triggers. A sends `trigger_type`, B sends `trigger`; a campaign stores ONE canonical
 * `trigger` and answers both fields: `trigger` always, `trigger_type` with A's value where A has
 * one, else null.
 *
 * | canonical `trigger`   | A `trigger_type`      | B `trigger`        | enrolls a payment recorded as failed when |
 * |-----------------------|-----------------------|--------------------|--------------------------------------------|
 * | payment_failed        | payment_failed        | payment_failed     | always (any decline category)              |
 * | any_decline           | (none)                | any_decline        | always (B's alias of payment_failed)       |
 * | soft_decline          | payment_failed_soft   | soft_decline       | decline category soft_retry                |
 * | payment_failed_hard   | payment_failed_hard   | (none)             | decline category hard_customer or terminal |
 * | card_expired          | (none)                | card_expired       | hard_customer with subcategory expired     |
 * | repeated_failure      | (none)                | repeated_failure   | the customer failed at least once before   |
 * | high_value_churn      | (none)                | high_value_churn   | failure.ts isHighValue (lifetime value ≥ 500 or payment ≥ 200, major units of its currency) |
 * | subscription_past_due | subscription_past_due | (none)             | the payment names a subscription (a failed subscription invoice) |
 * | card_expiring         | card_expiring         | card_expiring      | never: the daily card-expiry-checks task enrolls customers (not payments) whose card expires this month or next, once per card (services/card-expiry-checks.ts) |
 * | pre_dunning           | (none)                | pre_dunning        | never: the daily pre-dunning-notifications task enrolls customers with a charge due within 7 days whose card expires first or who owe a failed payment, once per charge (services/pre-dunning.ts) |
 * | manual                | (none)                | manual             | never: enrolled through POST /analytics/at-risk-customers/{id}/enroll (not built yet) |
 *
 * Decline categories come from functions/core/decline-codes/ (classification at ingest).
 * `trigger` also accepts A's values (`payment_failed_soft` is stored as `soft_decline`); a body
 * with both fields must name the same canonical trigger.
 */
export const A_TRIGGER_TYPES = ['payment_failed', 'payment_failed_soft', 'payment_failed_hard', 'subscription_past_due', 'card_expiring'] as const;
export type ATriggerType = (typeof A_TRIGGER_TYPES)[number];

export const B_TRIGGERS = [
  'payment_failed',
  'card_expiring',
  'card_expired',
  'manual',
  'pre_dunning',
  'soft_decline',
  'repeated_failure',
  'high_value_churn',
  'any_decline',
] as const;

export const CAMPAIGN_TRIGGERS = [...B_TRIGGERS, 'payment_failed_hard', 'subscription_past_due'] as const;
export type CampaignTrigger = (typeof CAMPAIGN_TRIGGERS)[number];

/** Every value `trigger` accepts: the canonical ones and A's. */
export const TRIGGER_INPUTS = [...CAMPAIGN_TRIGGERS, 'payment_failed_soft'] as const;
export type TriggerInput = (typeof TRIGGER_INPUTS)[number];

const A_TO_CANONICAL: Readonly<Record<ATriggerType, CampaignTrigger>> = {
  payment_failed: 'payment_failed',
  payment_failed_soft: 'soft_decline',
  payment_failed_hard: 'payment_failed_hard',
  subscription_past_due: 'subscription_past_due',
  card_expiring: 'card_expiring',
};

export const isCampaignTrigger = (value: string): value is CampaignTrigger => (CAMPAIGN_TRIGGERS as readonly string[]).includes(value);

/** The canonical trigger of an A `trigger_type` or a `trigger` value. */
export const canonicalTrigger = (value: TriggerInput | ATriggerType): CampaignTrigger =>
  value === 'payment_failed_soft' ? 'soft_decline' : (A_TO_CANONICAL[value as ATriggerType] ?? (value as CampaignTrigger));

/** A's `trigger_type` for a canonical trigger, or null where A has none. */
export function triggerTypeOf(trigger: string): ATriggerType | null {
  for (const [a, canonical] of Object.entries(A_TO_CANONICAL)) if (canonical === trigger) return a as ATriggerType;
  return null;
}

interface TriggerRule {
  /** Whether a newly failed payment can enroll through this trigger at all. */
  readonly enrollsOnFailure: boolean;
  /** Points of specificity (matching.ts): generic 0, a condition on the customer or payment 1, a category 2, category and subcategory 3. */
  readonly specificity: number;
  /** The decline categories it is limited to, when it is (lets overlap and simulate read one category index). */
  readonly categories?: readonly DeclineCategory[];
  /** Whether it reads the customer's facts (earlier failures, lifetime value). */
  readonly needsCustomer: boolean;
  readonly matches: (failure: CampaignFailure) => boolean;
}

const always = (): boolean => true;
const never = (): boolean => false;

export const TRIGGER_RULES: Readonly<Record<CampaignTrigger, TriggerRule>> = {
  payment_failed: { enrollsOnFailure: true, specificity: 0, needsCustomer: false, matches: always },
  any_decline: { enrollsOnFailure: true, specificity: 0, needsCustomer: false, matches: always },
  soft_decline: {
    enrollsOnFailure: true,
    specificity: 2,
    categories: ['soft_retry'],
    needsCustomer: false,
    matches: (f) => f.decline_category === 'soft_retry',
  },
  payment_failed_hard: {
    enrollsOnFailure: true,
    specificity: 2,
    categories: ['hard_customer', 'terminal'],
    needsCustomer: false,
    matches: (f) => f.decline_category === 'hard_customer' || f.decline_category === 'terminal',
  },
  card_expired: {
    enrollsOnFailure: true,
    specificity: 3,
    categories: ['hard_customer'],
    needsCustomer: false,
    matches: (f) => f.decline_category === 'hard_customer' && f.decline_subcategory === 'expired',
  },
  repeated_failure: { enrollsOnFailure: true, specificity: 1, needsCustomer: true, matches: (f) => f.earlier_failed_count >= 1 },
  high_value_churn: { enrollsOnFailure: true, specificity: 1, needsCustomer: true, matches: isHighValue },
  subscription_past_due: { enrollsOnFailure: true, specificity: 1, needsCustomer: false, matches: (f) => f.subscription_id !== null },
  card_expiring: { enrollsOnFailure: false, specificity: 0, needsCustomer: false, matches: never },
  pre_dunning: { enrollsOnFailure: false, specificity: 0, needsCustomer: false, matches: never },
  manual: { enrollsOnFailure: false, specificity: 0, needsCustomer: false, matches: never },
};

/** The rule of a stored trigger; a value no longer known enrolls nothing. */
export const triggerRuleOf = (trigger: string): TriggerRule =>
  isCampaignTrigger(trigger) ? TRIGGER_RULES[trigger] : { enrollsOnFailure: false, specificity: 0, needsCustomer: false, matches: never };
