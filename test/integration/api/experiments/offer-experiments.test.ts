/**
 * Offer experiments act on cancel sessions over HTTP: the customer's variant replaces the offer of
 * the flow's offer steps (its type and value) or leaves them out (`none`), the start of a session
 * with an offer step is the exposure, a save is the conversion (a recovered payment is not), and a
 * promoted winner is every customer's offer afterwards.
 */
import { type ExperimentRecord, variantFor } from '#core/experiments/experiment';
import type { LocalStack } from '#lib/local/local-stack';
import { recordExperimentConversion } from '#services/experiment-conversions';
import { startExperiment } from '#services/experiments';
import { createFlow, SURVEY_FLOW } from '#test/fixtures/cancel-flows';
import { seedCustomerPayment } from '#test/fixtures/customers';
import { call } from '#test/fixtures/http';
import { originOf, startTestStack } from '#test/fixtures/local-stack';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

// Dozens of sessions started and advanced per test: seconds on a busy machine.
jest.setTimeout(120_000);

interface Session {
  token?: string;
  url?: string;
  state: string;
  current_step: { id: string; step_type: string; offer: { type: string; value: number | string; duration_months: number | null } | null } | null;
  outcome: string | null;
}
interface Body<T> {
  data: T;
  error?: { code: string; param?: string; message: string };
}
interface Started {
  customerId: string;
  token: string;
  url: string;
}

