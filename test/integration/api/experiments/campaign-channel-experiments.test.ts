/**
 * Campaign and channel experiments act on the dunning the service does, over real paths: failed
 * payments ingested over HTTP are enrolled in the campaign of their customer's variant (or in none),
 * the hourly job sends an email step on the channels of the customer's variant (the local outbox and
 * the local SMS sender), GET /experiments/{id}/results counts the exposures and the conversions
 * (payments recovered through ingest), and a promoted winner steers every customer afterwards.
 */
import { listOutboxEmails } from '#adapters/email/outbox';
import { type CampaignFields, newCampaign } from '#core/campaigns/lifecycle';
import type { CampaignRecord } from '#core/campaigns/types';
import { type ExperimentRecord, newExperiment, variantFor } from '#core/experiments/experiment';
import { changeCampaignStatus, createCampaign } from '#data/campaign-repository';
import { listLocalMessages } from '#data/channel-repository';
import { documentClient } from '#data/client';
import { getCustomer } from '#data/customer-repository';
import { getEnrollment } from '#data/enrollment-repository';
import { putExperiment } from '#data/experiment-repository';
import { experimentKeys } from '#data/keys';
import { getPayment } from '#data/payment-repository';
import { handler as hourly } from '#jobs/hourly';
import type { LocalStack } from '#lib/local/local-stack';
import { startExperiment } from '#services/experiments';
import { ingestPaymentEvent } from '#services/ingest-payment-event';
import { admin } from '#test/fixtures/admin-cli';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

// Dozens of ingests, hourly runs and queue drains per test: tens of seconds on a busy machine.
jest.setTimeout(180_000);

interface Body<T> {
  data: T;
  error?: { code: string; param?: string; message: string };
}
interface Results {
  variants: { key: string; exposures: number; conversions: number }[];
}
interface Failed {
  paymentId: string;
  customerId: string;
  email: string;
  providerId: string;
  phone: string | null;
}

let sequence = 0;
const unique = (prefix: string): string => `${prefix}_${(sequence += 1)}_${Math.random().toString(36).slice(2, 8)}`;

/** One email step, due at once, any hour. */
const ONE_EMAIL: CampaignFields = {
  name: 'Reach out',
  trigger: 'payment_failed',
  filters: {},
  steps: [{ action: 'email', delay_hours: 0, template_id: 'tmpl_soft_decline_1' }],
  delay_hours: 0,
  start_hour: 0,
  end_hour: 23,
};

