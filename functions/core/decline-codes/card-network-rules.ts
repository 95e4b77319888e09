import type { CategorisedAs } from './types';

/**
 * The card-network facts classification relies on, as data (reference/card-network-rules.md §3.1,
 * §3.2 and the implementation checklist §3.3). Retry counting (Visa 20 per 30 days, Mastercard
 * 10 per day and 35 per 30 days) belongs to the retry policy, not here.
 */

// ---------------------------------------------------------------------------------------------
// Visa decline categories of raw authorisation response codes
// ---------------------------------------------------------------------------------------------

export type VisaCategory = 1 | 2 | 3 | 4;

export type VisaResponseRule = CategorisedAs & {
  readonly code: string;
  readonly visaCategory: 1 | 2 | 3;
  readonly meaning: string;
  /** False where Visa permits no reattempt of the same credentials (category 1, and 14). */
  readonly reattemptPermitted: boolean;
};

type VisaRuleInput = CategorisedAs & { readonly code: string; readonly meaning: string; readonly reattemptPermitted?: boolean };

const category1 = (rule: VisaRuleInput): VisaResponseRule => ({ ...rule, visaCategory: 1, reattemptPermitted: false });
const category2 = (rule: VisaRuleInput): VisaResponseRule => ({ ...rule, visaCategory: 2, reattemptPermitted: rule.reattemptPermitted ?? true });
const category3 = (rule: VisaRuleInput): VisaResponseRule => ({ ...rule, visaCategory: 3, reattemptPermitted: rule.reattemptPermitted ?? true });

/**
 * Category 1 "issuer will never approve" (terminal, no reattempt), 2 "cannot approve at this time"
 * (soft_retry), 3 "data quality, revalidate before retrying" (hard_customer). Every other code is
 * category 4 (generic). 14 is listed by some acquirers in category 1 and by others in 3; Visa
 * allows no reattempt of it either way, so it is category 3 (the customer must supply a valid
 * card) with reattemptPermitted false. 03, 62, 78 and 93, which only some acquirers put in
 * category 1, stay category 4 here.
 */
