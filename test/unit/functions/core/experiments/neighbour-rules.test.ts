import type { RollupItem } from '#core/analytics/rollup-item';
import {
  NEIGHBOUR_MIN_ENDED_FOR_STOP,
  NEIGHBOUR_MIN_PAYDAY_SAMPLE,
  neighbourVerdict,
  resolveSuggestions,
  STOP_CONTRADICTION_RATE,
} from '#core/experiments/neighbour-rules';
import { MAX_THIN_CODE_CANDIDATES, MIN_PAYDAY_GAP, type SuggestionCandidate, suggestionCandidates, suggestionIdOf } from '#core/experiments/suggestions';
import type { RecoveryStrategy, VectorOutcome } from '#core/vectors/features';
import type { VectorMatch } from '#core/vectors/store';

const day = (bucket: string, decline_code: string, counters: Record<string, number>): RollupItem => ({
  bucket,
  dims: { psp: 'stripe', decline_category: 'soft_retry', decline_code, currency: 'usd' },
  counters,
});
let seq = 0;
const neighbour = (decline_code: string, outcome: VectorOutcome, strategy: RecoveryStrategy = 'retry', failed_at: string | null = null): VectorMatch => {
  seq += 1;
  return { id: `pe_${seq}`, score: 0.9, metadata: { decline_code, outcome, strategy, customer_id: null, failed_at } };
};
const many = (count: number, make: () => VectorMatch): VectorMatch[] => Array.from({ length: count }, make);
/** `recovered` of `ended` insufficient-funds neighbours that failed on `date`. */
const ifNeighbours = (date: string, ended: number, recovered: number): VectorMatch[] =>
  Array.from({ length: ended }, (_, i) => neighbour('insufficient_funds', i < recovered ? 'recovered' : 'failed', 'retry', `${date}T10:00:00.000Z`));

const candidateOf = (candidates: readonly SuggestionCandidate[], type: SuggestionCandidate['type'], target: string) =>
  candidates.find((c) => c.type === type && c.target === target) as SuggestionCandidate;

describe('suggestionCandidates: what the analytics leave to the neighbours', () => {
  it('keeps a thin code (too few ended, none recovered) as a candidate without a suggestion, and drops one the analytics reject', () => {
    // Prepare
    const rollups = [
      day('2026-11-04', 'do_not_honor', { failed_count: 6, recovered_count: 0, terminal_count: 5 }),
      day('2026-11-04', 'processing_error', { failed_count: 4, recovered_count: 1, terminal_count: 3 }),
      day('2026-11-04', 'lost_card', { failed_count: 25, recovered_count: 0, terminal_count: 25 }),
    ];
    // Act
    const candidates = suggestionCandidates(rollups);
    // Assess
    expect(candidates.filter((c) => c.type === 'stop_retrying_code').map((c) => [c.target, c.analytics?.source ?? null])).toEqual([
      ['do_not_honor', null],
      ['lost_card', 'analytics'],
    ]);
    expect(candidateOf(candidates, 'stop_retrying_code', 'do_not_honor')).toMatchObject({
      id: suggestionIdOf('stop_retrying_code', 'do_not_honor'),
      window: { target: { failed: 6, terminal: 5 } },
    });
  });

  it(`consults at most ${MAX_THIN_CODE_CANDIDATES} thin codes, those with the most failed payments`, () => {
    // Prepare
    const rollups = Array.from({ length: MAX_THIN_CODE_CANDIDATES + 3 }, (_, i) =>
      day('2026-11-04', `code_${String(i).padStart(2, '0')}`, { failed_count: i + 1 }),
    );
    // Act
    const thin = suggestionCandidates(rollups).filter((c) => c.type === 'stop_retrying_code');
    // Assess
    expect(thin).toHaveLength(MAX_THIN_CODE_CANDIDATES);
    expect(thin.map((c) => c.target)).not.toContain('code_00');
    // A decided code takes no slot: the next busiest is consulted instead.
    const decided = suggestionIdOf('stop_retrying_code', 'code_12');
    const open = suggestionCandidates(rollups, (id) => id !== decided).filter((c) => c.type === 'stop_retrying_code');
    expect(open.map((c) => c.target)).toContain('code_02');
    expect(open.map((c) => c.target)).not.toContain('code_12');
  });

  it('keeps the payday comparison as a thin candidate while a side has fewer than the minimum, and none without balance declines', () => {
    // Act
    const thin = suggestionCandidates([day('2026-11-02', 'insufficient_funds', { failed_count: 5, recovered_count: 3 })]);
    const none = suggestionCandidates([day('2026-11-02', 'do_not_honor', { failed_count: 5, recovered_count: 3 })]);
    // Assess
    expect(candidateOf(thin, 'payday_retry_timing', 'insufficient_funds')).toMatchObject({ analytics: null, window: { payday: { near: { failed: 5 } } } });
    expect(none.map((c) => c.type)).not.toContain('payday_retry_timing');
  });
});

