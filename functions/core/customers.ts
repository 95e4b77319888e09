import { idBody } from './ids';
import { type AmountsByCurrency, addAmount } from './money';

export interface CustomerRecord {
  readonly id: string;
  readonly merchant_id: string;
  /** Lowercased; unique per merchant. */
  readonly email: string;
  readonly name: string | null;
  readonly psp: string | null;
  readonly provider_customer_id: string | null;
  /** Failed payments recorded for the customer (A: total_payments counts what the service saw). */
  readonly total_payments: number;
  readonly failed_payments: number;
  readonly recovered_payments: number;
  /** Recoveries still open (pending, retrying or paused). */
  readonly open_payments: number;
  /**
   * The currency of the customer's most recent payment (null only before its first): the
   * currency of the scalar totals below. Amounts are never summed across currencies (DESIGN §2c).
   */
  readonly currency: string | null;
  /** created_at of the payment that set `currency` (the most recent one seen). */
  readonly currency_at: string | null;
  /** The totals in `currency`: `<field>_by_currency[currency]`, 0 before any payment. */
  readonly total_failed_cents: number;
  readonly total_recovered_cents: number;
  /** Revenue seen from the customer: successful payments and recovered amounts. */
  readonly lifetime_value_cents: number;
  readonly total_failed_by_currency: AmountsByCurrency;
  readonly total_recovered_by_currency: AmountsByCurrency;
  readonly lifetime_value_by_currency: AmountsByCurrency;
  /** The search terms indexed for the customer (searchTermsOf when it was last written); absent on customers written before. */
  readonly search_terms?: readonly string[];
  /**
   * The newest open payments (at most OPEN_PAYMENT_REFS_KEPT, newest first), kept by every write
   * that changes the customer's figures, so that the widget finds what is owed with the customer's
   * GetItem alone. Absent (unknown) on a customer written before it was kept while it still has
   * open payments; empty with `open_payments` > 0 when older open payments fell off the list: a
   * reader then asks the customer's payments.
   */
  readonly open_payment_refs?: readonly OpenPaymentRef[];
  /**
   * The customer's IANA time zone, when the merchant sent it with an event (`customer_timezone`);
   * the newest one given wins. Retries and campaign steps read the customer's local time in it.
   */
  readonly timezone?: string;
  /**
   * The customer's phone number (E.164), when the merchant sent it with an event
   * (`customer_phone`); the newest one given wins. Campaign sms and whatsapp messages go to it.
   */
  readonly phone?: string;
  /**
   * The expiry of the card on file, when a source told us (ingest's `card_exp_month` and
   * `card_exp_year`, a provider's card object): the newest one received wins, a new card without an
   * expiry clears it (null). Absent on customers never told. The daily card-expiry check reads
   * the customers of an expiry month through its due index (data/keys.ts, `cardExpiryKeys`).
   */
  readonly card_expiry?: CardExpiry | null;
  /**
   * Internal: the month (`YYYY-MM`) under which the card-expiry index holds an entry for the
   * customer, as last written (customer-repository putCustomer moves the entry when it differs).
   */
  readonly card_expiry_indexed?: string;
  readonly created_at: string;
  readonly updated_at: string;
  readonly version: number;
}

/** What the widget needs of an open payment, carried on its customer. */
export interface OpenPaymentRef {
  readonly id: string;
  readonly amount: number;
  readonly currency: string;
  readonly created_at: string;
}

/** How many open payments a customer item carries (a customer rarely owes more than a few). */
export const OPEN_PAYMENT_REFS_KEPT = 5;

/**
 * A customer's open-payment list after one of its payments changed: the payment leaves it, and
 * comes back in order of creation while it is open. A list not kept yet stays unknown until the
 * customer has no open payment left (then it is known to be empty).
 */