export const VISA_RESPONSE_RULES: readonly VisaResponseRule[] = [
  category1({ code: '04', category: 'terminal', subcategory: 'invalid_account', meaning: 'Pick up card (no fraud)' }),
  category1({ code: '07', category: 'terminal', subcategory: 'fraud', meaning: 'Pick up card, special condition (fraud account)' }),
  category1({ code: '12', category: 'terminal', subcategory: 'not_permitted', meaning: 'Invalid transaction' }),
  category1({
    code: '15',
    category: 'terminal',
    subcategory: 'invalid_account',
    meaning: 'No such issuer (first 8 digits of the account number do not relate to an issuing identifier)',
  }),
  category1({ code: '41', category: 'terminal', subcategory: 'invalid_account', meaning: 'Lost card, pick up' }),
  category1({ code: '43', category: 'terminal', subcategory: 'invalid_account', meaning: 'Stolen card, pick up' }),
  category1({ code: '46', category: 'terminal', subcategory: 'invalid_account', meaning: 'Closed account' }),
  category1({ code: '57', category: 'terminal', subcategory: 'not_permitted', meaning: 'Transaction not permitted to cardholder' }),
  category1({ code: 'R0', category: 'terminal', subcategory: 'revoked_authorization', meaning: 'Stop payment order' }),
  category1({ code: 'R1', category: 'terminal', subcategory: 'revoked_authorization', meaning: 'Revocation of authorization order' }),
  category1({ code: 'R3', category: 'terminal', subcategory: 'revoked_authorization', meaning: 'Revocation of all authorizations order' }),
  category2({ code: '19', category: 'soft_retry', subcategory: 'processing_error', meaning: 'Re-enter transaction' }),
  category2({ code: '51', category: 'soft_retry', subcategory: 'balance', meaning: 'Insufficient funds' }),
  category2({ code: '59', category: 'soft_retry', subcategory: 'issuer_hold', meaning: 'Suspected fraud' }),
  category2({ code: '61', category: 'soft_retry', subcategory: 'limit', meaning: 'Exceeds approval amount limit' }),
  category2({ code: '65', category: 'soft_retry', subcategory: 'limit', meaning: 'Exceeds withdrawal frequency limit' }),
  category2({ code: '75', category: 'soft_retry', subcategory: 'limit', meaning: 'Allowable number of PIN tries exceeded' }),
  category2({ code: '86', category: 'soft_retry', subcategory: 'processing_error', meaning: 'Cannot verify PIN' }),
  category2({ code: '91', category: 'soft_retry', subcategory: 'processing_error', meaning: 'Issuer unavailable or switch inoperative' }),
  category2({ code: '96', category: 'soft_retry', subcategory: 'processing_error', meaning: 'System malfunction' }),
  category2({ code: 'N3', category: 'soft_retry', subcategory: 'processing_error', meaning: 'Cash service not available' }),
  category2({ code: 'N4', category: 'soft_retry', subcategory: 'limit', meaning: 'Cash request exceeds issuer or approved limit' }),
  category2({ code: '5C', category: 'soft_retry', subcategory: 'issuer_hold', meaning: 'Transaction blocked by the issuer (BIN range), from 11 April 2025' }),
  category2({ code: '9G', category: 'soft_retry', subcategory: 'issuer_hold', meaning: 'Blocked by cardholder, contact cardholder, from 11 April 2025' }),
  category3({
    code: '14',
    category: 'hard_customer',
    subcategory: 'invalid_details',
    meaning: 'Invalid account number (no such number)',
    reattemptPermitted: false,
  }),
  category3({ code: '54', category: 'hard_customer', subcategory: 'expired', meaning: 'Expired card' }),
  category3({ code: '55', category: 'hard_customer', subcategory: 'invalid_details', meaning: 'Incorrect PIN' }),
  category3({ code: 'N7', category: 'hard_customer', subcategory: 'invalid_details', meaning: 'Decline for CVV2 failure' }),
  category3({ code: '82', category: 'hard_customer', subcategory: 'invalid_details', meaning: 'Negative CAM, dCVV, iCVV or CVV results' }),
  category3({ code: '1A', category: 'hard_customer', subcategory: 'authentication_required', meaning: 'Additional customer authentication required' }),
];

/** Raw codes as issuers send them: upper case, and single digits padded ("5" is "05"). */
export const normaliseNetworkCode = (code: string): string => {
  const trimmed = code.trim().toUpperCase();
  return /^\d$/.test(trimmed) ? `0${trimmed}` : trimmed;
};

const VISA_RULES_BY_CODE = new Map(VISA_RESPONSE_RULES.map((rule) => [rule.code, rule]));

export const visaResponseRule = (code: string): VisaResponseRule | undefined => VISA_RULES_BY_CODE.get(normaliseNetworkCode(code));

/** The Visa category of a raw response code; 4 (generic) for every code not listed. */
export const visaCategoryOf = (code: string): VisaCategory => visaResponseRule(code)?.visaCategory ?? 4;

// ---------------------------------------------------------------------------------------------
// Advice codes: Mastercard merchant advice codes, Visa's own, Stripe's advice_code
// ---------------------------------------------------------------------------------------------

export type AdviceRule = CategorisedAs & {
  readonly code: string;
  readonly meaning: string;
  /** Advice about retrying (MAC 40/41/43 describe the card type instead and decide nothing). */
  readonly isRetryAdvice: boolean;
  readonly retryAllowed: boolean;
  /** The exact wait the network fixes (MAC 24-30). */
  readonly fixedDelayHours?: number;
};

type AdviceInput = CategorisedAs & {
  readonly code: string;
  readonly meaning: string;
  readonly isRetryAdvice?: boolean;
  readonly retryAllowed: boolean;
  readonly fixedDelayHours?: number;
};
const advice = (rule: AdviceInput): AdviceRule => ({ ...rule, isRetryAdvice: rule.isRetryAdvice ?? true });

const macRetryAfter = (code: string, hours: number, label: string): AdviceRule =>
  advice({
    code,
    category: 'soft_retry',
    subcategory: 'balance',
    meaning: `Retry after ${label} (Mastercard Authorization Optimizer, sent with insufficient-funds declines)`,
    retryAllowed: true,
    fixedDelayHours: hours,
  });