describe('neighbourVerdict', () => {
  const stop = { type: 'stop_retrying_code' as const, target: 'do_not_honor' };
  const payday = { type: 'payday_retry_timing' as const, target: 'insufficient_funds' };

  it(`supports "stop retrying" from ${NEIGHBOUR_MIN_ENDED_FOR_STOP} ended neighbours of the code none of which recovered, pending and other codes aside`, () => {
    // Prepare
    const matches = [
      ...many(NEIGHBOUR_MIN_ENDED_FOR_STOP, () => neighbour('DO_NOT_HONOR', 'failed')),
      neighbour('do_not_honor', 'pending'),
      neighbour('insufficient_funds', 'recovered'),
    ];
    // Act, Assess
    expect(neighbourVerdict(stop, matches)).toEqual({ verdict: 'supports', stop: { ended: NEIGHBOUR_MIN_ENDED_FOR_STOP, recovered: 0 } });
    expect(neighbourVerdict(stop, matches.slice(1))).toEqual({ verdict: 'silent' });
  });

  it(`contradicts "stop retrying" when at least ${STOP_CONTRADICTION_RATE * 100}% of the ended neighbours recovered, by any strategy; stays silent below`, () => {
    // Prepare
    const failed = many(18, () => neighbour('do_not_honor', 'failed'));
    const twoRecovered = [...failed, neighbour('do_not_honor', 'recovered', 'retry'), neighbour('do_not_honor', 'recovered', 'card_update')];
    const oneRecovered = [...failed, neighbour('do_not_honor', 'failed'), neighbour('do_not_honor', 'recovered', 'retry')];
    // Act
    const contradicted = neighbourVerdict(stop, twoRecovered);
    // Assess
    expect(contradicted).toMatchObject({ verdict: 'contradicts', why: expect.stringContaining('2 of 20') });
    expect(neighbourVerdict(stop, oneRecovered)).toEqual({ verdict: 'silent' });
  });

  it(`supports payday timing when neighbours that failed near a payday recovered at least ${MIN_PAYDAY_GAP * 100} points more, ${NEIGHBOUR_MIN_PAYDAY_SAMPLE} a side`, () => {
    // Prepare: the 2nd and the 16th are near a payday, the 8th and the 25th not; undated neighbours do not count.
    const matches = [
      ...ifNeighbours('2026-10-02', 10, 6),
      ...ifNeighbours('2026-10-16', 10, 6),
      ...ifNeighbours('2026-10-08', 10, 2),
      ...ifNeighbours('2026-10-25', 10, 3),
      ...many(30, () => neighbour('insufficient_funds', 'failed')),
    ];
    // Act
    const verdict = neighbourVerdict(payday, matches);
    // Assess
    expect(verdict).toEqual({ verdict: 'supports', payday: { near: { ended: 20, recovered: 12 }, rest: { ended: 20, recovered: 5 } } });
  });

  it('contradicts payday timing when the others recovered more by the same gap, and says nothing on thin or close samples', () => {
    // Act
    const reversed = neighbourVerdict(payday, [...ifNeighbours('2026-10-02', 20, 2), ...ifNeighbours('2026-10-08', 20, 8)]);
    const thin = neighbourVerdict(payday, [...ifNeighbours('2026-10-02', 19, 19), ...ifNeighbours('2026-10-08', 20, 0)]);
    const close = neighbourVerdict(payday, [...ifNeighbours('2026-10-02', 20, 10), ...ifNeighbours('2026-10-08', 20, 10)]);
    // Assess
    expect(reversed).toMatchObject({ verdict: 'contradicts', why: expect.stringContaining('10.0%') });
    expect(thin).toEqual({ verdict: 'silent' });
    expect(close).toEqual({ verdict: 'silent' });
  });

  it('has no neighbour rule for an SMS step', () => {
    // Act, Assess
    expect(
      neighbourVerdict(
        { type: 'add_sms_step', target: 'soft_retry' },
        many(60, () => neighbour('insufficient_funds', 'failed')),
      ),
    ).toEqual({
      verdict: 'silent',
    });
  });
});

