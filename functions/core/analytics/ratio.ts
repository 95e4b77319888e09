/**
 * A rate with what it is made of, so a merchant can check it and re-aggregate it: `rate` is
 * `numerator / denominator` rounded to 4 decimals, 0 when the denominator is 0 (nothing to rate).
 */
export interface Ratio {
  readonly rate: number;
  readonly numerator: number;
  readonly denominator: number;
}

export function ratio(numerator: number, denominator: number): Ratio {
  return { rate: denominator === 0 ? 0 : Math.round((numerator / denominator) * 10_000) / 10_000, numerator, denominator };
}