const NOT_RETRY_ADVICE = { category: 'unknown', subcategory: 'generic', isRetryAdvice: false, retryAllowed: true } as const;

/**
 * Mastercard merchant advice codes (MAC), as Braintree, Antom and Solidgate document them. MAC 03
 * and 21 forbid any retry (and a card-not-present retry of the same card and amount within 30 days
 * draws a TPE fee); 24-30 fix the wait; 01 sends the merchant to the account updater; 02 is
 * "try later" (Solidgate suggests 72 hours, which is guidance, not a network rule). 04 and 22 are
 * about the merchant's token or product-code set-up: retrying unchanged cannot succeed.
 */
export const MASTERCARD_ADVICE_CODES: readonly AdviceRule[] = [
  advice({
    code: '01',
    category: 'hard_customer',
    subcategory: 'closed',
    meaning: 'New account information available: run the account updater or ask for the new card',
    retryAllowed: false,
  }),
  advice({ code: '02', category: 'soft_retry', subcategory: 'processing_error', meaning: 'Cannot approve at this time, try again later', retryAllowed: true }),
  advice({ code: '03', category: 'terminal', subcategory: 'do_not_retry', meaning: 'Do not try again', retryAllowed: false }),
  advice({
    code: '04',
    category: 'terminal',
    subcategory: 'merchant_error',
    meaning: 'Token requirements not fulfilled for this token type',
    retryAllowed: false,
  }),
  advice({
    code: '21',
    category: 'terminal',
    subcategory: 'revoked_authorization',
    meaning: 'Payment cancellation: the cardholder stopped recurring payments',
    retryAllowed: false,
  }),
  advice({ code: '22', category: 'terminal', subcategory: 'merchant_error', meaning: 'Merchant does not qualify for product code', retryAllowed: false }),
  macRetryAfter('24', 1, '1 hour'),
  macRetryAfter('25', 24, '24 hours'),
  macRetryAfter('26', 48, '2 days'),
  macRetryAfter('27', 96, '4 days'),
  macRetryAfter('28', 144, '6 days'),
  macRetryAfter('29', 192, '8 days'),
  macRetryAfter('30', 240, '10 days'),
  advice({ code: '40', ...NOT_RETRY_ADVICE, meaning: 'Consumer non-reloadable prepaid card' }),
  advice({ code: '41', ...NOT_RETRY_ADVICE, meaning: 'Consumer single-use virtual card number' }),
  advice({ code: '43', ...NOT_RETRY_ADVICE, meaning: 'Consumer multi-use virtual card number' }),
];

/**
 * Visa's recurring-payment advice codes reuse MAC numbers with other meanings (PayPal documents
 * both in processor_response.advice_code: 02_STOP_SPECIFIC_PAYMENT, 03_REVOKE_AUTHORIZATION_FOR_FUTURE_PAYMENT,
 * 21_CANCEL_ALL_RECURRING_PAYMENTS). Reading a Visa "02" as Mastercard's "try later" would retry a
 * stopped payment, so when the network is Visa these apply instead.
 */
export const VISA_ADVICE_CODES: readonly AdviceRule[] = [
  advice({
    code: '02',
    category: 'terminal',
    subcategory: 'revoked_authorization',
    meaning: 'Stop this specific payment: do not resubmit it (later billing periods may continue)',
    retryAllowed: false,
  }),
  advice({
    code: '03',
    category: 'terminal',
    subcategory: 'revoked_authorization',
    meaning: 'Revoke authorisation for future payments: stop all recurring payments to this merchant',
    retryAllowed: false,
  }),
  advice({
    code: '21',
    category: 'terminal',
    subcategory: 'revoked_authorization',
    meaning: 'All recurring payments were cancelled for this card',
    retryAllowed: false,
  }),
];