describe('campaign and channel experiments', () => {
  let stack: LocalStack;

  const ingest = (tenant: Tenant, body: Record<string, unknown>) =>
    call<Body<{ payment_event_id: string | null }>>(`${stack.api_url}/ingest/payment-event`, { method: 'POST', key: tenant.key, body });
  const results = async (tenant: Tenant, experiment: ExperimentRecord) => {
    await stack.runtime.stream.drain();
    const response = await call<Body<Results>>(`${stack.api_url}/experiments/${experiment.id}/results`, { key: tenant.key });
    expect(response.status).toBe(200);
    return Object.fromEntries(response.body.data.variants.map((v) => [v.key, { exposures: v.exposures, conversions: v.conversions }]));
  };
  const promote = (tenant: Tenant, experiment: ExperimentRecord) =>
    call<Body<{ promoted_variant: { key: string } }>>(`${stack.api_url}/experiments/${experiment.id}/promote?force=true`, { method: 'POST', key: tenant.key });
  const campaignOf = async (tenant: Tenant, paymentId: string) =>
    (await call<Body<{ campaign_id: string | null }>>(`${stack.api_url}/recoveries/${paymentId}`, { key: tenant.key })).body.data.campaign_id;

  /** An active campaign of the tenant (activated now: an earlier one wins normal matching). */
  const activeCampaign = async (tenant: Tenant, fields: CampaignFields = ONE_EMAIL): Promise<CampaignRecord> => {
    const draft = await createCampaign(newCampaign(tenant.merchant.id, fields, new Date()));
    return changeCampaignStatus(tenant.merchant.id, draft.id, 'activate');
  };

  /** Ingests a failed payment of a new customer (with a phone number when asked). */
  const fail = async (tenant: Tenant, withPhone = true): Promise<Failed> => {
    const email = `${unique('buyer')}@example.com`;
    const providerId = unique('ch');
    const phone = withPhone ? `+1415555${String(1000 + (sequence % 9000)).padStart(4, '0')}` : null;
    const response = await ingest(tenant, {
      event_type: 'payment_failed',
      amount_cents: 4999,
      currency: 'usd',
      customer_email: email,
      decline_code: 'insufficient_funds',
      metadata: { psp: 'stripe', payment_id: providerId, ...(phone === null ? {} : { customer_phone: phone }) },
    });
    expect(response.status).toBe(200);
    const paymentId = response.body.data.payment_event_id as string;
    const payment = await getPayment(tenant.merchant.id, paymentId);
    return { paymentId, customerId: payment?.customer_id as string, email, providerId, phone };
  };

  /** Ingests failures of new customers until every variant has at least `each` of them; the customers by variant. */
  const failUntilEveryVariant = async (tenant: Tenant, experiment: ExperimentRecord, each = 2): Promise<Record<string, Failed[]>> => {
    const byVariant: Record<string, Failed[]> = Object.fromEntries(experiment.variants.map((v) => [v.key, []]));
    for (let i = 0; i < 80 && Object.values(byVariant).some((list) => list.length < each); i += 1) {
      const failed = await fail(tenant);
      byVariant[variantFor(experiment, failed.customerId).key]?.push(failed);
    }
    return byVariant;
  };

  const recover = (tenant: Tenant, failed: Failed) =>
    ingest(tenant, {
      event_type: 'payment_succeeded',
      amount_cents: 4999,
      currency: 'usd',
      customer_email: failed.email,
      metadata: { payment_id: failed.providerId },
    });

  /** Runs the hourly job when every enrollment of `failed` is due, then the notifications queue. */
  const runStepsOf = async (tenant: Tenant, failed: readonly Failed[]): Promise<void> => {
    const due = await Promise.all(failed.map(async (f) => Date.parse((await getEnrollment(tenant.merchant.id, f.paymentId))?.next_step_at as string)));
    const at = new Date(Math.ceil(Math.max(...due) / 1000) * 1000 + 1000);
    const report = await hourly({
      schedule: 'hourly',
      scheduled_time: at.toISOString().replace('.000Z', 'Z'),
      execution_id: unique('run'),
      attempt_number: 1,
      schedule_arn: 'arn:aws:scheduler:us-east-1:000000000000:schedule/default/hourly',
    });
    expect(report.tasks.find((t) => t.name === 'advance-campaign-steps')?.status).toBe('ok');
    await stack.runtime.queues.drain();
  };

  /** What the customer was sent: emails in the outbox and texts kept by the local SMS sender. */
  const sentTo = async (tenant: Tenant, failed: Failed) => {
    const [emails, texts] = await Promise.all([listOutboxEmails(tenant.merchant.id), listLocalMessages(tenant.merchant.id, { channel: 'sms', limit: 1000 })]);
    return {
      emails: emails.filter((email) => email.to === failed.email).length,
      sms: failed.phone === null ? 0 : texts.filter((text) => text.to === failed.phone).length,
    };
  };

  beforeAll(async () => {
    stack = await startTestStack();
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
  });

  describe('campaign', () => {
    it('enrolls each customer in the campaign of their variant or in none, counts exposures and conversions, and a promoted winner enrolls everyone after', async () => {
      // Prepare: A wins normal matching (activated first); the experiment sends customers to A, to B, or to no campaign
      const tenant = await newTenant(['admin'], UNLIMITED);
      const a = await activeCampaign(tenant);
      const b = await activeCampaign(tenant, { ...ONE_EMAIL, name: 'Gentle' });
      const experiment = await startExperiment({
        merchantId: tenant.merchant.id,
        name: 'Which campaign',
        kind: 'campaign',
        settings: [{ campaign_id: a.id }, { campaign_id: b.id }, { campaign_id: null }],
        minimumSample: 30,
        source: { type: 'cli', id: null },
      });

      // Act
      const byVariant = await failUntilEveryVariant(tenant, experiment);
      const enrolled = Object.fromEntries(
        await Promise.all(
          Object.entries(byVariant).map(async ([variant, list]) => [variant, await Promise.all(list.map((f) => campaignOf(tenant, f.paymentId)))] as const),
        ),
      );
      const converting = byVariant.treatment?.[0] as Failed;
      expect((await recover(tenant, converting)).status).toBe(200);
      const counted = await results(tenant, experiment);
      const promoted = await promote(tenant, experiment);
      const after = [await fail(tenant), await fail(tenant), await fail(tenant)];
      const afterCampaigns = await Promise.all(after.map((f) => campaignOf(tenant, f.paymentId)));
      const countedAfter = await results(tenant, experiment);

      // Assess: the control's campaign, the treatment's, and no campaign at all
      expect(new Set(enrolled.control)).toEqual(new Set([a.id]));
      expect(new Set(enrolled.treatment)).toEqual(new Set([b.id]));
      expect(new Set(enrolled.treatment_2)).toEqual(new Set([null]));
      expect(await getEnrollment(tenant.merchant.id, byVariant.treatment_2?.[0]?.paymentId as string)).toBeUndefined();
      // Assess: every customer exposed once, at ingest; the recovery converts the treatment
      expect(counted).toEqual({
        control: { exposures: byVariant.control?.length, conversions: 0 },
        treatment: { exposures: byVariant.treatment?.length, conversions: 1 },
        treatment_2: { exposures: byVariant.treatment_2?.length, conversions: 0 },
      });
      // Assess: the winner (the best observed rate) is the default: every new failure goes to B, and nobody more is exposed
      expect(promoted.status).toBe(200);
      expect(promoted.body.data.promoted_variant.key).toBe('treatment');
      expect(afterCampaigns).toEqual([b.id, b.id, b.id]);
      expect(countedAfter).toEqual(counted);
    });

    it("falls back to normal matching when the variant's campaign is another merchant's or no longer active", async () => {
      // Prepare: the experiment written as if its campaigns had been the merchant's (one is another's, one is paused since)
      const tenant = await newTenant(['admin'], UNLIMITED);
      const other = await newTenant(['admin'], UNLIMITED);
      const own = await activeCampaign(tenant);
      const paused = await activeCampaign(tenant, { ...ONE_EMAIL, name: 'Paused' });
      await changeCampaignStatus(tenant.merchant.id, paused.id, 'pause');
      const foreign = await activeCampaign(other);
      const experiment = await putExperiment(
        newExperiment(
          {
            merchantId: tenant.merchant.id,
            name: 'Broken campaigns',
            kind: 'campaign',
            settings: [{ campaign_id: foreign.id }, { campaign_id: paused.id }],
            source: { type: 'cli', id: null },
          },
          new Date(),
        ),
      );

      // Act
      const byVariant = await failUntilEveryVariant(tenant, experiment, 1);
      const campaigns = await Promise.all(Object.values(byVariant).flatMap((list) => list.map((f) => campaignOf(tenant, f.paymentId))));

      // Assess: nobody enrolled in the other merchant's campaign or the paused one: the merchant's matching campaign took them
      expect(new Set(campaigns)).toEqual(new Set([own.id]));
      expect(await results(tenant, experiment)).toEqual({
        control: { exposures: byVariant.control?.length, conversions: 0 },
        treatment: { exposures: byVariant.treatment?.length, conversions: 0 },
      });
    });

    it("reads the merchant's experiments once for a failed payment's retry plan and enrollment together", async () => {
      // Prepare: count the Queries of the merchant's experiments that reach the table
      const tenant = await newTenant(['admin'], UNLIMITED);
      const a = await activeCampaign(tenant);
      await startExperiment({
        merchantId: tenant.merchant.id,
        name: 'Campaign or not',
        kind: 'campaign',
        settings: [{ campaign_id: a.id }, { campaign_id: null }],
        source: { type: 'cli', id: null },
      });
      const prefix = experimentKeys.experimentPrefix(tenant.merchant.id);
      let experimentQueries = 0;
      const name = unique('count-experiment-queries');
      documentClient.middlewareStack.add(
        (next) => async (args) => {
          const values = (args.input as { ExpressionAttributeValues?: Record<string, unknown> }).ExpressionAttributeValues;
          if (values?.[':pk'] === prefix.PK && values[':sk'] === prefix.SKPrefix) experimentQueries += 1;
          return next(args);
        },
        { step: 'initialize', name },
      );

      // Act
      try {
        await ingestPaymentEvent(
          tenant.merchant.id,
          {
            type: 'payment_failed',
            amount: 4999,
            currency: 'usd',
            customerEmail: `${unique('once')}@example.com`,
            declineCode: 'insufficient_funds',
            metadata: {},
          },
          new Date(),
        );
      } finally {
        documentClient.middlewareStack.remove(name);
      }

      // Assess
      expect(experimentQueries).toBe(1);
    });

    it("refuses at start (CLI exit 2, param named) a campaign that is not the merchant's, and starts one with the merchant's own", async () => {
      // Prepare
      const tenant = await newTenant(['admin'], UNLIMITED);
      const other = await newTenant(['admin'], UNLIMITED);
      const own = await activeCampaign(tenant);
      const foreign = await activeCampaign(other);
      const start = (variants: unknown[]) =>
        admin(['experiments', 'start', '--merchant', tenant.merchant.id, '--kind', 'campaign', '--variants', JSON.stringify(variants)]);

      // Act
      const refused = await start([{ campaign_id: own.id }, { campaign_id: foreign.id }]);
      const unknown = await start([{ campaign_id: 'camp_nothing' }, { campaign_id: null }]);
      const started = await start([{ campaign_id: own.id }, { campaign_id: null }]);

      // Assess
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/variants\[1\]\.campaign_id .* is not one of the merchant's campaigns/);
      expect(refused.stderr.trim().split('\n')).toHaveLength(1);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toMatch(/variants\[0\]\.campaign_id/);
      expect(started.code).toBe(0);
      expect(JSON.parse(started.stdout)).toMatchObject({
        kind: 'campaign',
        status: 'running',
        variants: [{ setting: { campaign_id: own.id } }, { setting: { campaign_id: null } }],
      });
    });
  });

  describe('channel', () => {
    it('keeps the customer_phone ingest gives (the newest wins) and refuses one that is not E.164 with its param', async () => {
      // Prepare
      const tenant = await newTenant(['admin'], UNLIMITED);
      const first = await fail(tenant);
      const event = (phone: unknown) => ({
        event_type: 'payment_failed',
        amount_cents: 1999,
        currency: 'usd',
        customer_email: first.email,
        decline_code: 'insufficient_funds',
        metadata: { payment_id: unique('ch'), customer_phone: phone },
      });

      // Act
      const changed = await ingest(tenant, event('+447700900123'));
      const refused = await Promise.all(['0044 7700 900123', '+0123456789', 'x'.repeat(10_240), 4155550123].map((phone) => ingest(tenant, event(phone))));

      // Assess
      expect(changed.status).toBe(200);
      expect(await getPayment(tenant.merchant.id, changed.body.data.payment_event_id as string)).toMatchObject({ customer_id: first.customerId });
      for (const response of refused) {
        expect(response.status).toBe(422);
        expect(response.body.error).toMatchObject({ code: 'validation_error', param: 'metadata.customer_phone' });
      }
      expect((await getCustomer(tenant.merchant.id, first.customerId))?.phone).toBe('+447700900123');
      const shown = await call<Body<{ phone: string | null }>>(`${stack.api_url}/customers/${first.customerId}`, { key: tenant.key });
      expect(shown.body.data.phone).toBe('+447700900123');
    });

    it('sends an email step by email alone to the control and by email and SMS to the treatment, counts both, and a promoted winner texts everyone after', async () => {
      // Prepare: the add_sms_step experiment (email against email + sms) on a one-email campaign
      const tenant = await newTenant(['admin'], UNLIMITED);
      await activeCampaign(tenant);
      const experiment = await startExperiment({
        merchantId: tenant.merchant.id,
        name: 'Add an SMS step',
        kind: 'channel',
        settings: [{ channels: ['email'] }, { channels: ['email', 'sms'] }],
        minimumSample: 30,
        source: { type: 'cli', id: null },
      });
      const byVariant = await failUntilEveryVariant(tenant, experiment);
      // Customers without a phone number, until one is in the treatment: email only.
      const withoutPhone: Failed[] = [];
      while (withoutPhone.length < 40 && !withoutPhone.some((f) => variantFor(experiment, f.customerId).key === 'treatment'))
        withoutPhone.push(await fail(tenant, false));
      const noPhone = withoutPhone.find((f) => variantFor(experiment, f.customerId).key === 'treatment') as Failed;
      const everyone = [...Object.values(byVariant).flat(), ...withoutPhone];
      const exposedIn = (variant: string) => everyone.filter((f) => variantFor(experiment, f.customerId).key === variant).length;
      const exposedBeforeSteps = await results(tenant, experiment);

      // Act
      await runStepsOf(tenant, everyone);
      const sent = Object.fromEntries(
        await Promise.all(Object.entries(byVariant).map(async ([variant, list]) => [variant, await Promise.all(list.map((f) => sentTo(tenant, f)))] as const)),
      );
      const treated = await getEnrollment(tenant.merchant.id, byVariant.treatment?.[0]?.paymentId as string);
      expect((await recover(tenant, byVariant.treatment?.[0] as Failed)).status).toBe(200);
      const counted = await results(tenant, experiment);
      const promoted = await promote(tenant, experiment);
      const later = await fail(tenant);
      await runStepsOf(tenant, [later]);

      // Assess: the channel is decided when the step runs, not at ingest
      expect(exposedBeforeSteps).toEqual({ control: { exposures: 0, conversions: 0 }, treatment: { exposures: 0, conversions: 0 } });
      // Assess: the control gets today's email alone; the treatment the email and an SMS; no phone, no SMS
      expect(sent.control).toEqual(byVariant.control?.map(() => ({ emails: 1, sms: 0 })));
      expect(sent.treatment).toEqual(byVariant.treatment?.map(() => ({ emails: 1, sms: 1 })));
      expect(await sentTo(tenant, noPhone)).toEqual({ emails: 1, sms: 0 });
      expect(treated?.steps[0]).toMatchObject({
        action: 'email',
        outcome: 'message_queued: email, sms',
        message_ids: [expect.any(String), expect.any(String)],
      });
      // Assess: exposures and the conversion
      expect(counted).toEqual({
        control: { exposures: exposedIn('control'), conversions: 0 },
        treatment: { exposures: exposedIn('treatment'), conversions: 1 },
      });
      // Assess: the promoted treatment texts every customer from then on
      expect(promoted.body.data.promoted_variant.key).toBe('treatment');
      expect(await sentTo(tenant, later)).toEqual({ emails: 1, sms: 1 });
    });
  });
});
