/** The 20 currencies the service accepts (spec, Integrations and ingest), lowercase ISO 4217. */
export const CURRENCIES = ['usd', 'eur', 'gbp', 'cad', 'aud', 'jpy', 'chf', 'nzd', 'sek', 'nok', 'dkk', 'pln', 'czk', 'huf', 'ron', 'bgn', 'hrk', 'brl', 'mxn', 'inr'] as const;
export type Currency = (typeof CURRENCIES)[number];

export const isCurrency = (value: string): value is Currency => (CURRENCIES as readonly string[]).includes(value);
