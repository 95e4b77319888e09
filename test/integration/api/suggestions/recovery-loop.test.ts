/**
 * Suggestions over HTTP and the learning loop: the merchant's analytics (payments rolled up by the
 * table stream) and vector neighbours (the same payments, auto-embedded from the stream, and
 * recoveries embedded through POST /vectors/embed-event) → a suggestion → applied as an experiment → customers assigned by
 * the retry policy and GET /experiments/assign → conversions (one through the retry engine) →
 * results → the winner promoted → the retry policy plans the next retry with it.
 */
import { listRecoverySuggestionsSchemas } from '#api/suggestions/schemas';
import { suggestionIdOf } from '#core/experiments/suggestions';
import type { PaymentRecord } from '#core/payments';
import { handler as everyMinute } from '#jobs/every-minute';
import type { LocalStack } from '#lib/local/local-stack';
import { recordExperimentConversion } from '#services/experiment-conversions';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { PROCESSING_ERROR, retryPlanOf, seedPayment, seedPaymentThrough } from '#test/fixtures/payments';
import { expectOtherMerchantGets404, newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

// Seeding a merchant's 60 past payments and 100 new ones, each planned by the retry policy: tens of seconds on a busy machine.
jest.setTimeout(240_000);

interface Suggestion {
  id: string;
  type: string;
  kind: string;
  source: string;
  evidence: Record<string, number | string>;
  expected_lift: { recovery_rate_points: number; recovered_payments: number };
  direct_setting: Record<string, unknown>;
  neighbour_evidence: {
    similar: number;
    recovered: number;
    failed: number;
    by_strategy: Record<string, { similar: number; recovered: number }>;
  } | null;
}
interface Body<T> {
  data: T;
  error?: { code: string; param?: string; message: string };
}
interface Applied {
  experiment: { id: string; kind: string; status: string; source: { type: string; id: string }; minimum_sample_per_variant: number } | null;
  decision: { status: string; mode: string };
  default_setting: Record<string, unknown> | null;
}

const inBatches = async <T, R>(items: readonly T[], size: number, run: (item: T) => Promise<R>): Promise<R[]> => {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(run))));
  return out;
};
const customer = (label: string) => ({ customer: { email: `${label}@example.com`, name: label } });

