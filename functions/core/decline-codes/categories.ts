import { SUBCATEGORY_BASELINE } from './recovery-rates';
import { DECLINE_CATEGORIES, type DeclineCategory, type DeclineSubcategory, SUBCATEGORIES_BY_CATEGORY, type SubcategoryOf } from './types';

/**
 * The category taxonomy served by GET /decline-codes/categories: the spec's B category record
 * (category, description, expected_recovery_rate, subcategories) plus A's recommended recovery
 * strategy.
 *
 * Subcategories beyond the ones the spec shows, and why:
 * - soft_retry/issuer_hold: Visa category 2 holds the issuer lifts by itself or at the
 *   cardholder's call (59 suspected fraud, 5C, 9G). Retry is allowed, but these are neither a
 *   balance, a limit nor a processing error.
 * - hard_customer/invalid_details and /authentication_required: Visa category 3 ("data quality,
 *   revalidate before retrying") and 1A / 3-D Secure. The customer has to act, but the card is
 *   neither expired, stolen nor closed.
 * - terminal: fraud (issuer or risk engine suspects fraud), revoked_authorization (the
 *   cardholder stopped this merchant: stop payment, revocation, cancelled mandate or billing),
 *   do_not_retry (an explicit "never retry" without a reason: MAC 03, Stripe do_not_try_again),
 *   invalid_account (Visa category 1 codes that retire the card number: 04, 15, 41, 43, 46),
 *   not_permitted (the card or issuer never allows this kind of payment: 12, 57), and
 *   merchant_error (the merchant's account, configuration or request is at fault, so
 *   no customer action helps).
 * - unknown: generic (a decline without a reason, such as do-not-honor), referral (the issuer
 *   asks the cardholder to call), and unmapped (a code this catalogue does not know, or a
 *   provider's own catch-all).
 */
export interface SubcategoryInfo {
  readonly subcategory: DeclineSubcategory;
  readonly description: string;
  /** Used for catalogue entries that give no action of their own. */
  readonly default_action: string;
  readonly baseline_recovery_rate: number;
}

export interface DeclineCategoryRecord {
  readonly category: DeclineCategory;
  readonly description: string;
  readonly recommended_strategy: string;
  /** Mean of the category's subcategory baselines (recovery-rates.ts). */
  readonly expected_recovery_rate: number;
  readonly subcategories: readonly DeclineSubcategory[];
}

type SubcategoryText = { readonly description: string; readonly default_action: string };

const SUBCATEGORY_TEXT: { readonly [C in DeclineCategory]: Readonly<Record<SubcategoryOf<C>, SubcategoryText>> } = {
  soft_retry: {
    balance: {
      description: 'Insufficient funds or credit at the time of the attempt.',
      default_action: "Retry later, ideally around the customer's usual payday, and remind the customer to top up or switch cards.",
    },
    limit: {
      description: 'A spending, withdrawal or attempt-count limit on the card or account was reached.',
      default_action: 'Retry after the limit window resets (usually the next day), or ask the customer to raise the limit.',
    },
    processing_error: {
      description: 'The issuer, network, gateway or processor could not complete the authorisation right now.',
      default_action: 'Retry automatically after a short delay; no customer action is needed.',
    },
    issuer_hold: {
      description: 'The issuer or cardholder has put a temporary hold on the card.',
      default_action: 'Ask the customer to confirm the payment with their bank, then retry.',
    },
  },
  hard_customer: {
    expired: {
      description: 'The card on file has expired or its expiry date no longer matches.',
      default_action: 'Run the account updater or ask the customer for the new expiry date or card; do not retry the old details.',
    },
    stolen: {
      description: 'The card was reported lost or stolen, or the issuer asked for it to be picked up.',
      default_action: 'Do not retry this card; ask the customer for a new card (the replacement often comes through the account updater).',
    },
    closed: {
      description: 'The card or account is closed, inactive, restricted or replaced.',
      default_action: 'Do not retry this card; ask the customer to update the payment method.',
    },
    invalid_details: {
      description: 'Card data on file failed validation (number, security code, address, cardholder name).',
      default_action: 'Ask the customer to re-enter their card details; retry only once they are updated.',
    },
    authentication_required: {
      description: 'The issuer requires cardholder authentication (3-D Secure / SCA) that an off-session charge cannot provide.',
      default_action: 'Send the customer a link to complete the payment on-session with authentication.',
    },
  },
  terminal: {
    fraud: {
      description: 'The issuer, network or a risk engine suspects fraud.',
      default_action: 'Stop retrying; do not reveal the fraud reason to the customer. Offer another payment method only after review.',
    },
    revoked_authorization: {
      description: "The cardholder stopped this payment or revoked the merchant's authorisation to charge them.",
      default_action: 'Stop retrying and stop recurring charges on this payment method; a new authorisation from the customer is required.',
    },
    do_not_retry: {
      description: 'The issuer, network or provider said never to retry, without a more specific reason.',
      default_action: 'Stop retrying this card (retries draw network fees); ask the customer for another payment method.',
    },
    invalid_account: {
      description: 'The network says the card number can never be approved again (Visa category 1).',
      default_action: 'Stop retrying this card number; only a different card can recover the payment.',
    },
    not_permitted: {
      description: 'The issuer or card never allows this kind of transaction, currency or merchant.',
      default_action: 'Stop retrying; ask the customer for a different payment method.',
    },
    merchant_error: {
      description: "The merchant's account, configuration or request caused the failure.",
      default_action: 'Stop retrying and fix the merchant configuration or request before charging again.',
    },
  },
  unknown: {
    generic: {
      description: 'The issuer declined without giving a reason (generic decline, do-not-honor).',
      default_action: 'Retry a limited number of times within the network caps, then treat as hard_customer and ask for another card.',
    },
    referral: {
      description: 'The issuer asks the cardholder to contact them before the payment can go through.',
      default_action: 'Ask the customer to call their bank, then retry once; otherwise request another card.',
    },
    unmapped: {
      description: "A code this catalogue does not map, or a provider's own catch-all for unknown failures.",
      default_action: 'Retry a limited number of times within the network caps, then treat as hard_customer.',
    },
  },
};