export function openPaymentRefsAfter(
  customer: Pick<CustomerRecord, 'open_payment_refs' | 'open_payments'>,
  payment: OpenPaymentRef & { readonly open: boolean },
  openPaymentsAfter: number,
): readonly OpenPaymentRef[] | undefined {
  const known = customer.open_payment_refs ?? (customer.open_payments === 0 ? [] : undefined);
  if (known === undefined) return openPaymentsAfter === 0 ? [] : undefined;
  const others = known.filter((ref) => ref.id !== payment.id);
  if (!payment.open) return others;
  const { id, amount, currency, created_at } = payment;
  return [...others, { id, amount, currency, created_at }].sort((a, b) => b.created_at.localeCompare(a.created_at)).slice(0, OPEN_PAYMENT_REFS_KEPT);
}

export const customerIdFor = (body: string): string => `cust_${body}`;
export const customerBodyOf = (id: string): string | undefined => idBody(id, 'cust');

/** Emails are compared and stored lowercased and trimmed. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

/** The money fields of a customer (core of `customerMoneyAfter`). */
export type CustomerMoney = Pick<
  CustomerRecord,
  | 'currency'
  | 'currency_at'
  | 'total_failed_cents'
  | 'total_recovered_cents'
  | 'lifetime_value_cents'
  | 'total_failed_by_currency'
  | 'total_recovered_by_currency'
  | 'lifetime_value_by_currency'
>;

/** A customer written before amounts were kept per currency: its maps are empty (its scalars stay as stored). */
export const withMoneyDefaults = (customer: Omit<CustomerRecord, keyof CustomerMoney> & Partial<CustomerMoney>): CustomerRecord => ({
  ...customer,
  currency: customer.currency ?? null,
  currency_at: customer.currency_at ?? null,
  total_failed_cents: customer.total_failed_cents ?? 0,
  total_recovered_cents: customer.total_recovered_cents ?? 0,
  lifetime_value_cents: customer.lifetime_value_cents ?? 0,
  total_failed_by_currency: customer.total_failed_by_currency ?? {},
  total_recovered_by_currency: customer.total_recovered_by_currency ?? {},
  lifetime_value_by_currency: customer.lifetime_value_by_currency ?? {},
});

/** The money fields before any payment. */
export const NO_MONEY: CustomerMoney = {
  currency: null,
  currency_at: null,
  total_failed_cents: 0,
  total_recovered_cents: 0,
  lifetime_value_cents: 0,
  total_failed_by_currency: {},
  total_recovered_by_currency: {},
  lifetime_value_by_currency: {},
};

/**
 * A customer's money after one of its payments changed: a new payment adds its amount to the
 * failed totals of its currency; a payment becoming recovered adds it to the recovered totals and
 * the lifetime value of its currency. The customer's `currency` follows its most recent payment
 * (by created_at), and the scalar totals are the totals in that currency, never a sum across
 * currencies.
 *
 * @example customerMoneyAfter(customer, { amount: 3000, currency: 'jpy', created_at }, { created: true, recovered: false })
 */
export function customerMoneyAfter(
  customer: CustomerRecord,
  payment: { readonly amount: number; readonly currency: string; readonly created_at: string },
  change: { readonly created: boolean; readonly recovered: boolean },
): CustomerMoney {
  const failed = change.created ? addAmount(customer.total_failed_by_currency, payment.currency, payment.amount) : customer.total_failed_by_currency;
  const recovered = change.recovered ? addAmount(customer.total_recovered_by_currency, payment.currency, payment.amount) : customer.total_recovered_by_currency;
  const lifetime = change.recovered ? addAmount(customer.lifetime_value_by_currency, payment.currency, payment.amount) : customer.lifetime_value_by_currency;
  const newest = customer.currency === null || customer.currency_at === null || payment.created_at >= customer.currency_at;
  const currency = newest || customer.currency === null ? payment.currency : customer.currency;
  return {
    currency,
    currency_at: newest ? payment.created_at : customer.currency_at,
    total_failed_cents: failed[currency] ?? 0,
    total_recovered_cents: recovered[currency] ?? 0,
    lifetime_value_cents: lifetime[currency] ?? 0,
    total_failed_by_currency: failed,
    total_recovered_by_currency: recovered,
    lifetime_value_by_currency: lifetime,
  };
}