describe('/api/v1/suggestions and the recovery learning loop', () => {
  let stack: LocalStack;
  let tenant: Tenant;

  const suggestions = (key = tenant.key) => call<Body<Suggestion[]>>(`${stack.api_url}/suggestions/recovery`, { key });
  const apply = (id: string, body?: unknown, key = tenant.key) =>
    call<Body<Applied>>(`${stack.api_url}/suggestions/${id}/apply`, { method: 'POST', key, ...(body === undefined ? {} : { body }) });
  const dismiss = (id: string, key = tenant.key) =>
    call<Body<{ decision: { status: string } }>>(`${stack.api_url}/suggestions/${id}/dismiss`, { method: 'POST', key });

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], UNLIMITED);
    const merchantId = tenant.merchant.id;
    // Insufficient funds: 12 of 20 recovered among payments that failed near the 1st, 4 of 20 among the others.
    const near = new Date('2026-11-02T10:00:00.000Z');
    const other = new Date('2026-11-08T10:00:00.000Z');
    const seeds: [Date, 'recover' | 'terminate', Record<string, unknown>][] = [
      ...Array.from({ length: 20 }, (_, i) => [near, i < 12 ? 'recover' : 'terminate', {}] as [Date, 'recover' | 'terminate', Record<string, unknown>]),
      ...Array.from({ length: 20 }, (_, i) => [other, i < 4 ? 'recover' : 'terminate', {}] as [Date, 'recover' | 'terminate', Record<string, unknown>]),
      // do_not_honor: 20 payments, none recovered.
      ...Array.from({ length: 20 }, () => [other, 'terminate', { declineCode: 'do_not_honor' }] as [Date, 'recover' | 'terminate', Record<string, unknown>]),
    ];
    await inBatches(
      seeds.map((seed, i) => ({ seed, i })),
      8,
      ({ seed: [at, step, overrides], i }) => seedPaymentThrough(merchantId, [step], { ...customer(`past${i}`), ...overrides }, at),
    );
    await stack.runtime.stream.drain();
  }, 240_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('proposes what the analytics support, each with its evidence and expected lift', async () => {
    // Act
    const response = await suggestions();
    // Assess
    expect(response.status).toBe(200);
    expect(listRecoverySuggestionsSchemas.responses[200].safeParse(response.body).success).toBe(true);
    const byType = Object.fromEntries(response.body.data.map((s) => [s.type, s]));
    expect(Object.keys(byType).sort()).toEqual(['add_sms_step', 'payday_retry_timing', 'stop_retrying_code']);
    // The auto-embedded payments meet the stop and payday rules on their own too: both sources; the SMS step has no neighbour rule.
    expect(byType.stop_retrying_code).toMatchObject({
      id: suggestionIdOf('stop_retrying_code', 'do_not_honor'),
      source: 'both',
      evidence: { decline_code: 'do_not_honor', failed: 20, recovered: 0, terminal: 20 },
    });
    expect(byType.payday_retry_timing).toMatchObject({
      kind: 'retry_timing',
      source: 'both',
      evidence: { near_payday_failed: 20, near_payday_recovered: 12, other_failed: 20, other_recovered: 4 },
      expected_lift: { recovery_rate_points: 0.4, recovered_payments: 8 },
    });
    expect(byType.add_sms_step).toMatchObject({ kind: 'channel', source: 'analytics', evidence: { segment: 'soft_retry', failed: 60, recovered_by_email: 0 } });
  });

  it("adds each suggestion's vector neighbours: the merchant's past payments of its code, auto-embedded from the stream, by outcome and strategy", async () => {
    // Act
    const response = await suggestions();
    // Assess
    const byType = Object.fromEntries(response.body.data.map((s) => [s.type, s]));
    const stop = byType.stop_retrying_code?.neighbour_evidence;
    expect(stop).toMatchObject({ similar: 20, recovered: 0, failed: 20 });
    expect(Object.values(stop?.by_strategy ?? {}).reduce((sum, entry) => sum + entry.similar, 0)).toBe(20);
    expect(byType.payday_retry_timing?.neighbour_evidence).toMatchObject({ similar: 40, recovered: 16, failed: 24 });
    const sms = byType.add_sms_step?.neighbour_evidence;
    expect(sms?.similar).toBeGreaterThanOrEqual(40);
    expect((sms?.recovered ?? 0) + (sms?.failed ?? 0)).toBe(sms?.similar);
  });

  it("counts recoveries embedded through POST /vectors/embed-event, by the strategy that recovered them, and only the merchant's own", async () => {
    // Prepare: another merchant's recoveries of the same code must not count.
    const other = await newTenant(['admin'], UNLIMITED);
    const embed = (key: string, id: string) =>
      call<Body<{ embedded: boolean }>>(`${stack.api_url}/vectors/embed-event`, {
        method: 'POST',
        key,
        body: {
          id,
          decline_code: 'insufficient_funds',
          amount_cents: 4900,
          currency: 'usd',
          customer_segment: 'first_failure',
          recovery_strategy: 'campaign_sms',
          outcome: 'recovered',
        },
      });
    const payday = async () => (await suggestions()).body.data.find((s) => s.type === 'payday_retry_timing');
    const before = (await payday())?.neighbour_evidence;

    // Act
    const embedded = await Promise.all([embed(tenant.key, 'evt_if_sms_1'), embed(tenant.key, 'evt_if_sms_2'), embed(other.key, 'evt_if_other')]);
    const after = await payday();

    // Assess
    expect(embedded.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(before).toMatchObject({ similar: 40, recovered: 16, failed: 24 });
    expect(before?.by_strategy.campaign_sms).toBeUndefined();
    expect(after?.neighbour_evidence).toMatchObject({ similar: 42, recovered: 18, failed: 24, by_strategy: { campaign_sms: { similar: 2, recovered: 2 } } });
    // Undated embedded events (no failed_at) leave the payday comparison as it was: the same id, the analytics' counts.
    expect(after).toMatchObject({
      id: suggestionIdOf('payday_retry_timing', 'insufficient_funds'),
      source: 'both',
      evidence: { near_payday_failed: 20, near_payday_recovered: 12 },
    });
  });

  it('dismisses a suggestion: it is not proposed again, and a second decision is 409', async () => {
    // Prepare
    const id = suggestionIdOf('add_sms_step', 'soft_retry');
    // Act
    const dismissed = await dismiss(id);
    const again = await dismiss(id);
    const applyDismissed = await apply(id);
    // Assess
    expect(dismissed.status).toBe(200);
    expect(dismissed.body.data.decision.status).toBe('dismissed');
    expect((await suggestions()).body.data.map((s) => s.id)).not.toContain(id);
    expect(again.status).toBe(409);
    expect(applyDismissed.status).toBe(409);
  });

  it("applies a suggestion directly (mode direct): the setting becomes the merchant's default", async () => {
    // Prepare
    const id = suggestionIdOf('stop_retrying_code', 'do_not_honor');
    // Act
    const applied = await apply(id, { mode: 'direct' });
    const next = await seedPayment(tenant.merchant.id, { ...customer('dnh-after'), declineCode: 'do_not_honor' });
    // Assess
    expect(applied.status).toBe(200);
    expect(applied.body.data).toMatchObject({
      experiment: null,
      decision: { status: 'applied', mode: 'direct' },
      default_setting: { stop_decline_codes: ['do_not_honor'] },
    });
    expect(next.status).toBe('terminal');
    expect(next.state_history.at(-1)?.reason).toContain('recovery strategy stops retrying do_not_honor');
  });

  it.each([
    ['{"mode":"sideways"}', 422, 'mode'],
    ['{"min_sample":5}', 422, 'min_sample'],
    ['{"__proto__":{"mode":"direct"}}', 400, '__proto__'],
    ['{"mode":', 400, undefined],
  ])('refuses the body %s with %d', async (body, status, param) => {
    // Act
    const response = await call<Body<unknown>>(`${stack.api_url}/suggestions/${suggestionIdOf('payday_retry_timing', 'insufficient_funds')}/apply`, {
      method: 'POST',
      key: tenant.key,
      rawBody: body,
      headers: { 'Content-Type': 'application/json' },
    });
    // Assess
    expect(response.status).toBe(status);
    if (param !== undefined) expect(response.body.error?.param).toBe(param);
  });

  it("answers 404 for another merchant's suggestion and an unknown id, and needs write to apply", async () => {
    // Prepare
    const id = suggestionIdOf('payday_retry_timing', 'insufficient_funds');
    const reader = await newTenant(['read']);
    // Act
    const unknown = await apply('sug_00000000');
    const huge = await dismiss('x'.repeat(10_240));
    const readOnly = await apply(id, undefined, reader.key);
    // Assess
    await expectOtherMerchantGets404(`${stack.api_url}/suggestions/${id}/apply`, { method: 'POST' });
    await expectOtherMerchantGets404(`${stack.api_url}/suggestions/${id}/dismiss`, { method: 'POST' });
    expect(unknown.status).toBe(404);
    expect(huge.status).toBe(404);
    expect(readOnly.status).toBe(403);
    // Listing is scoped too: a fresh merchant's list is empty, never this merchant's suggestions.
    const fresh = await suggestions((await newTenant(['admin'])).key);
    expect(fresh.status).toBe(200);
    expect(fresh.body.data).toEqual([]);
    expect((await suggestions((await newTenant(['read:payments'])).key)).status).toBe(403);
  });

  it('closes the loop: embedded recoveries → suggestion → experiment → assignments → conversions → results → promote → the retry policy', async () => {
    // Prepare: the payday suggestion, backed by the auto-embedded recoveries (and the two embedded over HTTP above), applied as an experiment.
    const merchantId = tenant.merchant.id;
    const suggestionId = suggestionIdOf('payday_retry_timing', 'insufficient_funds');
    const proposed = (await suggestions()).body.data.find((s) => s.id === suggestionId);
    expect(proposed?.neighbour_evidence).toMatchObject({ similar: 42, recovered: 18, failed: 24 });
    const applied = await apply(suggestionId, { min_sample: 30 });
    expect(applied.status).toBe(200);
    const experiment = applied.body.data.experiment as NonNullable<Applied['experiment']>;
    expect(experiment).toMatchObject({
      kind: 'retry_timing',
      status: 'running',
      source: { type: 'suggestion', id: suggestionId },
      minimum_sample_per_variant: 30,
    });
    expect((await suggestions()).body.data.map((s) => s.id)).not.toContain(suggestionId);
    // 100 customers fail a payment: the retry policy plans each one with the customer's variant (the exposure).
    const payments = await inBatches(
      Array.from({ length: 100 }, (_, i) => i),
      10,
      (i) => seedPayment(merchantId, customer(`loop${i}`)),
    );
    const assigned = await inBatches(payments, 10, (p) =>
      call<Body<{ assignments: { experiment_id: string; variant: string }[] }>>(`${stack.api_url}/experiments/assign/${p.customer_id}`, { key: tenant.key }),
    );
    const variantOf = new Map(
      payments.map((p, i) => [p.customer_id, assigned[i]?.body.data.assignments.find((a) => a.experiment_id === experiment.id)?.variant]),
    );
    const treated = payments.filter((p) => variantOf.get(p.customer_id) === 'treatment');
    const control = payments.filter((p) => variantOf.get(p.customer_id) === 'control');
    expect(treated.length + control.length).toBe(100);
    // A treated customer's insufficient-funds retry waits for the payday morning, a control customer's does not.
    expect(treated[0]?.state_history.at(-1)?.reason).toContain("by the merchant's retry timing");
    expect(control[0]?.state_history.at(-1)?.reason).not.toContain("by the merchant's retry timing");

    // Act: conversions. One through the retry engine (a processing error of a treated customer recovers at retry 1) ...
    const [engineConverted, ...restTreated] = treated as [PaymentRecord, ...PaymentRecord[]];
    const sameCustomer = await seedPayment(merchantId, {
      ...customer('loop-engine'),
      ...PROCESSING_ERROR,
      customer: { email: `loop${payments.indexOf(engineConverted)}@example.com`, name: 'again' },
    });
    expect(sameCustomer.customer_id).toBe(engineConverted.customer_id);
    const report = await everyMinute({
      schedule: 'every-minute',
      scheduled_time: sameCustomer.next_retry_at as string,
      execution_id: `loop-${Date.now()}`,
      attempt_number: 1,
      schedule_arn: 'arn:aws:scheduler:us-east-1:000000000000:schedule/default/every-minute',
    });
    expect(report.tasks.find((t) => t.name === 'execute-due-retries')?.status).toBe('ok');
    // ... the others as the engine reports them: 60% of the treated, 20% of the control.
    const converting = [...restTreated.slice(0, Math.round(treated.length * 0.6) - 1), ...control.slice(0, Math.round(control.length * 0.2))];
    await inBatches(converting, 10, (p) => recordExperimentConversion(p, new Date()));
    await stack.runtime.stream.drain();
    const results = await call<Body<{ winner: string; reason: string; variants: { key: string; exposures: number; conversions: number }[] }>>(
      `${stack.api_url}/experiments/${experiment.id}/results`,
      { key: tenant.key },
    );
    const promoted = await call<Body<{ forced: boolean; promoted_variant: { key: string }; default_setting: Record<string, unknown> }>>(
      `${stack.api_url}/experiments/${experiment.id}/promote`,
      { method: 'POST', key: tenant.key },
    );
    const after = await seedPayment(merchantId, customer('after-promotion'), new Date('2026-12-07T15:00:00.000Z'));

    // Assess
    expect(results.status).toBe(200);
    const byKey = Object.fromEntries(results.body.data.variants.map((v) => [v.key, v]));
    expect(byKey.treatment).toMatchObject({ exposures: treated.length, conversions: Math.round(treated.length * 0.6) });
    expect(byKey.control).toMatchObject({ exposures: control.length, conversions: Math.round(control.length * 0.2) });
    expect(results.body.data).toMatchObject({ winner: 'treatment', reason: 'significant' });
    expect(promoted.status).toBe(200);
    expect(promoted.body.data).toMatchObject({ forced: false, promoted_variant: { key: 'treatment' }, default_setting: { payday_aligned: true } });
    // The promoted timing plans the next retry on the payday morning (15 December), where the policy alone tries its
    // balance ladder first (24 h, then the morning: 9 December).
    expect(after.next_retry_at).toBe('2026-12-15T07:00:00.000Z');
    const unaligned = await retryPlanOf({ ...after, status: 'pending', next_retry_at: null }, new Date('2026-12-07T15:00:00.000Z'));
    expect(unaligned).toMatchObject({ type: 'schedule_retry', at: '2026-12-09T07:00:00.000Z' });
  });
});
