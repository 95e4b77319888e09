import { emptyLedger } from '#core/card-caps';
import { ValidationError } from '#core/errors';
import { type ExperimentRecord, newExperiment, parseVariantSetting, variantFor } from '#core/experiments/experiment';
import { computeResults } from '#core/experiments/results';
import { chiSquareSurvival, sampleRatioMismatch, sampleRatioMismatchOf, wilsonInterval } from '#core/experiments/stats';
import { type PlannedPayment, planNextRetry, retryScoreInputOf } from '#core/retry-policy';
import { scoreRetryByRules } from '#core/scoring/rules';

const NOW = new Date('2026-11-20T12:00:00.000Z');
const experiment = (overrides: Partial<ExperimentRecord> = {}): ExperimentRecord => ({
  ...newExperiment(
    {
      merchantId: 'merch_x',
      name: 'Payday',
      kind: 'retry_timing',
      settings: [{}, { payday_aligned: true }],
      minimumSample: 100,
      source: { type: 'cli', id: null },
    },
    NOW,
  ),
  ...overrides,
});

describe('wilsonInterval', () => {
  it.each([
    [{ n: 100, successes: 50 }, 0.4038, 0.5962],
    [{ n: 10, successes: 0 }, 0, 0.2775],
    [{ n: 20, successes: 20 }, 0.8389, 1],
  ])('gives the published 95%% Wilson interval of %j', (arm, lower, upper) => {
    // Act
    const interval = wilsonInterval(arm);
    // Assess
    expect(interval?.lower).toBeCloseTo(lower, 4);
    expect(interval?.upper).toBeCloseTo(upper, 4);
  });

  it('is null for an empty arm', () => {
    // Assess
    expect(wilsonInterval({ n: 0, successes: 0 })).toBeNull();
  });
});

describe('chiSquareSurvival and sampleRatioMismatchOf', () => {
  it.each([
    [3.841458820694124, 1, 0.05],
    [5.991464547107979, 2, 0.05],
    [7.814727903251178, 3, 0.05],
    [10.827566170662733, 1, 0.001],
    [0, 3, 1],
  ])('gives P(χ² ≥ %d | %d df) = %d, the table value', (x, df, p) => {
    // Assess
    expect(chiSquareSurvival(x, df)).toBeCloseTo(p, 10);
  });

  it('agrees with the two-arm SRM test on two arms, and flags 600 against 400 of an equal split', () => {
    // Act
    const two = sampleRatioMismatchOf([600, 400], [0.5, 0.5]);
    // Assess
    expect(two.p_value).toBeCloseTo(sampleRatioMismatch(600, 400, 0.5).p_value, 12);
    expect(two.detected).toBe(true);
    expect(sampleRatioMismatchOf([340, 330, 330], [1 / 3, 1 / 3, 1 / 3]).detected).toBe(false);
  });
});

describe('newExperiment and parseVariantSetting', () => {
  it('names the control first and keeps the seed fixed', () => {
    // Act
    const created = experiment();
    // Assess
    expect(created.id).toMatch(/^xp_[0-9A-Z]{26}$/);
    expect(created.variants.map((v) => v.key)).toEqual(['control', 'treatment']);
    expect(created.seed).toBe(created.id.slice(3));
    expect(created.status).toBe('running');
  });

  it.each([
    ['retry_timing', { delay_hours: 0 }, 'variants[1].delay_hours'],
    ['retry_timing', { surprise: 1 }, 'variants[1].surprise'],
    ['channel', { channels: ['email', 'pigeon'] }, 'variants[1].channels'],
    ['offer', { offer_type: 'free_money' }, 'variants[1].offer_type'],
    ['offer', { offer_type: 'discount', offer_value: 'a lot' }, 'variants[1].offer_value'],
    ['offer', { offer_type: 'discount', offer_value: '150%' }, 'variants[1].offer_value'],
    ['offer', { offer_type: 'pause', offer_value: '13 months' }, 'variants[1].offer_value'],
  ] as const)('refuses a bad %s setting %j with param %s', (kind, setting, param) => {
    // Act
    const attempt = () => parseVariantSetting(kind, setting, 'variants[1]');
    // Assess
    expect(attempt).toThrow(ValidationError);
    try {
      attempt();
    } catch (error) {
      expect((error as ValidationError).param).toBe(param);
    }
  });

  it('refuses one variant, five variants and a minimum sample below 30', () => {
    // Prepare
    const input = { merchantId: 'm', name: 'x', kind: 'retry_timing' as const, source: { type: 'cli' as const, id: null } };
    // Assess
    expect(() => newExperiment({ ...input, settings: [{}] }, NOW)).toThrow(/2-4 variants/);
    expect(() => newExperiment({ ...input, settings: [{}, {}, {}, {}, {}] }, NOW)).toThrow(/2-4 variants/);
    expect(() => newExperiment({ ...input, settings: [{}, {}], minimumSample: 10 }, NOW)).toThrow(/min_sample/);
  });
});

