/**
 * Decline-code catalogue and classifier (DESIGN §2b): 268 provider decline codes in four
 * categories, the Visa and Mastercard retry rules as data, and classifyDecline.
 *
 * @example
 * classifyDecline({ psp: 'stripe', declineCode: 'insufficient_funds', network: 'mastercard', adviceCode: '25' });
 * // => { category: 'soft_retry', subcategory: 'balance', source: 'advice_code',
 * //      retry: { allowed: true, fixedDelayHours: 24, reason: '...' }, matched: { psp: 'stripe', ... } }
 */
export * from './types';
export { DECLINE_CATEGORY_RECORDS, type DeclineCategoryRecord, SUBCATEGORY_INFO, type SubcategoryInfo } from './categories';
export { RECOVERY_ADJUSTMENTS, type RecoveryAdjustment, recoveryRate, SUBCATEGORY_BASELINE } from './recovery-rates';
export {
  compareDeclineCodes,
  DECLINE_CATALOGUE_SIZE,
  declineCodeCatalogue,
  catalogueProblems,
  declineCodesOf,
} from './catalogue';
export {
  type AdviceRule,
  type CardNetwork,
  MASTERCARD_ADVICE_CODES,
  normaliseNetwork,
  normaliseNetworkCode,
  PAYPAL_ADVICE_ALIASES,
  resolveAdviceCode,
  STRIPE_ADVICE_CODES,
  VISA_ADVICE_CODES,
  VISA_RESPONSE_RULES,
  type VisaCategory,
  type VisaResponseRule,
  visaCategoryOf,
  visaResponseRule,
} from './card-network-rules';
export { type DoNotRetryConflict, findDoNotRetryConflicts, hasDoNotRetryMeaning } from './catalogue-checks';
export { classifyDecline } from './classify';
export {
  DECLINE_PSPS,
  type DeclineCodeFilter,
  getDeclineCode,
  getDeclineCodeVariations,
  listCategories,
  listDeclineCodes,
} from './queries';
