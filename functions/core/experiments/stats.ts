/**
 * The statistics of a two-arm conversion test, pure and dependency-free (DESIGN §2c
 * "Experiments"): a pooled two-proportion z-test with a two-sided p-value and an unpooled 95%
 * interval of the difference, the Beta-Binomial posterior probability that B beats A (Beta(1, 1)
 * prior, exact for integer counts), a sample-ratio-mismatch χ² test against the configured split,
 * and the sample size a z-test needs. Every function takes counts (n, successes) and returns plain
 * numbers; `null` where a quantity is undefined (an empty arm).
 */

/** The counts of one arm: `n` units exposed, `successes` of them converted. */
export interface ArmCounts {
  readonly n: number;
  readonly successes: number;
}

/** z of the 97.5th percentile of the standard normal (two-sided 95%). */
export const Z_975 = 1.959963984540054;

const SQRT_PI = Math.sqrt(Math.PI);

/**
 * The complementary error function, to a relative 1e-13: the Maclaurin series of erf below 2
 * (its terms stay below e^4, so the cancellation costs under 2 digits) and the continued
 * fraction of erfc above (Lentz's method), where the series would cancel badly.
 */
export function erfc(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  if (x < 0) return 2 - erfc(-x);
  if (x < 2) {
    let term = x;
    let sum = x;
    for (let n = 1; n < 200; n += 1) {
      term *= (-x * x) / n;
      const next = term / (2 * n + 1);
      sum += next;
      if (Math.abs(next) < 1e-17 * Math.abs(sum)) break;
    }
    return 1 - (2 / SQRT_PI) * sum;
  }
  // erfc(x) = exp(-x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + …))))), by Lentz's method.
  const tiny = 1e-300;
  let f = x;
  let c = x;
  let d = 0;
  for (let k = 1; k < 500; k += 1) {
    const a = k / 2;
    d = x + a * d;
    d = Math.abs(d) < tiny ? 1 / tiny : 1 / d;
    c = x + a / c;
    if (Math.abs(c) < tiny) c = tiny;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.exp(-x * x) / (SQRT_PI * f);
}

/** P(Z ≤ z) for the standard normal. */
export const normalCdf = (z: number): number => 0.5 * erfc(-z / Math.SQRT2);

/** The two-sided p-value of a standard normal statistic: P(|Z| ≥ |z|). */
export const twoSidedP = (z: number): number => erfc(Math.abs(z) / Math.SQRT2);

/**
 * The standard normal quantile: Acklam's rational approximation (relative error 1.15e-9)
 * polished by one Halley step on normalCdf, so it is exact to machine precision.
 */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalQuantile needs 0 < p < 1, got ${p}`);
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239] as const;
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572] as const;
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783] as const;
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416] as const;
  const low = 0.02425;
  let x: number;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p <= 1 - low) {
    const q = p - 0.5;
    const r = q * q;
    x = ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  } else {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  const e = normalCdf(x) - p;
  const u = e * Math.sqrt(2 * Math.PI) * Math.exp((x * x) / 2);
  return x - u / (1 + (x * u) / 2);
}

const LANCZOS = [
  0.9999999999998099, 676.5203681218851, -1259.1392167224028, 771.3234287776531, -176.6150291621406, 12.507343278686905, -0.13857109526572012,
  9.984369578019572e-6, 1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9; relative error about 1e-15). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let sum = LANCZOS[0] as number;
  for (let i = 1; i < LANCZOS.length; i += 1) sum += (LANCZOS[i] as number) / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** ln B(a, b) = ln Γ(a) + ln Γ(b) − ln Γ(a + b). */
export const logBeta = (a: number, b: number): number => logGamma(a) + logGamma(b) - logGamma(a + b);

/**
 * P(X_B > X_A) for X_A ~ Beta(αA, βA), X_B ~ Beta(αB, βB) with integer αB: Evan Miller's closed
 * form ("Formulas for Bayesian A/B Testing"),
 *   Σ_{i=0}^{αB−1} B(αA+i, βA+βB) / ((βB+i) · B(1+i, βB) · B(αA, βA)),
 * each term computed as the exponential of its logarithm so that large counts neither overflow
 * nor underflow. The sum has αB terms.
 */
function probabilityBetaExceeds(alphaA: number, betaA: number, alphaB: number, betaB: number): number {
  const base = logBeta(alphaA, betaA);
  let total = 0;
  for (let i = 0; i < alphaB; i += 1) {
    total += Math.exp(logBeta(alphaA + i, betaA + betaB) - Math.log(betaB + i) - logBeta(1 + i, betaB) - base);
  }
  return total;
}

/** The prior of both arms' rates: Beta(1, 1), uniform on [0, 1]. */
export const BETA_PRIOR = { alpha: 1, beta: 1 } as const;

/**
 * The posterior probability that B's rate exceeds A's, each arm's rate Beta(1 + successes,
 * 1 + failures) (Beta(1, 1) prior, binomial likelihood). Exact: the closed form is summed over the
 * arm with fewer successes (P(B > A) = 1 − P(A > B), ties having probability 0), so it costs
 * min(successes) + 1 terms. Symmetric arms give 0.5.
 */
export function probabilityBBeatsA(a: ArmCounts, b: ArmCounts): number {
  const alphaA = BETA_PRIOR.alpha + a.successes;
  const betaA = BETA_PRIOR.beta + a.n - a.successes;
  const alphaB = BETA_PRIOR.alpha + b.successes;
  const betaB = BETA_PRIOR.beta + b.n - b.successes;
  const p = alphaB <= alphaA ? probabilityBetaExceeds(alphaA, betaA, alphaB, betaB) : 1 - probabilityBetaExceeds(alphaB, betaB, alphaA, betaA);
  return Math.min(1, Math.max(0, p));
}

export interface ZTestResult {
  /** (rate B − rate A) / pooled standard error; null when an arm is empty, 0 when both rates are 0 or 1. */
  readonly z: number | null;
  /** Two-sided; null when an arm is empty. */
  readonly p_value: number | null;
}

export const rateOf = (arm: ArmCounts): number | null => (arm.n === 0 ? null : arm.successes / arm.n);

/** The two-proportion z-test with the pooled variance under H0 (rate A = rate B), two-sided. */
export function twoProportionZTest(a: ArmCounts, b: ArmCounts): ZTestResult {
  if (a.n === 0 || b.n === 0) return { z: null, p_value: null };
  const pooled = (a.successes + b.successes) / (a.n + b.n);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / a.n + 1 / b.n));
  if (se === 0) return { z: 0, p_value: 1 };
  const z = (b.successes / b.n - a.successes / a.n) / se;
  return { z, p_value: twoSidedP(z) };
}

export interface DifferenceInterval {
  readonly level: number;
  readonly lower: number;
  readonly upper: number;
}

/** The Wald interval of rate B − rate A with the unpooled variance, at `level` (default 95%); null when an arm is empty. */
export function differenceInterval(a: ArmCounts, b: ArmCounts, level = 0.95): DifferenceInterval | null {
  if (a.n === 0 || b.n === 0) return null;
  const pA = a.successes / a.n;
  const pB = b.successes / b.n;
  const z = level === 0.95 ? Z_975 : normalQuantile(1 - (1 - level) / 2);
  const half = z * Math.sqrt((pA * (1 - pA)) / a.n + (pB * (1 - pB)) / b.n);
  return { level, lower: pB - pA - half, upper: pB - pA + half };
}

export interface SrmResult {
  readonly chi_square: number;
  readonly p_value: number;
  /** p < alpha (GrowthBook's 0.001). */
  readonly detected: boolean;
}

/** GrowthBook's SRM threshold. */
export const SRM_ALPHA = 0.001;

/**
 * Sample ratio mismatch: Pearson's χ² goodness of fit of the arms' sizes to the expected share of
 * A (`split`), one degree of freedom, so p = erfc(√(χ²/2)). No units yet: χ² 0, p 1.
 */
export function sampleRatioMismatch(nA: number, nB: number, split: number, alpha = SRM_ALPHA): SrmResult {
  const total = nA + nB;
  if (total === 0) return { chi_square: 0, p_value: 1, detected: false };
  const expectedA = total * split;
  const expectedB = total * (1 - split);
  const chiSquare = (nA - expectedA) ** 2 / expectedA + (nB - expectedB) ** 2 / expectedB;
  const pValue = erfc(Math.sqrt(chiSquare / 2));
  return { chi_square: chiSquare, p_value: pValue, detected: pValue < alpha };
}

/**
 * Units per arm a two-sided two-proportion z-test needs to tell `p1` from `p2` (equal arms):
 *   n = (z_{1−α/2} · √(2·p̄·q̄) + z_{power} · √(p1·q1 + p2·q2))² / (p1 − p2)²,
 * unrounded (round up for a plan). 40% → 50% at α 0.05 and power 0.8 gives 387.3, the figure of
 * the anchors' table.
 */
export function sampleSizePerArm(p1: number, p2: number, alpha = 0.05, power = 0.8): number {
  if (p1 === p2) return Number.POSITIVE_INFINITY;
  const mean = (p1 + p2) / 2;
  const zAlpha = normalQuantile(1 - alpha / 2);
  const zPower = normalQuantile(power);
  const root = zAlpha * Math.sqrt(2 * mean * (1 - mean)) + zPower * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2));
  return root ** 2 / (p1 - p2) ** 2;
}

/**
 * The smallest rate above `baseline` that `n` units per arm detect with the given power: the
 * inverse of sampleSizePerArm in p2, by bisection. Null when even a rate of 1 is out of reach.
 */
export function detectableRate(baseline: number, n: number, alpha = 0.05, power = 0.8): number | null {
  if (sampleSizePerArm(baseline, 1, alpha, power) > n) return null;
  let low = baseline;
  let high = 1;
  for (let i = 0; i < 60; i += 1) {
    const mid = (low + high) / 2;
    if (sampleSizePerArm(baseline, mid, alpha, power) > n) low = mid;
    else high = mid;
  }
  return high;
}

/**
 * The Wilson score interval of one arm's rate at `level` (default 95%): better than Wald at small
 * n and rates near 0 or 1, never outside [0, 1]. Null for an empty arm.
 */
export function wilsonInterval(arm: ArmCounts, level = 0.95): DifferenceInterval | null {
  if (arm.n === 0) return null;
  const z = level === 0.95 ? Z_975 : normalQuantile(1 - (1 - level) / 2);
  const p = arm.successes / arm.n;
  const z2n = (z * z) / arm.n;
  const centre = (p + z2n / 2) / (1 + z2n);
  const half = (z / (1 + z2n)) * Math.sqrt((p * (1 - p)) / arm.n + z2n / (4 * arm.n));
  return { level, lower: Math.max(0, centre - half), upper: Math.min(1, centre + half) };
}

/**
 * Q(a, x), the regularised upper incomplete gamma function: its series below a + 1, Lentz's
 * continued fraction above (Numerical Recipes §6.2), to about 1e-14.
 */
export function regularizedGammaQ(a: number, x: number): number {
  if (x <= 0) return 1;
  const logPrefix = -x + a * Math.log(x) - logGamma(a);
  if (x < a + 1) {
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n < 1000; n += 1) {
      term *= x / (a + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * 1e-15) break;
    }
    return Math.max(0, 1 - sum * Math.exp(logPrefix));
  }
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 1000; i += 1) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-15) break;
  }
  return Math.exp(logPrefix) * h;
}

/** P(χ²_df ≥ x): the p-value of a chi-square statistic with `df` degrees of freedom. */
export const chiSquareSurvival = (x: number, df: number): number => regularizedGammaQ(df / 2, x / 2);

/**
 * Sample ratio mismatch over any number of arms: Pearson's χ² of the arms' sizes against their
 * expected shares (`weights`, summing to 1), k − 1 degrees of freedom. Two arms give the same
 * answer as sampleRatioMismatch.
 */
export function sampleRatioMismatchOf(sizes: readonly number[], weights: readonly number[], alpha = SRM_ALPHA): SrmResult {
  const total = sizes.reduce((sum, n) => sum + n, 0);
  if (total === 0 || sizes.length < 2) return { chi_square: 0, p_value: 1, detected: false };
  let chiSquare = 0;
  sizes.forEach((n, i) => {
    const expected = total * (weights[i] ?? 0);
    if (expected > 0) chiSquare += (n - expected) ** 2 / expected;
  });
  const pValue = chiSquareSurvival(chiSquare, sizes.length - 1);
  return { chi_square: chiSquare, p_value: pValue, detected: pValue < alpha };
}
