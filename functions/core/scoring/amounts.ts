import { exponentOf } from '#core/money';

/**
 * Rough units of each accepted currency per US dollar, to an order of magnitude only: the
 * scorers bucket amounts ("a large charge") and need ¥5,000 and $5,000 not to look alike. They
 * are not exchange rates and nothing is priced with them; a currency not listed counts as 1.
 */
const UNITS_PER_USD: Readonly<Record<string, number>> = {
  usd: 1,
  eur: 0.9,
  gbp: 0.8,
  chf: 0.9,
  cad: 1.4,
  aud: 1.5,
  nzd: 1.7,
  sek: 10,
  nok: 10,
  dkk: 7,
  pln: 4,
  czk: 23,
  huf: 360,
  ron: 4.6,
  bgn: 1.8,
  hrk: 7,
  brl: 5.5,
  mxn: 18,
  inr: 85,
  jpy: 150,
};

/**
 * An amount in the smallest unit as an approximate number of US dollars.
 *
 * @example approximateUsd(750_000, 'jpy') // 5000
 */
export function approximateUsd(amountMinor: number, currency: string): number {
  const lower = currency.toLowerCase();
  return amountMinor / 10 ** exponentOf(lower) / (UNITS_PER_USD[lower] ?? 1);
}
