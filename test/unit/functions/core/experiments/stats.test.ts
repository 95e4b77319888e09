import {
  detectableRate,
  differenceInterval,
  erfc,
  logGamma,
  normalQuantile,
  probabilityBBeatsA,
  sampleRatioMismatch,
  sampleSizePerArm,
  twoProportionZTest,
} from '#core/experiments/stats';

// Expected values computed with SciPy 1.17 (scipy.stats.norm, scipy.special) and, for P(B beats A),
// the same closed form summed in 30-digit arithmetic with mpmath.
describe('erfc', () => {
  it.each([
    [0.5, 0.4795001221869535],
    [1, 0.15729920705028516],
    [2, 0.004677734981047266],
    [3, 2.2090496998585445e-5],
    [4, 1.541725790028002e-8],
    [6, 2.1519736712498913e-17],
  ])('gives erfc(%d) to 12 significant digits', (x, expected) => {
    // Act
    const value = erfc(x);
    // Assess
    expect(Math.abs(value - expected) / expected).toBeLessThan(1e-12);
  });

  it('is 2 - erfc(-x) for negative x', () => {
    // Act and assess
    expect(erfc(-1)).toBeCloseTo(2 - 0.15729920705028516, 14);
  });
});

describe('normalQuantile', () => {
  it.each([
    [0.975, 1.959963984540054],
    [0.8, 0.8416212335729143],
    [0.5, 0],
    [0.001, -3.090232306167813],
  ])('gives the %d quantile', (p, expected) => {
    // Act and assess
    expect(normalQuantile(p)).toBeCloseTo(expected, 12);
  });
});

describe('logGamma', () => {
  it.each([
    [0.5, 0.5723649429247],
    [1, 0],
    [3, Math.LN2],
    [10, 12.801827480081469],
    [100.5, 361.43554046777757],
  ])('gives ln Γ(%d)', (x, expected) => {
    // Act and assess
    expect(logGamma(x)).toBeCloseTo(expected, 11);
  });
});

describe('twoProportionZTest and differenceInterval', () => {
  it.each([
    [1000, 100, 1000, 130, 2.102740605622114, 0.03548845046647471, 0.0020679344393763656, 0.057932065560623636],
    [100, 10, 100, 25, 2.7914526311954124, 0.00524720373911564, 0.04675249045412186, 0.25324750954587816],
    [50, 5, 60, 9, 0.7834789631600106, 0.4333459024514139, -0.07279139168209, 0.17279139168208998],
    [5000, 600, 5000, 700, 2.9735051672502655, 0.002944194493609887, 0.006822976865187874, 0.03317702313481216],
  ])('gives A %d/%d vs B %d/%d: z, two-sided p and the 95% interval', (nA, sA, nB, sB, z, p, lower, upper) => {
    // Act
    const test = twoProportionZTest({ n: nA, successes: sA }, { n: nB, successes: sB });
    const interval = differenceInterval({ n: nA, successes: sA }, { n: nB, successes: sB });
    // Assess
    expect(test.z).toBeCloseTo(z, 12);
    expect(test.p_value).toBeCloseTo(p, 12);
    expect(interval).toEqual({ level: 0.95, lower: expect.closeTo(lower, 12), upper: expect.closeTo(upper, 12) });
  });

  it('answers z 0 and p 1 for identical arms, and nulls when an arm is empty', () => {
    // Act and assess
    expect(twoProportionZTest({ n: 200, successes: 40 }, { n: 200, successes: 40 })).toEqual({ z: 0, p_value: 1 });
    expect(twoProportionZTest({ n: 10, successes: 0 }, { n: 10, successes: 0 })).toEqual({ z: 0, p_value: 1 });
    expect(twoProportionZTest({ n: 0, successes: 0 }, { n: 10, successes: 3 })).toEqual({ z: null, p_value: null });
    expect(differenceInterval({ n: 0, successes: 0 }, { n: 10, successes: 3 })).toBeNull();
  });
});

describe('probabilityBBeatsA', () => {
  it.each([
    [1000, 100, 1000, 130, 0.9821650661163506],
    [100, 10, 100, 25, 0.9973512208882689],
    [50, 5, 60, 9, 0.7692665344650376],
    [5000, 600, 5000, 700, 0.9985284712096808],
    [1, 0, 1, 1, 5 / 6],
  ])('gives A %d/%d vs B %d/%d the exact posterior probability', (nA, sA, nB, sB, expected) => {
    // Act
    const probability = probabilityBBeatsA({ n: nA, successes: sA }, { n: nB, successes: sB });
    // Assess
    expect(probability).toBeCloseTo(expected, 10);
  });

  it.each([
    [0, 0],
    [200, 40],
    [5000, 2500],
  ])('gives 0.5 for symmetric arms of %d with %d successes each', (n, successes) => {
    // Act and assess
    expect(probabilityBBeatsA({ n, successes }, { n, successes })).toBeCloseTo(0.5, 10);
  });

  it('is complementary when the arms are swapped', () => {
    // Prepare
    const a = { n: 300, successes: 45 };
    const b = { n: 280, successes: 61 };
    // Act and assess
    expect(probabilityBBeatsA(a, b) + probabilityBBeatsA(b, a)).toBeCloseTo(1, 12);
  });

  it('stays finite and in [0, 1] for large counts', () => {
    // Act
    const probability = probabilityBBeatsA({ n: 200_000, successes: 40_000 }, { n: 200_000, successes: 40_600 });
    // Assess
    expect(probability).toBeGreaterThan(0.99);
    expect(probability).toBeLessThanOrEqual(1);
  });
});

describe('sampleRatioMismatch', () => {
  it.each([
    [500, 500, 0.5, 0, 1, false],
    [540, 460, 0.5, 6.4, 0.01141203638600166, false],
    [600, 400, 0.5, 40, 2.5396285894708634e-10, true],
    [300, 700, 0.3, 0, 1, false],
    [1000, 1200, 0.5, 18.181818181818183, 2.007865612426481e-5, true],
  ])('tests %d vs %d against a split of %d: χ², p and whether p < 0.001', (a, b, split, chiSquare, p, detected) => {
    // Act
    const srm = sampleRatioMismatch(a, b, split);
    // Assess
    expect(srm.chi_square).toBeCloseTo(chiSquare, 10);
    expect(Math.abs(srm.p_value - p) / p).toBeLessThan(1e-9);
    expect(srm.detected).toBe(detected);
  });

  it('reports nothing before any assignment', () => {
    // Act and assess
    expect(sampleRatioMismatch(0, 0, 0.5)).toEqual({ chi_square: 0, p_value: 1, detected: false });
  });
});

describe('sampleSizePerArm and detectableRate', () => {
  it.each([
    [0.4, 0.5, 387],
    [0.4, 0.45, 1533],
    [0.2, 0.25, 1094],
    [0.1, 0.13, 1774],
  ])("gives %d → %d the anchors' %d per arm (α 0.05, power 0.8)", (p1, p2, expected) => {
    // Act and assess
    expect(Math.round(sampleSizePerArm(p1, p2))).toBe(expected);
  });

  it('finds that 100 per arm detects 40% → 59.7% (about a 20-point lift) at 80% power', () => {
    // Act and assess
    expect(detectableRate(0.4, 100)).toBeCloseTo(0.5969356048491458, 6);
    expect(detectableRate(0.1, 100)).toBeCloseTo(0.2495896445154798, 6);
  });

  it('answers null when even a rate of 1 cannot be detected', () => {
    // Act and assess
    expect(detectableRate(0.9, 3)).toBeNull();
  });
});
