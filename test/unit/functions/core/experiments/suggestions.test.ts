import type { RollupItem } from '#core/analytics/rollup-item';
import { generateSuggestions, suggestionIdOf } from '#core/experiments/suggestions';

const day = (bucket: string, dims: Record<string, string>, counters: Record<string, number>): RollupItem => ({ bucket, dims, counters });
const dims = (decline_code: string, decline_category = 'soft_retry') => ({ psp: 'stripe', decline_category, decline_code, currency: 'usd' });

describe('generateSuggestions', () => {
  it('proposes to stop retrying a code none of whose 20 ended payments recovered, with its counts', () => {
    // Prepare
    const rollups = [
      day('2026-11-04', dims('do_not_honor'), { failed_count: 14, recovered_count: 0, terminal_count: 12 }),
      day('2026-11-05', dims('do_not_honor'), { failed_count: 9, recovered_count: 0, terminal_count: 8 }),
      day('2026-11-05', dims('processing_error'), { failed_count: 20, recovered_count: 1, terminal_count: 19 }),
    ];
    // Act
    const suggestions = generateSuggestions(rollups);
    // Assess
    expect(suggestions).toHaveLength(1);
    expect(suggestions[0]).toMatchObject({
      id: suggestionIdOf('stop_retrying_code', 'do_not_honor'),
      type: 'stop_retrying_code',
      kind: 'retry_timing',
      source: 'analytics',
      evidence: { decline_code: 'do_not_honor', failed: 23, recovered: 0, terminal: 20 },
      expected_lift: { retries_avoided: 23 },
      experiment: { variants: [{}, { stop_decline_codes: ['do_not_honor'] }] },
    });
  });

  it('proposes payday timing when insufficient-funds payments near the 1st and 15th recover more', () => {
    // Prepare
    const rollups = [
      day('2026-11-02', dims('insufficient_funds'), { failed_count: 20, recovered_count: 12, terminal_count: 8 }),
      day('2026-11-08', dims('insufficient_funds'), { failed_count: 20, recovered_count: 4, terminal_count: 16 }),
    ];
    // Act
    const [suggestion] = generateSuggestions(rollups);
    // Assess
    expect(suggestion).toMatchObject({
      type: 'payday_retry_timing',
      evidence: { near_payday_failed: 20, near_payday_recovered: 12, other_failed: 20, other_recovered: 4 },
      expected_lift: { recovery_rate_points: 0.4, recovered_payments: 8 },
      direct_setting: { payday_aligned: true },
    });
  });

  it('proposes an SMS step for a segment email recovers poorly, and nothing on thin data', () => {
    // Prepare
    const rollups = [day('2026-11-10', dims('', 'hard_customer'), { failed_count: 60, recovered_count: 6, recovered_by_campaign_email_count: 1 })];
    // Act
    const suggestions = generateSuggestions(rollups);
    // Assess
    expect(suggestions.map((s) => [s.type, s.target])).toEqual([['add_sms_step', 'hard_customer']]);
    expect(suggestions[0]?.experiment.variants).toEqual([{ channels: ['email'] }, { channels: ['email', 'sms'] }]);
    expect(generateSuggestions([day('2026-11-10', dims('do_not_honor'), { failed_count: 5, terminal_count: 5 })])).toEqual([]);
  });

  it('keeps the same id for the same finding', () => {
    // Assess
    expect(suggestionIdOf('stop_retrying_code', 'x')).toBe(suggestionIdOf('stop_retrying_code', 'x'));
    expect(suggestionIdOf('stop_retrying_code', 'x')).not.toBe(suggestionIdOf('stop_retrying_code', 'y'));
    expect(suggestionIdOf('add_sms_step', 'x')).toMatch(/^sug_[0-9a-f]{8}$/);
  });
});