describe('offer experiments on cancel sessions', () => {
  let stack: LocalStack;
  let tenant: Tenant;
  let experiment: ExperimentRecord;

  const edge = (path: string) => `${originOf(stack)}/api/cancel-session${path}`;
  const advance = (token: string, body: unknown) => call<Body<Session>>(edge(`/${token}/advance`), { method: 'POST', body });
  const newCustomer = async () =>
    (await seedCustomerPayment(tenant.merchant.id, { email: `c${Math.random().toString(36).slice(2, 10)}@example.com` })).customer_id;
  const start = async (customerId: string): Promise<Started> => {
    const response = await call<Body<Session>>(edge('/start'), {
      method: 'POST',
      key: tenant.key,
      body: { merchant_id: tenant.merchant.id, customer_id: customerId },
    });
    expect(response.status).toBe(201);
    return { customerId, token: response.body.data.token as string, url: response.body.data.url as string };
  };
  /** Answers the survey "too expensive", which branches to the flow's discount offer step; the step the customer is then on. */
  const tooExpensive = async (session: Started) => (await advance(session.token, { selected_reason: 'too_expensive' })).body.data.current_step;
  const results = async () => {
    await stack.runtime.stream.drain();
    const response = await call<Body<{ variants: { key: string; exposures: number; conversions: number }[] }>>(
      `${stack.api_url}/experiments/${experiment.id}/results`,
      { key: tenant.key },
    );
    return Object.fromEntries(response.body.data.variants.map((v) => [v.key, { exposures: v.exposures, conversions: v.conversions }]));
  };

  beforeAll(async () => {
    stack = await startTestStack();
  }, 60_000);

  beforeEach(async () => {
    tenant = await newTenant(['admin'], UNLIMITED);
    await createFlow(stack.api_url, tenant, SURVEY_FLOW, true);
    // The control keeps the flow's discount (30% for 3 months); the treatments offer nothing, or a 3-month pause.
    experiment = await startExperiment({
      merchantId: tenant.merchant.id,
      name: 'Which offer',
      kind: 'offer',
      settings: [{ offer_type: 'discount' }, { offer_type: 'none' }, { offer_type: 'pause', offer_value: '3 months' }],
      minimumSample: 30,
      source: { type: 'cli', id: null },
    });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  /** Starts sessions for new customers until every variant has at least one; the sessions by variant. */
  const startUntilEveryVariant = async (): Promise<Record<string, Started[]>> => {
    const byVariant: Record<string, Started[]> = { control: [], treatment: [], treatment_2: [] };
    for (let i = 0; i < 60 && Object.values(byVariant).some((list) => list.length === 0); i += 1) {
      const session = await start(await newCustomer());
      byVariant[variantFor(experiment, session.customerId).key]?.push(session);
    }
    return byVariant;
  };

  it("shows each customer their variant's offer, counts the sessions as exposures and the saves as conversions, and a promoted winner is everyone's offer after", async () => {
    // Prepare
    const byVariant = await startUntilEveryVariant();
    const exposed = await results();

    // Act: every customer says it is too expensive; one pause customer accepts the offer, one control customer declines it
    const shown = Object.fromEntries(
      await Promise.all(Object.entries(byVariant).map(async ([variant, list]) => [variant, await Promise.all(list.map(tooExpensive))] as const)),
    );
    const paused = byVariant.treatment_2?.[0] as Started;
    const page = await call(`${originOf(stack)}/cancel/${paused.token}`);
    const accepted = await advance(paused.token, { response: { accepted: true } });
    const decliner = byVariant.control?.[0] as Started;
    const declined = await advance(decliner.token, { response: { accepted: false } });
    const counted = await results();
    const promoted = await call<Body<{ promoted_variant: { key: string } }>>(`${stack.api_url}/experiments/${experiment.id}/promote?force=true`, {
      method: 'POST',
      key: tenant.key,
    });
    const later = await start(await newCustomer());
    const laterStep = await tooExpensive(later);

    // Assess: the flow's discount, no offer at all (the survey goes on to the confirmation), and the discount step turned into a 3-month pause
    for (const step of shown.control ?? []) expect(step).toMatchObject({ id: 'discount', offer: { type: 'discount', value: 30, duration_months: 3 } });
    for (const step of shown.treatment ?? []) expect(step).toMatchObject({ id: 'confirm', step_type: 'confirm', offer: null });
    for (const step of shown.treatment_2 ?? []) expect(step).toMatchObject({ id: 'discount', offer: { type: 'pause', value: 3, duration_months: null } });
    expect(page.text).toContain('Pause your subscription for 3 months');
    // Assess: exposed when the session started; the accepted pause is a save (saved_pause), and converts
    expect(exposed).toEqual({
      control: { exposures: byVariant.control?.length, conversions: 0 },
      treatment: { exposures: byVariant.treatment?.length, conversions: 0 },
      treatment_2: { exposures: byVariant.treatment_2?.length, conversions: 0 },
    });
    expect(accepted.body.data).toMatchObject({ state: 'completed', outcome: 'saved_pause' });
    expect(declined.body.data.current_step).toMatchObject({ id: 'pause' });
    expect(counted).toEqual({ ...exposed, treatment_2: { exposures: byVariant.treatment_2?.length, conversions: 1 } });
    // Assess: the promoted pause is every customer's offer now, and nobody more is exposed
    expect(promoted.body.data.promoted_variant.key).toBe('treatment_2');
    expect(laterStep).toMatchObject({ id: 'discount', offer: { type: 'pause', value: 3 } });
    expect(await results()).toEqual(counted);
  });

  it('counts a save once per customer, and neither a recovered payment nor a cancellation converts', async () => {
    // Prepare: a customer of the pause variant saves twice; a customer of the control cancels
    const byVariant = await startUntilEveryVariant();
    const saver = byVariant.treatment_2?.[0] as Started;
    const canceller = byVariant.control?.[0] as Started;
    const again = await start(saver.customerId);

    // Act
    await tooExpensive(saver);
    await advance(saver.token, { response: { accepted: true } });
    await tooExpensive(again);
    const secondSave = await call<Body<Session>>(edge(`/${again.token}/complete`), { method: 'POST', body: { outcome: 'saved_pause' } });
    const cancelled = await call<Body<Session>>(edge(`/${canceller.token}/complete`), { method: 'POST', body: { outcome: 'cancelled' } });
    await recordExperimentConversion({ merchant_id: tenant.merchant.id, customer_id: canceller.customerId, id: 'pe_recovered' }, new Date());
    const counted = await results();

    // Assess
    expect(secondSave.body.data).toMatchObject({ state: 'completed', outcome: 'saved_pause' });
    expect(cancelled.body.data).toMatchObject({ state: 'completed', outcome: 'cancelled' });
    expect(counted.treatment_2).toEqual({ exposures: byVariant.treatment_2?.length, conversions: 1 });
    expect(counted.control).toEqual({ exposures: byVariant.control?.length, conversions: 0 });
  });

  it('exposes nobody when the flow has no offer step', async () => {
    // Prepare: the merchant's active flow is a survey and a confirmation
    await createFlow(
      stack.api_url,
      tenant,
      {
        name: 'No offers',
        steps: [SURVEY_FLOW.steps[0], SURVEY_FLOW.steps[3]].map((step) => ({ ...step, options: step?.options?.map((o) => ({ ...o, next_step: undefined })) })),
      },
      true,
    );

    // Act
    const session = await start(await newCustomer());
    const step = await tooExpensive(session);

    // Assess
    expect(step).toMatchObject({ id: 'confirm' });
    expect(await results()).toEqual({
      control: { exposures: 0, conversions: 0 },
      treatment: { exposures: 0, conversions: 0 },
      treatment_2: { exposures: 0, conversions: 0 },
    });
  });
});
