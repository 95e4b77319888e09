import { evaluateEmailAbTestSchemas } from '#api/email/ab-test-schemas';
import type { AbArmCounters } from '#core/experiments/ab-test';
import type { LocalStack } from '#lib/local/local-stack';
import { AB_VARIANTS, armCounts, createCampaignWithEmail, seedAbTestCounters } from '#test/fixtures/ab-tests';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { expectOtherMerchantGets404, newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

interface Step {
  action: string;
  delay_hours: number;
  template_id: string | null;
  subject?: string;
}
interface CampaignBody {
  data: { id: string; status: string; steps: Step[] };
}
interface EvaluationBody {
  data: {
    winner: string | null;
    winner_arm: string | null;
    reason: string;
    promoted: boolean;
    promotion: { campaign_id: string; step_index: number; template_id: string; subject: string } | null;
    not_promoted_reason: string | null;
    statistics: { srm: { detected: boolean; p_value: number }; z_test: { p_value: number | null }; probability_b_beats_a: number; sample_reached: boolean };
    method: Record<string, unknown>;
    test: { id: string; status: string; winner: string | null; completed_at: string | null; last_evaluation: { reason: string } | null };
  };
  error?: { code: string; param?: string };
}
interface AbTestBody {
  data: { id: string; status: string; winner: string | null; last_evaluation: { reason: string; winner: string | null } | null; evaluated_at: string | null };
}

const variants = AB_VARIANTS;

describe('POST /api/v1/email/ab-test/{campaign_id}/evaluate', () => {
  let stack: LocalStack;
  let tenant: Tenant;

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], UNLIMITED);
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const evaluate = (campaignId: string, key = tenant.key) =>
    call<EvaluationBody>(`${stack.api_url}/email/ab-test/${campaignId}/evaluate`, { method: 'POST', key });
  const campaignOf = async (campaignId: string) => (await call<CampaignBody>(`${stack.api_url}/campaigns/${campaignId}`, { key: tenant.key })).body.data;
  /** An active campaign with a running test (default body) whose counters are `a` and `b`. */
  async function runningTest(
    a: AbArmCounters,
    b: AbArmCounters,
    options: { activate?: boolean } = { activate: true },
  ): Promise<{ campaignId: string; testId: string }> {
    const campaignId = await createCampaignWithEmail(stack.api_url, tenant.key, options);
    const created = await call<{ data: { id: string } }>(`${stack.api_url}/email/ab-test`, {
      method: 'POST',
      key: tenant.key,
      body: { campaign_id: campaignId, variants },
    });
    await seedAbTestCounters(tenant.merchant.id, campaignId, { A: a, B: b });
    return { campaignId, testId: created.body.data.id };
  }

  it('names no winner before the minimum sample, stores the evaluation and leaves the campaign alone', async () => {
    // Prepare
    const { campaignId } = await runningTest(armCounts(60, 5), armCounts(60, 30));
    const before = await campaignOf(campaignId);
    // Act
    const response = await evaluate(campaignId);
    // Assess
    expect(response.status).toBe(200);
    expect(() => evaluateEmailAbTestSchemas.responses[200].parse(response.body)).not.toThrow();
    expect(response.body.data).toMatchObject({ winner: null, winner_arm: null, reason: 'insufficient_sample', promoted: false, promotion: null });
    expect(response.body.data.statistics.sample_reached).toBe(false);
    expect(response.body.data.test).toMatchObject({ status: 'running', winner: null, last_evaluation: { reason: 'insufficient_sample' } });
    expect(await campaignOf(campaignId)).toEqual(before);
    const stored = await call<AbTestBody>(`${stack.api_url}/email/ab-test/${campaignId}`, { key: tenant.key });
    expect(stored.body.data).toMatchObject({ status: 'running', last_evaluation: { reason: 'insufficient_sample', winner: null } });
    expect(stored.body.data.evaluated_at).not.toBeNull();
  });

  it('states its method: the tests, alpha, the minimum sample and what it detects, the prior, the SRM check', async () => {
    // Prepare
    const { campaignId } = await runningTest(armCounts(10, 1), armCounts(10, 2));
    // Act
    const response = await evaluate(campaignId);
    // Assess
    expect(response.body.data.method).toMatchObject({
      metric: 'recovery',
      rate: 'recovered / assigned',
      frequentist_test: 'two-proportion z-test, pooled variance, two-sided',
      alpha: 0.05,
      bayesian_test: expect.stringContaining('Beta-Binomial'),
      prior: 'Beta(1, 1) on each arm',
      probability_threshold: 0.95,
      srm_alpha: 0.001,
      minimum_sample_per_arm: 100,
      power_at_minimum_sample: { power: 0.8, detectable_rate: expect.any(Number) },
      applies_to: "the campaign's first email step",
    });
  });

  it("promotes a clear winner: the campaign's first email step takes its template and subject, and the test completes", async () => {
    // Prepare
    const { campaignId, testId } = await runningTest(armCounts(1000, 100), armCounts(1000, 130));
    const before = await campaignOf(campaignId);
    // Act
    const response = await evaluate(campaignId);
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      winner: 'Friendly',
      winner_arm: 'B',
      reason: 'significant',
      promoted: true,
      promotion: { campaign_id: campaignId, step_index: 1, template_id: 'tmpl_card_update_2', subject: 'A quick fix for your card' },
      not_promoted_reason: null,
    });
    expect(response.body.data.statistics.z_test.p_value).toBeCloseTo(0.03548845046647471, 10);
    expect(response.body.data.statistics.probability_b_beats_a).toBeCloseTo(0.9821650661163506, 8);
    expect(response.body.data.test).toMatchObject({ id: testId, status: 'completed', winner: 'Friendly' });
    const after = await campaignOf(campaignId);
    expect(after.status).toBe('active');
    expect(after.steps).toEqual([
      before.steps[0],
      { action: 'email', delay_hours: 0, template_id: 'tmpl_card_update_2', subject: 'A quick fix for your card' },
      before.steps[2],
    ]);
  });

  it('refuses to evaluate a completed test again with 409, and lets a new test replace it', async () => {
    // Prepare
    const { campaignId, testId } = await runningTest(armCounts(500, 150), armCounts(500, 90));
    const first = await evaluate(campaignId);
    // Act
    const again = await evaluate(campaignId);
    const replaced = await call<{ data: { id: string; status: string } }>(`${stack.api_url}/email/ab-test`, {
      method: 'POST',
      key: tenant.key,
      body: { campaign_id: campaignId, variants },
    });
    // Assess
    expect(first.body.data).toMatchObject({ winner: 'Control', winner_arm: 'A', promoted: true });
    expect(again.status).toBe(409);
    expect(again.body.error?.code).toBe('state_conflict');
    expect(replaced.status).toBe(201);
    expect(replaced.body.data.status).toBe('running');
    expect(replaced.body.data.id).not.toBe(testId);
    expect((await campaignOf(campaignId)).steps[1]).toMatchObject({ template_id: 'tmpl_card_update_1', subject: 'Your payment did not go through' });
  });

  it('names no winner on a sample ratio mismatch, however clear the difference', async () => {
    // Prepare
    const { campaignId } = await runningTest(armCounts(600, 60), armCounts(400, 80));
    const before = await campaignOf(campaignId);
    // Act
    const response = await evaluate(campaignId);
    // Assess
    expect(response.body.data).toMatchObject({ winner: null, reason: 'srm', promoted: false });
    expect(response.body.data.statistics.srm.detected).toBe(true);
    expect(response.body.data.statistics.srm.p_value).toBeLessThan(0.001);
    expect(response.body.data.statistics.z_test.p_value).toBeLessThan(0.05);
    expect(response.body.data.test.status).toBe('running');
    expect(await campaignOf(campaignId)).toEqual(before);
  });

  it('names no winner when the difference is not significant', async () => {
    // Prepare
    const { campaignId } = await runningTest(armCounts(300, 60), armCounts(300, 66));
    // Act
    const response = await evaluate(campaignId);
    // Assess
    expect(response.body.data).toMatchObject({ winner: null, reason: 'not_significant', promoted: false });
    expect(response.body.data.statistics.z_test.p_value).toBeGreaterThan(0.05);
  });

  it('names the winner of an archived campaign but does not promote it, and says why', async () => {
    // Prepare
    const { campaignId } = await runningTest(armCounts(1000, 100), armCounts(1000, 130));
    await call(`${stack.api_url}/campaigns/${campaignId}/archive`, { method: 'POST', key: tenant.key });
    const before = await campaignOf(campaignId);
    // Act
    const response = await evaluate(campaignId);
    // Assess
    expect(response.body.data).toMatchObject({
      winner: 'Friendly',
      reason: 'significant',
      promoted: false,
      promotion: null,
      not_promoted_reason: 'campaign_archived',
    });
    expect(response.body.data.test.status).toBe('running');
    expect(await campaignOf(campaignId)).toEqual(before);
  });

  it('promotes into a paused campaign', async () => {
    // Prepare
    const { campaignId } = await runningTest(armCounts(1000, 100), armCounts(1000, 130));
    await call(`${stack.api_url}/campaigns/${campaignId}/pause`, { method: 'POST', key: tenant.key });
    // Act
    const response = await evaluate(campaignId);
    // Assess
    expect(response.body.data.promoted).toBe(true);
    expect(await campaignOf(campaignId)).toMatchObject({
      status: 'paused',
      steps: [expect.anything(), { template_id: 'tmpl_card_update_2' }, expect.anything()],
    });
  });

  it('promotes once when two evaluations race: one completes the test, the other is refused with 409', async () => {
    // Prepare
    const { campaignId } = await runningTest(armCounts(1000, 100), armCounts(1000, 130));
    const before = await campaignOf(campaignId);
    // Act
    const answers = await Promise.all([evaluate(campaignId), evaluate(campaignId)]);
    // Assess
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.status === 200)?.body.data.promoted).toBe(true);
    const after = await call<CampaignBody & { data: { updated_at: string } }>(`${stack.api_url}/campaigns/${campaignId}`, { key: tenant.key });
    expect(after.body.data.steps[1]).toMatchObject({ template_id: 'tmpl_card_update_2' });
    expect(after.body.data.steps.length).toBe(before.steps.length);
  });

  it('creates one test when two creations on one campaign race: the other is refused with 409', async () => {
    // Prepare
    const campaignId = await createCampaignWithEmail(stack.api_url, tenant.key);
    const body = { campaign_id: campaignId, variants };
    // Act
    const answers = await Promise.all(
      [1, 2].map(() => call<{ data: { id: string } }>(`${stack.api_url}/email/ab-test`, { method: 'POST', key: tenant.key, body })),
    );
    // Assess
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    const stored = await call<AbTestBody>(`${stack.api_url}/email/ab-test/${campaignId}`, { key: tenant.key });
    expect(stored.body.data.id).toBe(answers.find((answer) => answer.status === 201)?.body.data.id);
  });

  it('answers 404 naming campaign_id for a campaign without a test', async () => {
    // Prepare
    const campaignId = await createCampaignWithEmail(stack.api_url, tenant.key);
    // Act
    const response = await evaluate(campaignId);
    // Assess
    expect(response.status).toBe(404);
    expect(response.body.error).toMatchObject({ code: 'resource_not_found', param: 'campaign_id' });
  });

  it("answers 404 when another merchant evaluates this merchant's test, and changes nothing", async () => {
    // Prepare
    const { campaignId } = await runningTest(armCounts(1000, 100), armCounts(1000, 130));
    // Act
    await expectOtherMerchantGets404(`${stack.api_url}/email/ab-test/${campaignId}/evaluate`, { method: 'POST' });
    // Assess
    const stored = await call<AbTestBody>(`${stack.api_url}/email/ab-test/${campaignId}`, { key: tenant.key });
    expect(stored.body.data).toMatchObject({ status: 'running', last_evaluation: null });
  });
});
