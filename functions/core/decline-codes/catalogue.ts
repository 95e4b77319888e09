import { PSPS, type Psp } from '#core/providers';
import { ADYEN_DECLINE_CODES } from './providers/adyen';
import { AUTHORIZE_NET_DECLINE_CODES } from './providers/authorize-net';
import { BRAINTREE_DECLINE_CODES } from './providers/braintree';
import { CHARGEBEE_DECLINE_CODES } from './providers/chargebee';
import { CHECKOUT_DECLINE_CODES } from './providers/checkout';
import { GOCARDLESS_DECLINE_CODES } from './providers/gocardless';
import { MOLLIE_DECLINE_CODES } from './providers/mollie';
import { PADDLE_DECLINE_CODES } from './providers/paddle';
import { PAYPAL_DECLINE_CODES } from './providers/paypal';
import { RAZORPAY_DECLINE_CODES } from './providers/razorpay';
import { RECURLY_DECLINE_CODES } from './providers/recurly';
import { SQUARE_DECLINE_CODES } from './providers/square';
import { STRIPE_DECLINE_CODES } from './providers/stripe';
import { type DeclineCodeRecord, isSubcategoryOf } from './types';

/** The spec's reference catalogue size: 268 codes across the 13 providers. */
export const DECLINE_CATALOGUE_SIZE = 268;

const BY_PROVIDER: Readonly<Record<Psp, () => readonly DeclineCodeRecord[]>> = {
  stripe: STRIPE_DECLINE_CODES,
  braintree: BRAINTREE_DECLINE_CODES,
  adyen: ADYEN_DECLINE_CODES,
  paypal: PAYPAL_DECLINE_CODES,
  checkout: CHECKOUT_DECLINE_CODES,
  square: SQUARE_DECLINE_CODES,
  authorize_net: AUTHORIZE_NET_DECLINE_CODES,
  chargebee: CHARGEBEE_DECLINE_CODES,
  recurly: RECURLY_DECLINE_CODES,
  paddle: PADDLE_DECLINE_CODES,
  razorpay: RAZORPAY_DECLINE_CODES,
  mollie: MOLLIE_DECLINE_CODES,
  gocardless: GOCARDLESS_DECLINE_CODES,
};

// Built on first use, not at load: creating a collator loads ICU data, which every function that
// imports the catalogue would otherwise pay at cold start whether it sorts codes or not.
let codeCollator: Intl.Collator | undefined;

/**
 * The catalogue's one order (psp, then code), for lists and cursors alike: psp ids and codes
 * compare with a numeric-aware collation, so Adyen's "2" comes before "10".
 */
export const compareDeclineCodes = (a: Pick<DeclineCodeRecord, 'psp' | 'code'>, b: Pick<DeclineCodeRecord, 'psp' | 'code'>): number => {
  codeCollator ??= new Intl.Collator('en', { numeric: true, sensitivity: 'variant' });
  return codeCollator.compare(a.psp, b.psp) || codeCollator.compare(a.code, b.code);
};

/** Problems that make the catalogue unusable; an empty list when it is sound. */
export const catalogueProblems = (records: readonly DeclineCodeRecord[]): string[] => {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const record of records) {
    const key = `${record.psp}/${record.code}`;
    if (seen.has(key)) problems.push(`${key}: duplicate (psp, code)`);
    seen.add(key);
    if (!(PSPS as readonly string[]).includes(record.psp)) problems.push(`${key}: unknown psp`);
    if (record.code.trim() === '' || record.code !== record.code.trim()) problems.push(`${key}: blank or padded code`);
    if (!isSubcategoryOf(record.category, record.subcategory)) problems.push(`${key}: ${record.subcategory} is not a ${record.category} subcategory`);
    if (!(record.recovery_rate >= 0 && record.recovery_rate <= 1)) problems.push(`${key}: recovery_rate ${record.recovery_rate} outside 0-1`);
    if (record.description.trim() === '') problems.push(`${key}: empty description`);
    if (record.recommended_action.trim() === '') problems.push(`${key}: empty recommended_action`);
  }
  return problems;
};

interface Catalogue {
  readonly records: readonly DeclineCodeRecord[];
  readonly byKey: ReadonlyMap<string, DeclineCodeRecord>;
  readonly byFoldedCode: ReadonlyMap<string, readonly DeclineCodeRecord[]>;
}

const keyOf = (psp: string, code: string): string => `${psp}\u0000${code}`;

/**
 * The catalogue assembled, checked and indexed, once, on first use: a function that loads the
 * catalogue but serves a request that needs no decline code (most payments routes) does not pay
 * for it at cold start. Like the route table, it is checked when it is built: a bad entry fails
 * every test that touches it (test/unit/functions/core/decline-codes/catalogue.test.ts first).
 */
let built: Catalogue | undefined;
function catalogue(): Catalogue {
  if (built !== undefined) return built;
  const records = PSPS.flatMap((psp) => BY_PROVIDER[psp]()).sort(compareDeclineCodes);
  const problems = catalogueProblems(records);
  if (problems.length > 0) throw new Error(`Invalid decline-code catalogue:\n${problems.join('\n')}`);
  const byFoldedCode = new Map<string, DeclineCodeRecord[]>();
  for (const record of records) {
    const folded = record.code.toLowerCase();
    byFoldedCode.set(folded, [...(byFoldedCode.get(folded) ?? []), record]);
  }
  built = { records: Object.freeze(records), byKey: new Map(records.map((record) => [keyOf(record.psp, record.code), record])), byFoldedCode };
  return built;
}

/** Every catalogue entry, in (psp, code) order. */
export const declineCodeCatalogue = (): readonly DeclineCodeRecord[] => catalogue().records;

/** The entry for exactly this psp and code, else the one whose code matches ignoring case. */
export const findDeclineCode = (psp: string, code: string): DeclineCodeRecord | undefined => {
  const trimmed = code.trim();
  const { byKey, byFoldedCode } = catalogue();
  return byKey.get(keyOf(psp, trimmed)) ?? (byFoldedCode.get(trimmed.toLowerCase()) ?? []).find((record) => record.psp === psp);
};

/** Every provider's entry for a code, ignoring case, in (psp, code) order. */
export const findDeclineCodeAcrossProviders = (code: string): readonly DeclineCodeRecord[] => catalogue().byFoldedCode.get(code.trim().toLowerCase()) ?? [];

export const declineCodesOf = (psp: Psp): readonly DeclineCodeRecord[] => declineCodeCatalogue().filter((record) => record.psp === psp);
