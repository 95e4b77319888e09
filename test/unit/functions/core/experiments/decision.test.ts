import { counts, testWith } from '#test/fixtures/ab-test-records';
import { computeStatistics, methodOf } from '#core/experiments/decision';

describe('computeStatistics (the decision rule)', () => {
  it('names no winner before each arm has the minimum sample, however large the difference', () => {
    // Act
    const statistics = computeStatistics(testWith(counts(99, 5), counts(99, 60)));
    // Assess
    expect(statistics).toMatchObject({ sample_reached: false, winner_arm: null, reason: 'insufficient_sample' });
  });

  it('names B when p < 0.05 and P(B beats A) >= 0.95 with the sample reached and no SRM', () => {
    // Act
    const statistics = computeStatistics(testWith(counts(1000, 100), counts(1000, 130)));
    // Assess
    expect(statistics).toMatchObject({ winner_arm: 'B', reason: 'significant', sample_reached: true, difference: expect.closeTo(0.03, 12) });
    expect(statistics.z_test.p_value).toBeCloseTo(0.03548845046647471, 12);
    expect(statistics.probability_b_beats_a).toBeCloseTo(0.9821650661163506, 10);
    expect(statistics.srm).toMatchObject({ detected: false, expected_split: 0.5, observed_split: 0.5 });
  });

  it('names A when A is the clear winner', () => {
    // Act
    const statistics = computeStatistics(testWith(counts(500, 150), counts(500, 90)));
    // Assess
    expect(statistics).toMatchObject({ winner_arm: 'A', reason: 'significant' });
    expect(statistics.probability_a_beats_b).toBeGreaterThan(0.95);
  });

  it('names no winner when the difference is not significant', () => {
    // Act
    const statistics = computeStatistics(testWith(counts(300, 60), counts(300, 66)));
    // Assess
    expect(statistics).toMatchObject({ winner_arm: null, reason: 'not_significant' });
  });

  it('names no winner on a sample ratio mismatch, even with a significant difference', () => {
    // Act
    const statistics = computeStatistics(testWith(counts(600, 60), counts(400, 80)));
    // Assess
    expect(statistics).toMatchObject({ winner_arm: null, reason: 'srm', srm: { detected: true, observed_split: 0.6 } });
    expect(statistics.z_test.p_value).toBeLessThan(0.05);
  });

  it('tests the split the test was configured with, not 50/50', () => {
    // Act
    const statistics = computeStatistics(testWith(counts(300, 60), counts(700, 210), { traffic_split: 0.3 }));
    // Assess
    expect(statistics.srm.detected).toBe(false);
    expect(statistics.srm.chi_square).toBe(0);
  });

  it('compares clicked over sent when the metric is click', () => {
    // Act
    const statistics = computeStatistics(testWith(counts(400, 0, 300, 30), counts(400, 0, 300, 60), { metric: 'click' }));
    // Assess
    expect(statistics.arms).toEqual({ A: { n: 300, successes: 30, rate: 0.1 }, B: { n: 300, successes: 60, rate: 0.2 } });
    expect(statistics.winner_arm).toBe('B');
  });
});

describe('methodOf', () => {
  it('states the tests, alpha, prior, minimum sample and what it detects at 80% power', () => {
    // Prepare
    const test = testWith(counts(0, 0), counts(0, 0));
    // Act
    const method = methodOf(test, computeStatistics(test));
    // Assess
    expect(method).toMatchObject({
      metric: 'recovery',
      alpha: 0.05,
      prior: 'Beta(1, 1) on each arm',
      probability_threshold: 0.95,
      srm_alpha: 0.001,
      minimum_sample_per_arm: 100,
      power_at_minimum_sample: { baseline_rate: 0.4, detectable_rate: expect.closeTo(0.597, 3), power: 0.8 },
    });
    expect(method.frequentist_test).toContain('z-test');
    expect(method.bayesian_test).toContain('Beta-Binomial');
  });
});
