/** The 20 currencies the service accepts (spec, Integrations and ingest), lowercase ISO 4217. */
export const CURRENCIES = [
  'usd',
  'eur',
  'gbp',
  'cad',
  'aud',
  'jpy',
  'chf',
  'nzd',
  'sek',
  'nok',
  'dkk',
  'pln',
  'czk',
  'huf',
  'ron',
  'bgn',
  'hrk',
  'brl',
  'mxn',
  'inr',
] as const;
export type Currency = (typeof CURRENCIES)[number];

export const isCurrency = (value: string): value is Currency => (CURRENCIES as readonly string[]).includes(value);

/**
 * An integer amount in the smallest unit, for people to read (emails): `formatMoney(4999, 'usd')`
 * is `$49.99`, `formatMoney(5000, 'jpy')` is `¥5,000`. Digits follow `exponentOf` (ISO 4217):
 * huf keeps its two, as amounts arrive in fillér the way providers such as Stripe charge it.
 *
 * @example formatMoney(1250, 'eur') // '€12.50'
 */
export function formatMoney(amount: number, currency: string): string {
  const digits = exponentOf(currency);
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: currency.toUpperCase(),
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(amount / 10 ** digits);
}

/** Digits after the decimal point (ISO 4217) for the accepted currencies; 2 unless listed. */
const EXPONENTS: Readonly<Partial<Record<string, number>>> = { jpy: 0 };

export const exponentOf = (currency: string): number => EXPONENTS[currency.toLowerCase()] ?? 2;

/**
 * A major-unit amount as providers send it ("49.99", 49.99, "1000" for JPY) in minor units,
 * computed from its decimal text so no binary rounding creeps in. Throws on anything that is not
 * a plain non-negative decimal with at most the currency's digits.
 */
export function toMinorUnits(major: string | number, currency: string): number {
  const text = typeof major === 'number' ? major.toFixed(exponentOf(currency)) : major.trim();
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (match === null) throw new RangeError(`Not an amount: ${String(major)}`);
  const digits = exponentOf(currency);
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > digits) throw new RangeError(`${String(major)} has more than ${digits} decimals for ${currency}`);
  return Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
}

/** Amounts in the smallest unit by lowercase currency (`{ usd: 5800, jpy: 3000 }`): a total over several currencies. */
export type AmountsByCurrency = Readonly<Record<string, number>>;

/** The map with `amount` added to its currency's total. */
export const addAmount = (amounts: AmountsByCurrency, currency: string, amount: number): AmountsByCurrency => ({
  ...amounts,
  [currency]: (amounts[currency] ?? 0) + amount,
});

/** Each currency's total of some amounts. */
export const sumByCurrency = (items: readonly { readonly amount: number; readonly currency: string }[]): AmountsByCurrency =>
  items.reduce<AmountsByCurrency>((sum, item) => addAmount(sum, item.currency, item.amount), {});