describe('variantFor', () => {
  it('assigns a customer the same variant on every call, and splits customers about evenly', () => {
    // Prepare
    const running = experiment();
    const customers = Array.from({ length: 2000 }, (_, i) => `cust_${i}`);
    // Act
    const first = customers.map((c) => variantFor(running, c).key);
    const again = customers.map((c) => variantFor(running, c).key);
    // Assess
    expect(again).toEqual(first);
    const treated = first.filter((k) => k === 'treatment').length;
    expect(sampleRatioMismatchOf([2000 - treated, treated], [0.5, 0.5]).detected).toBe(false);
  });

  it('gives everyone the control once stopped, and the winner once promoted', () => {
    // Prepare
    const customers = Array.from({ length: 50 }, (_, i) => `cust_${i}`);
    // Act
    const stopped = customers.map((c) => variantFor(experiment({ status: 'stopped' }), c).key);
    const promoted = customers.map((c) => variantFor(experiment({ status: 'promoted', winner: 'treatment' }), c).key);
    // Assess
    expect(new Set(stopped)).toEqual(new Set(['control']));
    expect(new Set(promoted)).toEqual(new Set(['treatment']));
  });
});

describe('computeResults', () => {
  it('names no winner before every variant has the minimum sample, however large the gap', () => {
    // Act
    const results = computeResults(experiment(), { control: { exposures: 50, conversions: 5 }, treatment: { exposures: 99, conversions: 80 } });
    // Assess
    expect(results).toMatchObject({ winner: null, reason: 'insufficient_sample', minimum_sample_reached: false });
    expect(results.variants[1]?.probability_to_beat_control).toBeGreaterThan(0.999);
  });

  it('names the treatment once sampled, with rates, Wilson intervals, lift and the posterior', () => {
    // Act
    const results = computeResults(experiment(), { control: { exposures: 200, conversions: 40 }, treatment: { exposures: 200, conversions: 70 } });
    // Assess
    expect(results.winner).toBe('treatment');
    expect(results.reason).toBe('significant');
    expect(results.variants[0]).toMatchObject({ key: 'control', rate: 0.2, probability_to_beat_control: null, relative_lift: null });
    expect(results.variants[1]).toMatchObject({ key: 'treatment', rate: 0.35 });
    expect(results.variants[1]?.relative_lift).toBeCloseTo(0.75, 10);
    expect(results.variants[1]?.confidence_interval?.lower).toBeGreaterThan(0.28);
    expect(results.variants[1]?.probability_to_beat_control).toBeGreaterThan(0.99);
  });

  it('refuses a winner under a sample ratio mismatch', () => {
    // Act
    const results = computeResults(experiment(), { control: { exposures: 600, conversions: 60 }, treatment: { exposures: 400, conversions: 200 } });
    // Assess
    expect(results.srm.detected).toBe(true);
    expect(results).toMatchObject({ winner: null, reason: 'srm' });
  });

  it('names the control when the treatment is clearly worse, and nobody on equal rates', () => {
    // Assess
    expect(computeResults(experiment(), { control: { exposures: 300, conversions: 90 }, treatment: { exposures: 300, conversions: 45 } }).winner).toBe(
      'control',
    );
    expect(computeResults(experiment(), { control: { exposures: 300, conversions: 90 }, treatment: { exposures: 300, conversions: 90 } })).toMatchObject({
      winner: null,
      reason: 'not_significant',
    });
  });
});

describe('retry policy with the merchant retry timing', () => {
  const T = new Date('2026-12-07T15:00:00.000Z');
  const balance: PlannedPayment = {
    psp: 'stripe',
    amount: 2500,
    currency: 'usd',
    decline_code: 'insufficient_funds',
    decline_category: 'soft_retry',
    decline_subcategory: 'balance',
    retry_count: 0,
    max_retries: 4,
    card_network: null,
    network_code: null,
    advice_code: null,
    created_at: T.toISOString(),
  };
  const plan = (p: PlannedPayment, retryTiming?: Parameters<typeof planNextRetry>[0]['retryTiming']) =>
    planNextRetry({ payment: p, now: T, quietHours: undefined, ledger: emptyLedger('card'), score: scoreRetryByRules(retryScoreInputOf(p, T)), retryTiming });

  it('retries an insufficient-funds decline only on the payday morning instead of on the ladder before it', () => {
    // Act
    const before = plan(balance);
    const aligned = plan(balance, { payday_aligned: true });
    // Assess: without it, step 1 of the balance ladder (24 h, then the morning); with it, the 15th
    expect(before).toMatchObject({ action: 'schedule', at: new Date('2026-12-09T07:00:00.000Z') });
    expect(aligned).toMatchObject({ action: 'schedule', at: new Date('2026-12-15T07:00:00.000Z') });
    expect(aligned.reason).toContain('next payday (2026-12-15)');
  });

  it('waits delay_hours instead of the scorer, and stops a code the strategy stops', () => {
    // Act
    const delayed = plan({ ...balance, decline_code: 'processing_error', decline_subcategory: 'processing_error' }, { delay_hours: 6 });
    const stopped = plan(balance, { stop_decline_codes: ['insufficient_funds'] });
    // Assess
    expect(delayed).toMatchObject({ action: 'schedule', at: new Date('2026-12-07T21:00:00.000Z') });
    expect(stopped).toEqual({ action: 'stop', reason: "Not retried: the merchant's recovery strategy stops retrying insufficient_funds" });
  });
});