describe('resolveSuggestions', () => {
  const thinRollups = [
    day('2026-11-04', 'do_not_honor', { failed_count: 6, recovered_count: 0, terminal_count: 5 }),
    day('2026-11-02', 'insufficient_funds', { failed_count: 3, recovered_count: 2 }),
    day('2026-11-08', 'insufficient_funds', { failed_count: 10, recovered_count: 1 }),
  ];

  it('offers nothing on thin analytics when the neighbours say nothing', () => {
    // Act, Assess
    expect(resolveSuggestions(suggestionCandidates(thinRollups), () => [])).toEqual({ suggestions: [], withheld: [] });
  });

  it('offers what the neighbours support where the analytics are thin: source neighbours, their counts as evidence and lift, the same id', () => {
    // Prepare
    const byCode: Record<string, VectorMatch[]> = {
      do_not_honor: many(25, () => neighbour('do_not_honor', 'failed')),
      insufficient_funds: [...ifNeighbours('2026-10-01', 20, 12), ...ifNeighbours('2026-10-09', 20, 4)],
    };
    // Act
    const { suggestions } = resolveSuggestions(suggestionCandidates(thinRollups), (c) => byCode[c.target] ?? []);
    // Assess
    expect(suggestions.map((s) => [s.type, s.source])).toEqual([
      ['stop_retrying_code', 'neighbours'],
      ['payday_retry_timing', 'neighbours'],
    ]);
    expect(suggestions[0]).toMatchObject({
      id: suggestionIdOf('stop_retrying_code', 'do_not_honor'),
      kind: 'retry_timing',
      evidence: { decline_code: 'do_not_honor', neighbours_ended: 25, neighbours_recovered: 0, failed: 6, terminal: 5 },
      expected_lift: { recovery_rate_points: 0, retries_avoided: 6 },
      direct_setting: { stop_decline_codes: ['do_not_honor'] },
      neighbour_evidence: { similar: 25, recovered: 0, failed: 25 },
    });
    expect(suggestions[1]).toMatchObject({
      id: suggestionIdOf('payday_retry_timing', 'insufficient_funds'),
      evidence: {
        neighbours_near_payday_ended: 20,
        neighbours_near_payday_recovered: 12,
        neighbours_other_ended: 20,
        neighbours_other_recovered: 4,
        other_failed: 10,
      },
      // 60% - 20% = 0.4 points, applied to the window's 10 other insufficient-funds payments.
      expected_lift: { recovery_rate_points: 0.4, recovered_payments: 4 },
      experiment: { variants: [{}, { payday_aligned: true }] },
    });
  });

  it('marks an analytics suggestion the neighbours also support as both, keeps one they are silent on, and withholds one they contradict', () => {
    // Prepare
    const rollups = [
      day('2026-11-04', 'do_not_honor', { failed_count: 20, terminal_count: 20 }),
      day('2026-11-04', 'lost_card', { failed_count: 20, terminal_count: 20 }),
      day('2026-11-04', 'pickup_card', { failed_count: 20, terminal_count: 20 }),
    ];
    const byCode: Record<string, VectorMatch[]> = {
      do_not_honor: many(20, () => neighbour('do_not_honor', 'failed')),
      lost_card: [...many(15, () => neighbour('lost_card', 'failed')), ...many(5, () => neighbour('lost_card', 'recovered', 'retry'))],
    };
    // Act
    const { suggestions, withheld } = resolveSuggestions(suggestionCandidates(rollups), (c) => byCode[c.target] ?? []);
    // Assess
    expect(suggestions.map((s) => [s.target, s.source])).toEqual([
      ['do_not_honor', 'both'],
      ['pickup_card', 'analytics'],
      // The 60 payments' segment: an SMS step, from the analytics alone.
      ['soft_retry', 'analytics'],
    ]);
    expect(suggestions[0]?.evidence).toEqual({ decline_code: 'do_not_honor', failed: 20, recovered: 0, terminal: 20, window_days: 90 });
    expect(suggestions[1]?.neighbour_evidence).toBeNull();
    expect(withheld).toEqual([{ id: suggestionIdOf('stop_retrying_code', 'lost_card'), why: expect.stringContaining('5 of 20') }]);
  });
});
