/**
 * The experiments routes over HTTP: an experiment started by the operator CLI (the spec has no
 * create route), listed with the campaigns' email A/B tests, read, assigned, counted, stopped and
 * promoted; scopes, another merchant's ids, bad input and the 409s of promote and stop.
 */
import {
  getExperimentAssignmentSchemas,
  getExperimentResultsSchemas,
  getExperimentSchemas,
  listExperimentsSchemas,
  promoteExperimentSchemas,
} from '#api/experiments/schemas';
import { getRecoveryStrategy } from '#data/recovery-strategy-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { AB_VARIANTS, createCampaignWithEmail } from '#test/fixtures/ab-tests';
import { admin } from '#test/fixtures/admin-cli';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { seedPayment } from '#test/fixtures/payments';
import { expectOtherMerchantGets404, newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

// The CLI runs in a process of its own and every test makes several calls: seconds on a busy machine.
jest.setTimeout(90_000);

interface Experiment {
  id: string;
  kind: string;
  status: string;
  variants: { key: string; is_control: boolean; setting: Record<string, unknown> }[];
  winner: string | null;
  source: { type: string; id: string | null };
  minimum_sample_per_variant: number;
}
interface Body<T> {
  data: T;
  pagination?: { total: number };
  error?: { code: string; param?: string; message: string };
}
interface Assignment {
  customer_id: string;
  assignments: { experiment_id: string; variant: string; is_control: boolean; frozen: boolean; setting: Record<string, unknown> }[];
}
interface Results {
  variants: { key: string; exposures: number; conversions: number; rate: number | null }[];
  minimum_sample_reached: boolean;
  winner: string | null;
  reason: string;
  srm: { detected: boolean };
}

describe('/api/v1/experiments', () => {
  let stack: LocalStack;
  let tenant: Tenant;

  beforeAll(async () => {
    stack = await startTestStack();
  }, 60_000);

  beforeEach(async () => {
    tenant = await newTenant(['admin'], UNLIMITED);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const url = (path: string) => `${stack.api_url}/experiments${path}`;
  const get = <T>(path: string, key = tenant.key) => call<Body<T>>(url(path), { key });
  const post = <T>(path: string, body?: unknown, key = tenant.key) =>
    call<Body<T>>(url(path), { method: 'POST', key, ...(body === undefined ? {} : { body }) });

  async function start(variants: unknown[] = [{}, { delay_hours: 12 }], extra: string[] = []): Promise<Experiment> {
    const run = await admin([
      'experiments',
      'start',
      '--merchant',
      tenant.merchant.id,
      '--kind',
      'retry_timing',
      '--variants',
      JSON.stringify(variants),
      ...extra,
    ]);
    if (run.code !== 0) throw new Error(`experiments start exited ${run.code}: ${run.stderr}`);
    return JSON.parse(run.stdout) as Experiment;
  }

  describe('the operator CLI (experiments start)', () => {
    it('starts a running experiment with the control first and prints it as JSON', async () => {
      // Act
      const experiment = await start([{}, { delay_hours: 12 }], ['--min-sample', '40', '--name', 'Twelve hours']);
      // Assess
      expect(experiment).toMatchObject({ kind: 'retry_timing', status: 'running', minimum_sample_per_variant: 40, source: { type: 'cli', id: null } });
      expect(experiment.variants.map((v) => v.key)).toEqual(['control', 'treatment']);
      expect((await get<Experiment>(`/${experiment.id}`)).body.data).toMatchObject({ id: experiment.id, name: 'Twelve hours' });
    });

    it.each([
      [['--kind', 'colour', '--variants', '[{},{}]'], /unknown --kind "colour"/],
      [['--kind', 'retry_timing', '--variants', 'not json'], /JSON array/],
      [['--kind', 'retry_timing', '--variants', '[{},{"delay_hours":0}]'], /variants\[1\]\.delay_hours/],
      [['--kind', 'retry_timing', '--variants', '[{}]'], /2-4 variants/],
      [['--kind', 'retry_timing', '--variants', '[{},{}]', '--min-sample', '5'], /min_sample/],
    ])('refuses %j with exit 2 and one line on stderr', async (args, message) => {
      // Act
      const run = await admin(['experiments', 'start', '--merchant', tenant.merchant.id, ...args]);
      // Assess
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    });

    it('refuses a second running experiment of the same kind (exit 2), and an unknown merchant', async () => {
      // Prepare
      await start();
      // Act
      const second = await admin(['experiments', 'start', '--merchant', tenant.merchant.id, '--kind', 'retry_timing', '--variants', '[{},{"delay_hours":6}]']);
      const unknown = await admin(['experiments', 'start', '--merchant', 'merch_nobody', '--kind', 'retry_timing', '--variants', '[{},{}]']);
      // Assess
      expect(second.code).toBe(2);
      expect(second.stderr).toMatch(/already tests retry_timing/);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toMatch(/unknown merchant/);
    });
  });

  describe('GET /experiments and GET /experiments/{id}', () => {
    it('lists recovery experiments and email A/B tests (kind email_subject), filtered by status and kind', async () => {
      // Prepare
      const experiment = await start();
      const campaignId = await createCampaignWithEmail(stack.api_url, tenant.key);
      const abTest = await call<Body<{ id: string }>>(`${stack.api_url}/email/ab-test`, {
        method: 'POST',
        key: tenant.key,
        body: { campaign_id: campaignId, variants: AB_VARIANTS },
      });
      expect(abTest.status).toBe(201);
      // Act
      const all = await get<Experiment[]>('');
      const emailOnly = await get<Experiment[]>('?kind=email_subject');
      const stopped = await get<Experiment[]>('?status=stopped');
      // Assess
      expect(all.status).toBe(200);
      expect(listExperimentsSchemas.responses[200].safeParse(all.body).success).toBe(true);
      expect(all.body.data.map((e) => e.id).sort()).toEqual([experiment.id, abTest.body.data.id].sort());
      expect(all.body.pagination?.total).toBe(2);
      expect(emailOnly.body.data).toEqual([
        expect.objectContaining({ id: abTest.body.data.id, kind: 'email_subject', status: 'running', source: { type: 'email_ab_test', id: campaignId } }),
      ]);
      expect(stopped.body.data).toEqual([]);
      const one = await get<Experiment>(`/${abTest.body.data.id}`);
      expect(one.status).toBe(200);
      expect(getExperimentSchemas.responses[200].safeParse(one.body).success).toBe(true);
      expect(one.body.data.variants[1]?.setting).toEqual({ subject: AB_VARIANTS[1]?.subject, template_id: AB_VARIANTS[1]?.template_id });
    });

    it.each([
      ['?status=paused', 400, 'invalid_request', 'status'],
      ['?kind=colour', 400, 'invalid_request', 'kind'],
      ['?per_page=500', 422, 'validation_error', 'per_page'],
      ['?outcome=recovered', 400, 'invalid_request', 'outcome'],
    ])('answers an error with param for %s (an unknown filter value is 400, DESIGN §1)', async (query, status, code, param) => {
      // Act
      const response = await get<unknown>(query);
      // Assess
      expect(response.status).toBe(status);
      expect(response.body.error).toMatchObject({ code, param });
    });

    it("answers 404 for another merchant's experiment, an unknown id and a 10 KB id", async () => {
      // Prepare
      const experiment = await start();
      // Act
      const unknown = await get<unknown>('/xp_01JZZZZZZZZZZZZZZZZZZZZZZZ');
      const huge = await get<unknown>(`/${'x'.repeat(10_240)}`);
      // Assess
      await expectOtherMerchantGets404(url(`/${experiment.id}`));
      await expectOtherMerchantGets404(url(`/${experiment.id}/results`));
      await expectOtherMerchantGets404(url(`/${experiment.id}/stop`), { method: 'POST' });
      await expectOtherMerchantGets404(url(`/${experiment.id}/promote`), { method: 'POST' });
      expect(unknown.status).toBe(404);
      expect(huge.status).toBe(404);
    });

    it('needs read to list and write to promote or stop', async () => {
      // Prepare
      const experiment = await start();
      const reader = await newTenant(['read:payments']);
      const readOnly = (await newTenant(['read'])).key;
      // Act
      const list = await get<unknown>('', reader.key);
      const stop = await post<unknown>(`/${experiment.id}/stop`, undefined, readOnly);
      // Assess
      expect(list.status).toBe(403);
      expect(stop.status).toBe(403);
      expect(stop.body.error?.code).toBe('insufficient_scope');
    });
  });

  describe('GET /experiments/assign/{customer_id}', () => {
    it("answers the customer's variant, the same on every call, and counts one exposure", async () => {
      // Prepare
      const experiment = await start();
      const payment = await seedPayment(tenant.merchant.id, { customer: { email: 'assign@example.com', name: 'Assign' } });
      // Act
      const first = await get<Assignment>(`/assign/${payment.customer_id}`);
      const again = await get<Assignment>(`/assign/${payment.customer_id}`);
      await stack.runtime.stream.drain();
      const results = await get<Results>(`/${experiment.id}/results`);
      // Assess
      expect(first.status).toBe(200);
      expect(getExperimentAssignmentSchemas.responses[200].safeParse(first.body).success).toBe(true);
      expect(first.body.data.assignments).toHaveLength(1);
      expect(first.body.data.assignments[0]).toMatchObject({ experiment_id: experiment.id, frozen: false });
      expect(again.body.data).toEqual(first.body.data);
      const exposures = results.body.data.variants.reduce((sum, v) => sum + v.exposures, 0);
      // The payment's own retry plan assigned the customer first (a retry-timing experiment): still one exposure.
      expect(exposures).toBe(1);
    });

    it("answers 404 for another merchant's customer and an unknown one", async () => {
      // Prepare
      await start();
      const payment = await seedPayment(tenant.merchant.id, { customer: { email: 'mine@example.com', name: 'Mine' } });
      // Act
      const unknown = await get<unknown>('/assign/cust_nobody');
      // Assess
      await expectOtherMerchantGets404(url(`/assign/${payment.customer_id}`));
      expect(unknown.status).toBe(404);
    });
  });

  describe('conversions', () => {
    it('counts a payment the provider reports succeeded (ingest) as a conversion of its assigned customer, once', async () => {
      // Prepare
      const experiment = await start();
      const payment = await seedPayment(tenant.merchant.id, { customer: { email: 'paid@example.com', name: 'Paid' }, providerPaymentId: 'ch_paid_xp' });
      const succeeded = {
        event_type: 'payment_succeeded',
        amount_cents: payment.amount,
        currency: 'usd',
        customer_email: 'paid@example.com',
        metadata: { payment_id: 'ch_paid_xp' },
      };
      // Act
      const ingested = await call(`${stack.api_url}/ingest/payment-event`, { method: 'POST', key: tenant.key, body: succeeded });
      const again = await call(`${stack.api_url}/ingest/payment-event`, { method: 'POST', key: tenant.key, body: succeeded });
      await stack.runtime.stream.drain();
      const results = await get<Results>(`/${experiment.id}/results`);
      // Assess
      expect(ingested.status).toBeLessThan(300);
      expect(again.status).toBeLessThan(300);
      const counted = results.body.data.variants.filter((v) => v.exposures > 0);
      expect(counted).toEqual([expect.objectContaining({ exposures: 1, conversions: 1, rate: 1 })]);
    });
  });

  describe('POST /experiments/{id}/stop', () => {
    it('stops a running experiment: everyone gets the control, frozen; a second stop is 409', async () => {
      // Prepare
      const experiment = await start();
      const payments = await Promise.all(
        Array.from({ length: 6 }, (_, i) => seedPayment(tenant.merchant.id, { customer: { email: `stop${i}@example.com`, name: `Stop ${i}` } })),
      );
      // Act
      const stopped = await post<Experiment>(`/${experiment.id}/stop`);
      const assigned = await Promise.all(payments.map((p) => get<Assignment>(`/assign/${p.customer_id}`)));
      const again = await post<unknown>(`/${experiment.id}/stop`);
      // Assess
      expect(stopped.status).toBe(200);
      expect(stopped.body.data.status).toBe('stopped');
      for (const response of assigned) expect(response.body.data.assignments[0]).toMatchObject({ variant: 'control', is_control: true, frozen: true });
      expect(again.status).toBe(409);
      expect(again.body.error?.code).toBe('state_conflict');
    });
  });

  describe('POST /experiments/{id}/promote', () => {
    it('refuses 409 before the minimum sample, then force=true promotes the best observed variant into the default', async () => {
      // Prepare
      const experiment = await start([{}, { delay_hours: 12 }], ['--min-sample', '30']);
      // Act
      const early = await post<unknown>(`/${experiment.id}/promote`);
      const forced = await post<{ experiment: Experiment; forced: boolean; promoted_variant: { key: string }; default_setting: Record<string, unknown> }>(
        `/${experiment.id}/promote?force=true`,
      );
      const twice = await post<unknown>(`/${experiment.id}/promote`, { force: true });
      // Assess
      expect(early.status).toBe(409);
      expect(early.body.error?.message).toMatch(/30 exposures/);
      expect(forced.status).toBe(200);
      expect(promoteExperimentSchemas.responses[200].safeParse(forced.body).success).toBe(true);
      expect(forced.body.data).toMatchObject({ forced: true, promoted_variant: { key: 'control' }, experiment: { status: 'promoted', winner: 'control' } });
      expect((await getRecoveryStrategy(tenant.merchant.id)).retry_timing).toEqual({});
      expect(twice.status).toBe(409);
    });

    it('accepts force in the body, and refuses a force that is not a boolean', async () => {
      // Prepare
      const experiment = await start();
      // Act
      const bad = await post<unknown>(`/${experiment.id}/promote?force=yes`);
      const badBody = await post<unknown>(`/${experiment.id}/promote`, { force: 'yes' });
      const promoted = await post<{ forced: boolean }>(`/${experiment.id}/promote`, { force: true });
      // Assess
      expect(bad.status).toBe(400);
      expect(bad.body.error?.param).toBe('force');
      expect(badBody.status).toBe(422);
      expect(badBody.body.error?.param).toBe('force');
      expect(promoted.status).toBe(200);
    });

    it('answers 409 for an email A/B test, which its evaluate route promotes', async () => {
      // Prepare
      const campaignId = await createCampaignWithEmail(stack.api_url, tenant.key);
      const abTest = await call<Body<{ id: string }>>(`${stack.api_url}/email/ab-test`, {
        method: 'POST',
        key: tenant.key,
        body: { campaign_id: campaignId, variants: AB_VARIANTS },
      });
      // Act
      const promote = await post<unknown>(`/${abTest.body.data.id}/promote`, { force: true });
      const results = await get<Results>(`/${abTest.body.data.id}/results`);
      // Assess
      expect(promote.status).toBe(409);
      expect(promote.body.error?.message).toMatch(/evaluate/);
      expect(results.status).toBe(200);
      expect(getExperimentResultsSchemas.responses[200].safeParse(results.body).success).toBe(true);
      expect(results.body.data).toMatchObject({ winner: null, reason: 'insufficient_sample' });
    });
  });
});