const CATEGORY_TEXT: Readonly<Record<DeclineCategory, { description: string; recommended_strategy: string }>> = {
  soft_retry: {
    description: 'Temporary declines: the same card is likely to succeed on a later attempt.',
    recommended_strategy:
      'Retry on a schedule within the network caps (Visa 20 per 30 days, Mastercard 10 per day and 35 per 30 days); honour any fixed wait a Mastercard advice code gives.',
  },
  hard_customer: {
    description: 'Declines the customer must fix: the card on file needs updating or the customer must act.',
    recommended_strategy: 'Stop retrying the same details; run the account updater and send dunning asking the customer to update their payment method.',
  },
  terminal: {
    description: 'Declines that must never be retried (fraud, revoked authorisation, network do-not-retry).',
    recommended_strategy:
      'Stop all retries on this payment method and block the card for 30 days; only a new payment method from the customer can recover the payment.',
  },
  unknown: {
    description: 'Declines without enough information to place them.',
    recommended_strategy: 'Retry a few times within the network caps, then handle as hard_customer.',
  },
};

const mean = (values: readonly number[]): number => Math.round((values.reduce((sum, value) => sum + value, 0) / values.length) * 100) / 100;

export const SUBCATEGORY_INFO: readonly SubcategoryInfo[] = DECLINE_CATEGORIES.flatMap((category) =>
  SUBCATEGORIES_BY_CATEGORY[category].map((subcategory): SubcategoryInfo => {
    const text = (SUBCATEGORY_TEXT[category] as Readonly<Record<string, SubcategoryText>>)[subcategory] as SubcategoryText;
    const baseline = (SUBCATEGORY_BASELINE[category] as Readonly<Record<string, number>>)[subcategory] as number;
    return { subcategory, ...text, baseline_recovery_rate: baseline };
  }),
);

export const DECLINE_CATEGORY_RECORDS: readonly DeclineCategoryRecord[] = DECLINE_CATEGORIES.map((category) => ({
  category,
  ...CATEGORY_TEXT[category],
  expected_recovery_rate: mean(Object.values(SUBCATEGORY_BASELINE[category] as Readonly<Record<string, number>>)),
  subcategories: SUBCATEGORIES_BY_CATEGORY[category],
}));

export const subcategoryInfo = (subcategory: DeclineSubcategory): SubcategoryInfo =>
  SUBCATEGORY_INFO.find((info) => info.subcategory === subcategory) as SubcategoryInfo;
