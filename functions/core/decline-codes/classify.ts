import { isPsp, type Psp } from '#core/providers';
import {
  type AdviceRule,
  type CardNetwork,
  normaliseNetwork,
  type ResolvedAdvice,
  resolveAdviceCode,
  type VisaResponseRule,
  visaResponseRule,
} from './card-network-rules';
import { findDeclineCode, findDeclineCodeAcrossProviders } from './catalogue';
import type { CategorisedAs, Classification, ClassificationSource, ClassifyDeclineInput, DeclineCategory, DeclineCodeRecord, RetryDecision } from './types';

/**
 * Classifies a failed payment by DESIGN §2b's precedence:
 * 1. an explicit advice code (Mastercard MAC, Visa's recurring advice, Stripe advice_code);
 * 2. the Visa category of the raw network code, when the network is Visa or not known and the
 *    code is a Visa category 1-3 code;
 * 3. the provider's decline code from the catalogue;
 * 4. the cross-provider fallback: a descriptive code the provider's own table lacks, read in the
 *    shared vocabulary of CROSS_PROVIDER_VOCABULARY (`insufficient_funds` sent with psp `adyen`);
 * 5. a Visa category 4 (generic) network code, then nothing: unknown.
 * Whatever decides, a do-not-retry signal in the input (Visa category 1 with a Visa or unknown
 * network, MAC 03/21, Stripe do_not_try_again, Visa's stop advice) is never answered with an
 * allowed retry: reference/card-network-rules.md §3.3 items 3-6.
 */
export const classifyDecline = (input: ClassifyDeclineInput): Classification => {
  const network = normaliseNetwork(input.network);
  const advice = resolveAdviceCode(input.adviceCode, network);
  const visaRule = visaRuleFor(input.networkCode, network);
  const provider = lookupProviderCode(input.psp, input.declineCode);
  const fallback = provider === undefined ? lookupSharedVocabulary(input.psp, input.declineCode) : undefined;

  const decided =
    (advice?.rule.isRetryAdvice ? fromAdvice(advice) : undefined) ??
    (visaRule ? fromVisaRule(visaRule) : undefined) ??
    (provider ? fromProvider(provider) : undefined) ??
    (fallback ? fromProvider(fallback) : undefined) ??
    (input.networkCode?.trim() && network === 'visa' ? visaGeneric(input.networkCode) : undefined) ??
    unmapped(input);

  const classification = enforceDoNotRetry(decided, advice, visaRule);
  return provider?.record ? { ...classification, matched: provider.record } : classification;
};

type Decision = CategorisedAs & { readonly source: ClassificationSource; readonly retry: RetryDecision };

const decision = (classified: CategorisedAs, source: ClassificationSource, retry: RetryDecision): Decision =>
  ({ category: classified.category, subcategory: classified.subcategory, source, retry }) as Decision;

const visaRuleFor = (networkCode: string | undefined, network: CardNetwork | undefined): VisaResponseRule | undefined =>
  networkCode?.trim() && (network === 'visa' || network === undefined) ? visaResponseRule(networkCode) : undefined;

const SCHEME_LABEL: Readonly<Record<ResolvedAdvice['scheme'], string>> = {
  mastercard: 'Mastercard merchant advice code',
  visa: 'Visa advice code',
  stripe: 'Stripe advice_code',
};

const fromAdvice = ({ rule, scheme }: ResolvedAdvice): Decision => {
  const what = `${SCHEME_LABEL[scheme]} ${rule.code}: ${rule.meaning}.`;
  if (rule.fixedDelayHours !== undefined) {
    return decision(rule, 'advice_code', {
      allowed: true,
      fixedDelayHours: rule.fixedDelayHours,
      reason: `${what} Retry after exactly ${rule.fixedDelayHours} h: the network fixes the wait.`,
    });
  }
  return decision(rule, 'advice_code', { allowed: rule.retryAllowed, reason: `${what} ${RETRY_GUIDANCE[rule.category]}` });
};

const fromVisaRule = (rule: VisaResponseRule): Decision => {
  const what = `Visa category ${rule.visaCategory} response code ${rule.code}: ${rule.meaning}.`;
  const guidance: Readonly<Record<1 | 2 | 3, string>> = {
    1: 'The issuer will never approve it and Visa permits no reattempt.',
    2: "The issuer cannot approve it at this time; retry within Visa's 20 reattempts per 30 days.",
    3: rule.reattemptPermitted
      ? 'Revalidate the card data with the customer before any retry.'
      : 'Visa permits no reattempt with these credentials; the customer must supply a valid card.',
  };
  return decision(rule, 'network_code', { allowed: rule.visaCategory === 2, reason: `${what} ${guidance[rule.visaCategory]}` });
};

interface ProviderMatch {
  /** Set when exactly one catalogue entry matched. */
  readonly record?: DeclineCodeRecord;
  readonly classified: CategorisedAs;
  readonly label: string;
}

const fromProvider = (match: ProviderMatch): Decision =>
  decision(match.classified, 'provider_code', {
    allowed: RETRY_ALLOWED[match.classified.category],
    reason: `${match.label}. ${RETRY_GUIDANCE[match.classified.category]}`,
  });

const visaGeneric = (networkCode: string): Decision =>
  decision({ category: 'unknown', subcategory: 'generic' }, 'network_code', {
    allowed: true,
    reason: `Visa category 4 (generic) response code ${networkCode.trim()}. ${RETRY_GUIDANCE.unknown}`,
  });

const unmapped = (input: ClassifyDeclineInput): Decision => {
  const what = input.declineCode?.trim() ? `Decline code ${input.declineCode.trim()} is not in the catalogue` : 'No decline code was given';
  return decision({ category: 'unknown', subcategory: 'unmapped' }, 'none', { allowed: true, reason: `${what}. ${RETRY_GUIDANCE.unknown}` });
};