/** Most search terms indexed per customer, and the longest (longer ones are cut: a prefix of it still finds it). */
const MAX_SEARCH_TERMS = 24;
const MAX_SEARCH_TERM_LENGTH = 100;

/**
 * Text as customer search compares it: Unicode-normalised (NFKD), accents removed, lowercased and
 * trimmed, so `Müller`, `MÜLLER` and `muller` are the same term.
 *
 * @example foldForSearch('  Gina Müller ') // 'gina muller'
 */
export const foldForSearch = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .trim();

/**
 * The terms under which GET /customers?search= finds a customer by prefix: each word of its name
 * and of its email (split at anything that is not a letter or digit: `frank.ocean@example.com`
 * gives frank, ocean, example, com), and the whole name and email, all folded (foldForSearch).
 * So `Ocean` finds "Frank Ocean", `müller` finds "Gina Müller", `frank oc` the whole name.
 * Deduplicated; at most MAX_SEARCH_TERMS, each at most MAX_SEARCH_TERM_LENGTH characters.
 */
export function searchTermsOf(customer: Pick<CustomerRecord, 'email' | 'name'>): string[] {
  const texts = [customer.name, customer.email].filter((text): text is string => text !== null && text.trim() !== '').map(foldForSearch);
  const words = texts.flatMap((text) => text.split(/[^\p{L}\p{N}]+/u));
  const terms = [...texts, ...words].map((term) => term.slice(0, MAX_SEARCH_TERM_LENGTH)).filter((term) => term !== '' && !term.includes('#'));
  return [...new Set(terms)].slice(0, MAX_SEARCH_TERMS);
}

/** A card's expiry: month 1-12 and the 4-digit year (the card is valid through the month's last day). */
export interface CardExpiry {
  readonly month: number;
  readonly year: number;
}

/** Years a card expiry may name: 4 digits, and no card is issued for longer than a few decades. */
export const CARD_EXPIRY_YEARS = { min: 2000, max: 2199 } as const;

/** Whether month and year make a card expiry (integers, month 1-12, a 4-digit year in CARD_EXPIRY_YEARS). */
export const isCardExpiry = (month: unknown, year: unknown): boolean =>
  Number.isInteger(month) &&
  Number.isInteger(year) &&
  (month as number) >= 1 &&
  (month as number) <= 12 &&
  (year as number) >= CARD_EXPIRY_YEARS.min &&
  (year as number) <= CARD_EXPIRY_YEARS.max;

/**
 * A card expiry from a provider's fields (numbers, or strings of digits as some providers send),
 * or undefined when either is missing or out of range.
 *
 * @example cardExpiryOf('07', 2027) // { month: 7, year: 2027 }
 */
export function cardExpiryOf(month: unknown, year: unknown): CardExpiry | undefined {
  const number = (value: unknown): number | undefined =>
    typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,4}$/.test(value.trim()) ? Number(value.trim()) : undefined;
  const m = number(month);
  const y = number(year);
  return isCardExpiry(m, y) ? { month: m as number, year: y as number } : undefined;
}

/** The month a card expires in, `YYYY-MM` (its due-index bucket). */
export const cardExpiryMonth = (expiry: CardExpiry): string => `${expiry.year}-${String(expiry.month).padStart(2, '0')}`;

/** Whether two expiries (null: none known) are the same. */
export const sameCardExpiry = (a: CardExpiry | null | undefined, b: CardExpiry | null | undefined): boolean =>
  (a ?? null) === null ? (b ?? null) === null : b != null && a?.month === b.month && a?.year === b.year;