/** Stripe `advice_code` (docs.stripe.com/declines/codes, "guidance formerly in deprecated decline codes"). */
export const STRIPE_ADVICE_CODES: readonly AdviceRule[] = [
  advice({
    code: 'try_again_later',
    category: 'soft_retry',
    subcategory: 'processing_error',
    meaning: 'Try again later: the issuer may approve a later attempt',
    retryAllowed: true,
  }),
  advice({
    code: 'do_not_try_again',
    category: 'terminal',
    subcategory: 'do_not_retry',
    meaning: 'Do not try again: the issuer will not approve this card',
    retryAllowed: false,
  }),
  advice({
    code: 'confirm_card_data',
    category: 'hard_customer',
    subcategory: 'invalid_details',
    meaning: 'Confirm card data: the customer must re-enter or update the card details',
    retryAllowed: false,
  }),
];

/** PayPal's spelled-out forms of processor_response.advice_code, mapped to the rule they name. */
export const PAYPAL_ADVICE_ALIASES: Readonly<Record<string, { readonly network: 'mastercard' | 'visa'; readonly code: string }>> = {
  '01_NEW_ACCOUNT_INFORMATION': { network: 'mastercard', code: '01' },
  '02_TRY_AGAIN_LATER': { network: 'mastercard', code: '02' },
  '02_STOP_SPECIFIC_PAYMENT': { network: 'visa', code: '02' },
  '03_DO_NOT_TRY_AGAIN': { network: 'mastercard', code: '03' },
  '03_REVOKE_AUTHORIZATION_FOR_FUTURE_PAYMENT': { network: 'visa', code: '03' },
  '21_DO_NOT_TRY_AGAIN_CARD_HOLDER_CANCELLED_RECURRRING_CHARGE': { network: 'mastercard', code: '21' },
  '21_CANCEL_ALL_RECURRING_PAYMENTS': { network: 'visa', code: '21' },
};

const byCode = (rules: readonly AdviceRule[]): ReadonlyMap<string, AdviceRule> => new Map(rules.map((rule) => [rule.code, rule]));
const MAC_BY_CODE = byCode(MASTERCARD_ADVICE_CODES);
const VISA_ADVICE_BY_CODE = byCode(VISA_ADVICE_CODES);
const STRIPE_ADVICE_BY_CODE = byCode(STRIPE_ADVICE_CODES);

export type CardNetwork = 'visa' | 'mastercard' | 'other';

/** 'visa', 'mastercard', 'other' for any other brand, undefined when the network is not known. */
export const normaliseNetwork = (network: string | undefined): CardNetwork | undefined => {
  const value = network
    ?.trim()
    .toLowerCase()
    .replace(/[\s_-]/g, '');
  if (!value) return undefined;
  if (value === 'visa') return 'visa';
  if (value === 'mastercard' || value === 'mc' || value === 'master') return 'mastercard';
  return 'other';
};

export interface ResolvedAdvice {
  readonly rule: AdviceRule;
  readonly scheme: 'mastercard' | 'visa' | 'stripe';
}

/**
 * Which advice rule an advice code names. Stripe's words and PayPal's spelled-out forms carry their
 * own meaning; a bare number is read as a Mastercard MAC unless the network is Visa (Visa's table)
 * or another brand (nothing: neither table applies).
 */
export const resolveAdviceCode = (adviceCode: string | undefined, network: CardNetwork | undefined): ResolvedAdvice | undefined => {
  const value = adviceCode?.trim();
  if (!value) return undefined;
  const stripe = STRIPE_ADVICE_BY_CODE.get(value.toLowerCase());
  if (stripe) return { rule: stripe, scheme: 'stripe' };
  const alias = PAYPAL_ADVICE_ALIASES[value.toUpperCase()];
  if (alias) {
    const rule = (alias.network === 'visa' ? VISA_ADVICE_BY_CODE : MAC_BY_CODE).get(alias.code);
    return rule && { rule, scheme: alias.network };
  }
  const numeric = normaliseNetworkCode(value);
  if (network === 'visa') {
    const rule = VISA_ADVICE_BY_CODE.get(numeric);
    return rule && { rule, scheme: 'visa' };
  }
  if (network === 'other') return undefined;
  const rule = MAC_BY_CODE.get(numeric);
  return rule && { rule, scheme: 'mastercard' };
};