const RETRY_ALLOWED: Readonly<Record<DeclineCategory, boolean>> = {
  soft_retry: true,
  hard_customer: false,
  terminal: false,
  unknown: true,
};

const RETRY_GUIDANCE: Readonly<Record<DeclineCategory, string>> = {
  soft_retry: 'A later retry of the same card may succeed, within the network caps.',
  hard_customer: 'Do not retry the same card details; retry only after the customer or the account updater supplies new ones.',
  terminal: 'Do not retry this payment with this payment method.',
  unknown: 'Retry a limited number of times within the network caps, then treat as hard_customer.',
};

const withoutFullStop = (text: string): string => text.replace(/\.$/, '');

/** Conservative first: when providers disagree on a code, the safest reading wins. */
const CAUTION: Readonly<Record<DeclineCategory, number>> = { terminal: 0, hard_customer: 1, unknown: 2, soft_retry: 3 };

/**
 * The catalogue entry for psp + code (exact, then ignoring case). Without a known psp, the code is
 * looked up across providers: a unique match is used as is; several matches that agree give their
 * common category; several that disagree give the most cautious one.
 */
const lookupProviderCode = (psp: string | undefined, code: string | undefined): ProviderMatch | undefined => {
  const trimmed = code?.trim();
  if (!trimmed) return undefined;
  const pspId = psp?.trim().toLowerCase();
  if (pspId && isPsp(pspId)) {
    const record = findDeclineCode(pspId, trimmed);
    return record && { record, classified: record, label: `${record.psp} decline code ${record.code}: ${withoutFullStop(record.description)}` };
  }
  return consensusOf(findDeclineCodeAcrossProviders(trimmed), trimmed);
};

/**
 * One reading of a code several catalogue entries share: the exact-case entries when the case
 * tells them apart; a unique entry as is; entries that agree by their common category; entries
 * that disagree by the most cautious one.
 */
const consensusOf = (candidates: readonly DeclineCodeRecord[], code: string): ProviderMatch | undefined => {
  const exact = candidates.filter((record) => record.code === code);
  const pool = exact.length > 0 ? exact : candidates;
  const [first] = pool;
  if (first === undefined) return undefined;
  if (pool.length === 1) {
    return { record: first, classified: first, label: `${first.psp} decline code ${first.code}: ${withoutFullStop(first.description)}` };
  }
  const providers = pool.map((record) => record.psp).join(', ');
  const agree = pool.every((record) => record.category === first.category && record.subcategory === first.subcategory);
  if (agree) return { classified: first, label: `Decline code ${code} (same meaning for ${providers})` };
  const cautious = [...pool].sort((a, b) => CAUTION[a.category] - CAUTION[b.category])[0] as DeclineCodeRecord;
  return { classified: cautious, label: `Decline code ${code} (differs across ${providers}; the most cautious reading, ${cautious.psp}'s, applies)` };
};

/**
 * The providers whose decline codes are trusted across providers: their codes are descriptive
 * words of one shared vocabulary (Stripe's `decline_code` values, which Chargebee passes through
 * from the gateways and Recurly, Paddle, Razorpay, Mollie, Square and GoCardless use with the same
 * meaning), so a merchant or gateway that sends `insufficient_funds` with another psp means the
 * same thing. Adyen, Authorize.Net, Braintree, Checkout.com and PayPal use numbers of their own
 * ("4" is a processing error at Adyen and a stolen card at Authorize.Net), which are never borrowed.
 */
export const CROSS_PROVIDER_VOCABULARY: readonly Psp[] = ['stripe', 'chargebee', 'recurly', 'paddle', 'razorpay', 'mollie', 'square', 'gocardless'];

/** A code with at least one letter: a word of the vocabulary, not a provider's number. */
const DESCRIPTIVE_CODE = /[A-Za-z]/;

/**
 * The cross-provider fallback (step 4 of the precedence), for a known psp whose own table lacks
 * the code: the entries of the other CROSS_PROVIDER_VOCABULARY providers for a descriptive code,
 * read as one (consensusOf: agreeing entries by their common category, disagreeing ones by the
 * most cautious). Never sets `matched`, which names the psp's own entry only.
 */
const lookupSharedVocabulary = (psp: string | undefined, code: string | undefined): ProviderMatch | undefined => {
  const trimmed = code?.trim();
  const pspId = psp?.trim().toLowerCase();
  if (!trimmed || !DESCRIPTIVE_CODE.test(trimmed) || !pspId || !isPsp(pspId)) return undefined;
  const shared = findDeclineCodeAcrossProviders(trimmed).filter((record) => record.psp !== pspId && CROSS_PROVIDER_VOCABULARY.includes(record.psp));
  const match = consensusOf(shared, trimmed);
  return match && { classified: match.classified, label: `Decline code ${trimmed} is not one of ${pspId}'s; by the cross-provider fallback: ${match.label}` };
};

/** The hard rules: no allowed retry after Visa category 1 or a do-not-retry advice code. */
const enforceDoNotRetry = (decided: Decision, advice: ResolvedAdvice | undefined, visaRule: VisaResponseRule | undefined): Decision => {
  if (!decided.retry.allowed) return decided;
  if (visaRule?.visaCategory === 1) return fromVisaRule(visaRule);
  if (advice && isDoNotRetryAdvice(advice.rule)) return fromAdvice(advice);
  return decided;
};

const isDoNotRetryAdvice = (rule: AdviceRule): boolean => rule.isRetryAdvice && rule.category === 'terminal' && !rule.retryAllowed;
