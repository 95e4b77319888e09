import { neighbourEvidenceOf, neighbourProbe, neighbourProbeKey } from '#core/experiments/neighbour-evidence';
import { generateSuggestions, type Suggestion } from '#core/experiments/suggestions';
import type { VectorMatch } from '#core/vectors/store';
import { categoryOfCode } from '#core/vectors/recovery-features';

const dims = (decline_code: string, decline_category = 'soft_retry') => ({ psp: 'stripe', decline_category, decline_code, currency: 'usd' });
const [stop] = generateSuggestions([
  { bucket: '2026-11-05', dims: dims('do_not_honor'), counters: { failed_count: 20, recovered_count: 0, terminal_count: 20 } },
]) as [Suggestion];
const match = (decline_code: string, outcome: 'recovered' | 'failed', strategy: VectorMatch['metadata']['strategy']): VectorMatch => ({
  id: `pe_${Math.random()}`,
  score: 0.9,
  metadata: { decline_code, outcome, strategy, customer_id: null },
});

describe('neighbourEvidenceOf', () => {
  it('counts only the neighbours of the suggested code (case-insensitive), by outcome and by strategy', () => {
    // Prepare
    const matches = [
      match('do_not_honor', 'failed', 'retry'),
      match('DO_NOT_HONOR', 'recovered', 'campaign_sms'),
      match('do_not_honor', 'failed', 'retry'),
      match('insufficient_funds', 'recovered', 'retry'),
    ];
    // Act
    const evidence = neighbourEvidenceOf(stop, matches);
    // Assess
    expect(evidence).toEqual({
      similar: 3,
      recovered: 1,
      failed: 2,
      by_strategy: { retry: { similar: 2, recovered: 0 }, campaign_sms: { similar: 1, recovered: 1 } },
    });
  });

  it('answers null when no neighbour concerns the suggestion: no evidence either way', () => {
    // Act, Assess
    expect(neighbourEvidenceOf(stop, [])).toBeNull();
    expect(neighbourEvidenceOf(stop, [match('insufficient_funds', 'recovered', 'retry')])).toBeNull();
  });

  it("counts a segment suggestion's neighbours by the category of their code, and probes with that category", () => {
    // Prepare
    const sms: Suggestion = { ...stop, type: 'add_sms_step', target: categoryOfCode('insufficient_funds') };
    // Act
    const evidence = neighbourEvidenceOf(sms, [match('insufficient_funds', 'recovered', 'campaign_email'), match('do_not_honor', 'failed', 'retry')]);
    // Assess
    expect(evidence?.similar).toBe(categoryOfCode('do_not_honor') === sms.target ? 2 : 1);
    expect(neighbourProbe(sms)).toMatchObject({ declineCategory: sms.target });
    expect(neighbourProbe(stop)).toMatchObject({ declineCode: 'do_not_honor' });
  });

  it('gives targets with the same probe the same key, so one vector query serves them', () => {
    // Act, Assess
    expect(neighbourProbeKey({ type: 'payday_retry_timing', target: 'insufficient_funds' })).toBe(
      neighbourProbeKey({ type: 'stop_retrying_code', target: 'INSUFFICIENT_FUNDS' }),
    );
    expect(neighbourProbeKey({ type: 'add_sms_step', target: 'soft_retry' })).not.toBe(neighbourProbeKey({ type: 'stop_retrying_code', target: 'soft_retry' }));
  });
});
