/**
 * The campaign engine end to end, over real HTTP and DynamoDB Local: a failed payment ingested
 * while a campaign is active is enrolled; the hourly job, run at simulated times, queues the
 * email step's message, which the notifications consumer sends (the local outbox); recovery,
 * a card update, a paused campaign and erasure end or remove enrollments.
 */
import { listOutboxEmails } from '#adapters/email/outbox';
import { type CampaignFields, newCampaign } from '#core/campaigns/lifecycle';
import type { CampaignRecord } from '#core/campaigns/types';
import { changeCampaignStatus, createCampaign, getCampaign, updateCampaignFields } from '#data/campaign-repository';
import { putQuietHours } from '#data/settings-repository';
import { getEnrollment } from '#data/enrollment-repository';
import { getMessage } from '#data/message-repository';
import { listOutboundEvents } from '#data/outbound-event-repository';
import { paymentTimeline } from '#data/payment-queries';
import { getPayment } from '#data/payment-repository';
import { handler as hourly } from '#jobs/hourly';
import type { LocalStack } from '#lib/local/local-stack';
import { eraseCustomer } from '#services/erase-customer';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

interface IngestData {
  payment_event_id: string | null;
  status: string;
}
interface RecoveryData {
  id: string;
  payment_id: string;
  campaign_id: string | null;
  current_step: number | null;
  total_steps: number | null;
  campaign_status?: string | null;
  campaign_steps?: { index: number; action: string; status: string; at: string | null; outcome: string | null; message_id: string | null }[] | null;
}

let sequence = 0;
const unique = (prefix: string): string => `${prefix}_${(sequence += 1)}_${Math.random().toString(36).slice(2, 8)}`;

/** Runs the hourly job as EventBridge Scheduler would at `at`, and returns its advance-campaign-steps summary. */
async function runHourlyAt(at: Date, execution = 'test'): Promise<Record<string, number>> {
  const report = await hourly({
    schedule: 'hourly',
    scheduled_time: new Date(Math.ceil(at.getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z'),
    execution_id: `${execution}-${at.getTime()}`,
    attempt_number: 1,
    schedule_arn: 'arn:aws:scheduler:us-east-1:000000000000:schedule/default/hourly',
  });
  const task = report.tasks.find((t) => t.name === 'advance-campaign-steps');
  expect(task?.status).toBe('ok');
  return task?.summary as Record<string, number>;
}

const EMAIL_THEN_EMAIL: CampaignFields = {
  name: 'Reach out',
  trigger: 'payment_failed',
  filters: {},
  steps: [
    { action: 'email', delay_hours: 0, template_id: 'tmpl_soft_decline_1' },
    { action: 'email', delay_hours: 24, template_id: 'tmpl_soft_decline_2' },
  ],
  delay_hours: 0,
  start_hour: 0,
  end_hour: 23,
};

describe('campaign engine: enrollment and the hourly advance-campaign-steps job', () => {
  let stack: LocalStack;

  const ingest = (tenant: Tenant, body: Record<string, unknown>) =>
    call<{ data: IngestData }>(`${stack.api_url}/ingest/payment-event`, { method: 'POST', key: tenant.key, body });
  const failure = (customer: string, paymentId: string, overrides: Record<string, unknown> = {}) => ({
    event_type: 'payment_failed',
    amount_cents: 4999,
    currency: 'usd',
    customer_email: customer,
    decline_code: 'insufficient_funds',
    metadata: { psp: 'stripe', payment_id: paymentId },
    ...overrides,
  });
  /** A tenant with one active campaign. */
  const tenantWithCampaign = async (fields: CampaignFields = EMAIL_THEN_EMAIL): Promise<{ tenant: Tenant; campaign: CampaignRecord }> => {
    const tenant = await newTenant(['admin'], UNLIMITED);
    const draft = await createCampaign(newCampaign(tenant.merchant.id, fields, new Date()));
    const campaign = await changeCampaignStatus(tenant.merchant.id, draft.id, 'activate');
    return { tenant, campaign };
  };
  /** Ingests a failure of a new customer and returns its payment id and customer email. */
  const failed = async (tenant: Tenant, overrides: Record<string, unknown> = {}) => {
    const customer = `${unique('buyer')}@example.com`;
    const providerId = unique('ch');
    const response = await ingest(tenant, failure(customer, providerId, overrides));
    expect(response.status).toBe(200);
    return { paymentId: response.body.data.payment_event_id as string, customer, providerId };
  };
  const recovery = async (tenant: Tenant, id: string) =>
    (await call<{ data: RecoveryData }>(`${stack.api_url}/recoveries/${id}`, { key: tenant.key })).body.data;

  beforeAll(async () => {
    stack = await startTestStack();
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  it('enrolls a failed payment, sends the email step through the queue to the outbox, and ends the enrollment as recovered on the next run', async () => {
    // Prepare
    const { tenant, campaign } = await tenantWithCampaign();
    const { paymentId, customer, providerId } = await failed(tenant);
    const enrolled = await getEnrollment(tenant.merchant.id, paymentId);
    const beforeRun = await recovery(tenant, paymentId);

    // Act: the hourly job at the first step's due time, then the queue drained
    const firstRun = await runHourlyAt(new Date(enrolled?.next_step_at as string));
    const delivered = await stack.runtime.queues.drain();
    const afterStep = await getEnrollment(tenant.merchant.id, paymentId);
    const messageId = afterStep?.steps[0]?.message_id as string;
    const outbox = (await listOutboxEmails(tenant.merchant.id)).filter((email) => email.message_id === messageId);
    const detail = await recovery(tenant, paymentId);
    // Act: the payment is recovered, and the next run (at the second step's time) ends the enrollment
    const paid = await ingest(tenant, {
      event_type: 'payment_succeeded',
      amount_cents: 4999,
      currency: 'usd',
      customer_email: customer,
      metadata: { payment_id: providerId },
    });
    const secondRun = await runHourlyAt(new Date(afterStep?.next_step_at as string));
    const ended = await getEnrollment(tenant.merchant.id, paymentId);
    const stats = (await getCampaign(tenant.merchant.id, campaign.id))?.stats;

    // Assess: enrolled at ingest, first step due at once (no delay, window 0-23)
    expect(enrolled).toMatchObject({ campaign_id: campaign.id, status: 'active', step_index: 0, total_steps: 2, steps: [] });
    expect(beforeRun).toMatchObject({ campaign_id: campaign.id, current_step: 1, total_steps: 2, campaign_status: 'active' });
    // Assess: the step ran once, its message was queued and sent to the outbox
    expect(firstRun).toMatchObject({ ran: 1, messages_queued: 1, failed: 0 });
    expect(delivered).toMatchObject({ succeeded: 1, failed: 0 });
    expect(afterStep).toMatchObject({ status: 'active', step_index: 1, steps: [{ index: 0, action: 'email', outcome: 'message_queued' }] });
    expect(Date.parse(afterStep?.next_step_at as string) - Date.parse(afterStep?.steps[0]?.at as string)).toBe(24 * 3_600_000);
    expect(await getMessage(tenant.merchant.id, messageId)).toMatchObject({
      status: 'sent',
      purpose: 'campaign',
      channel: 'email',
      campaign_id: campaign.id,
      step_index: 0,
      template_id: 'tmpl_soft_decline_1',
      to: customer,
    });
    expect(outbox).toHaveLength(1);
    expect(outbox[0]?.to).toBe(customer);
    const timeline = await paymentTimeline(
      tenant.merchant.id,
      (await getPayment(tenant.merchant.id, paymentId)) as NonNullable<Awaited<ReturnType<typeof getPayment>>>,
    );
    expect(timeline.filter((entry) => entry.type === 'campaign_step').map((entry) => entry.details)).toEqual([
      expect.objectContaining({ campaign_id: campaign.id, step: 1, action: 'email', outcome: 'message_queued', message_id: messageId }),
    ]);
    expect(detail).toMatchObject({ current_step: 2, total_steps: 2 });
    expect(detail.campaign_steps?.map((step) => step.status)).toEqual(['done', 'pending']);
    expect(detail.campaign_steps?.[0]).toMatchObject({ action: 'email', message_id: messageId, at: afterStep?.steps[0]?.at });
    // Assess: recovered → ended and counted
    expect(paid.status).toBe(200);
    expect(secondRun).toMatchObject({ ended: 1, ran: 0 });
    expect(ended).toMatchObject({ status: 'recovered', end_reason: 'payment_recovered', next_step_at: null });
    expect(stats).toMatchObject({ enrolled: 1, active: 0, recovered: 1, messages_sent: 1 });
    // Assess: the campaign's send and the provider-reported recovery, each recorded once as its outbound event
    const events = await listOutboundEvents(tenant.merchant.id, 1000);
    expect(events.filter((event) => event.types.includes('dunning.sent')).map((event) => event.data.object)).toEqual([
      expect.objectContaining({
        message_id: messageId,
        payment_id: paymentId,
        purpose: 'campaign',
        campaign_id: campaign.id,
        step_index: 0,
        template_id: 'tmpl_soft_decline_1',
      }),
    ]);
    const recoveredPayment = await getPayment(tenant.merchant.id, paymentId);
    expect(events.filter((event) => event.types.includes('payment.recovered')).map((event) => event.data.object)).toEqual([
      expect.objectContaining({ payment_id: paymentId, retry_number: null, provider_charge_id: null, recovery_method: recoveredPayment?.recovery_method }),
    ]);
    expect(recoveredPayment?.recovery_method).toBe('campaign_email');
    // The step's template, rendered with the payment's values.
    expect(outbox[0]?.subject).toBe('We could not process your payment of $49.99');
  }, 60_000);

  it("sends the first email step's A/B variant of the payment's arm, and counts assignment, send and recovery for that arm", async () => {
    // Prepare: an active campaign with an A/B test on its first email step, split 50/50.
    const { tenant, campaign } = await tenantWithCampaign();
    const variants = [
      { name: 'Card', subject: 'Arm A subject', template_id: 'tmpl_card_update_1' },
      { name: 'Value', subject: 'Arm B subject', template_id: 'tmpl_high_value_1' },
    ];
    const created = await call(`${stack.api_url}/email/ab-test`, { method: 'POST', key: tenant.key, body: { campaign_id: campaign.id, variants } });
    const payments = await Promise.all(Array.from({ length: 6 }, () => failed(tenant)));
    const due = new Date(
      Math.max(...(await Promise.all(payments.map(async (p) => Date.parse((await getEnrollment(tenant.merchant.id, p.paymentId))?.next_step_at as string))))),
    );

    // Act: the first step runs for all, the queue drains; then one payment is recovered and the next run sees it.
    await runHourlyAt(due);
    await stack.runtime.queues.drain();
    const [first] = payments;
    const firstEnrollment = await getEnrollment(tenant.merchant.id, first?.paymentId as string);
    await ingest(tenant, {
      event_type: 'payment_succeeded',
      amount_cents: 4999,
      currency: 'usd',
      customer_email: first?.customer,
      metadata: { payment_id: first?.providerId },
    });
    await runHourlyAt(new Date(firstEnrollment?.next_step_at as string));
    const test = await call<{ data: { variants: { arm: string; assigned: number; sent: number; recovered: number }[] } }>(
      `${stack.api_url}/email/ab-test/${campaign.id}`,
      { key: tenant.key },
    );

    // Assess: each message carries its payment's arm and that arm's template and subject.
    expect(created.status).toBe(201);
    const messages = await Promise.all(
      payments.map(async (p) => getMessage(tenant.merchant.id, (await getEnrollment(tenant.merchant.id, p.paymentId))?.steps[0]?.message_id as string)),
    );
    for (const message of messages) {
      const variant = message?.variant === 'A' ? variants[0] : variants[1];
      expect(message).toMatchObject({ status: 'sent', template_id: variant?.template_id, subject: variant?.subject });
    }
    const outbox = await listOutboxEmails(tenant.merchant.id);
    expect(new Set(outbox.map((email) => email.subject))).toEqual(
      new Set(messages.map((message) => (message?.variant === 'A' ? 'Arm A subject' : 'Arm B subject'))),
    );
    const count = (arm: string | null | undefined) => messages.filter((message) => message?.variant === arm).length;
    const firstArm = (await getEnrollment(tenant.merchant.id, first?.paymentId as string))?.ab_test?.arm;
    expect(firstArm).toBe(messages[0]?.variant);
    expect(test.body.data.variants.map(({ assigned, sent, recovered }) => ({ assigned, sent, recovered }))).toEqual([
      { assigned: count('A'), sent: count('A'), recovered: firstArm === 'A' ? 1 : 0 },
      { assigned: count('B'), sent: count('B'), recovered: firstArm === 'B' ? 1 : 0 },
    ]);
  }, 90_000);

  it('executes a due step once when two job runs overlap', async () => {
    // Prepare
    const { tenant } = await tenantWithCampaign();
    const { paymentId } = await failed(tenant);
    const due = new Date((await getEnrollment(tenant.merchant.id, paymentId))?.next_step_at as string);

    // Act
    const [a, b] = await Promise.all([runHourlyAt(due, 'run-a'), runHourlyAt(due, 'run-b')]);
    await stack.runtime.queues.drain();

    // Assess
    expect((a.ran ?? 0) + (b.ran ?? 0)).toBe(1);
    const enrollment = await getEnrollment(tenant.merchant.id, paymentId);
    expect(enrollment?.steps).toHaveLength(1);
    const sent = (await listOutboxEmails(tenant.merchant.id)).filter((email) => email.message_id === enrollment?.steps[0]?.message_id);
    expect(sent).toHaveLength(1);
    expect((await listOutboxEmails(tenant.merchant.id)).length).toBe(1);
  }, 60_000);

  it('enrolls a redelivered event once, and nothing when no active campaign matches', async () => {
    // Prepare
    const { tenant, campaign } = await tenantWithCampaign({ ...EMAIL_THEN_EMAIL, filters: { currency: ['usd'] } });
    const customer = `${unique('buyer')}@example.com`;
    const body = failure(customer, unique('ch'));

    // Act
    const first = await ingest(tenant, body);
    const again = await ingest(tenant, body);
    const { paymentId: euroPayment } = await failed(tenant, { currency: 'eur' });
    const bare = await newTenant(['admin'], UNLIMITED);
    const { paymentId: unmatched } = await failed(bare);

    // Assess
    expect(again.body.data.payment_event_id).toBe(first.body.data.payment_event_id);
    expect(await getEnrollment(tenant.merchant.id, first.body.data.payment_event_id as string)).toMatchObject({ campaign_id: campaign.id });
    expect((await getCampaign(tenant.merchant.id, campaign.id))?.stats).toMatchObject({ enrolled: 1, active: 1 });
    expect(await getEnrollment(tenant.merchant.id, euroPayment)).toBeUndefined();
    expect(await getEnrollment(bare.merchant.id, unmatched)).toBeUndefined();
    expect((await recovery(bare, unmatched)) as RecoveryData).toMatchObject({ campaign_id: null, current_step: null, total_steps: null, campaign_steps: null });
  }, 60_000);

  it('lists the recoveries of a campaign with ?campaign_id=', async () => {
    // Prepare
    const { tenant, campaign } = await tenantWithCampaign({ ...EMAIL_THEN_EMAIL, filters: { currency: ['usd'] } });
    const a = await failed(tenant);
    const b = await failed(tenant);
    await failed(tenant, { currency: 'eur' });
    await stack.runtime.stream.drain();

    // Act
    const listed = await call<{ data: RecoveryData[]; pagination: { total: number } }>(`${stack.api_url}/recoveries?campaign_id=${campaign.id}&per_page=1`, {
      key: tenant.key,
    });
    const all = await call<{ data: RecoveryData[]; pagination: { total: number } }>(`${stack.api_url}/recoveries`, { key: tenant.key });

    // Assess: newest first, one per page, two in all
    expect(listed.status).toBe(200);
    expect(listed.body.pagination.total).toBe(2);
    expect(listed.body.data.map((r) => r.payment_id)).toEqual([b.paymentId]);
    expect(listed.body.data[0]).toMatchObject({ campaign_id: campaign.id, current_step: 1, total_steps: 2 });
    expect(all.body.pagination.total).toBe(3);
    expect(
      all.body.data
        .filter((r) => r.campaign_id === campaign.id)
        .map((r) => r.payment_id)
        .sort(),
    ).toEqual([a.paymentId, b.paymentId].sort());
  }, 60_000);

  it('stops the enrollment when the customer updates their card, and completes a paused campaign whose last enrollment ended', async () => {
    // Prepare
    const { tenant, campaign } = await tenantWithCampaign();
    const { paymentId, customer } = await failed(tenant);
    await changeCampaignStatus(tenant.merchant.id, campaign.id, 'pause');

    // Act
    const updated = await ingest(tenant, { event_type: 'payment_method_updated', amount_cents: 0, currency: 'usd', customer_email: customer });

    // Assess
    expect(updated.status).toBe(200);
    expect(await getEnrollment(tenant.merchant.id, paymentId)).toMatchObject({ status: 'stopped', end_reason: 'card_updated', next_step_at: null });
    expect(await getCampaign(tenant.merchant.id, campaign.id)).toMatchObject({ status: 'completed', stats: { enrolled: 1, active: 0, stopped: 1 } });
  }, 60_000);

  it('takes no new enrollment into a paused campaign, but runs the steps of those enrolled before (A)', async () => {
    // Prepare
    const { tenant, campaign } = await tenantWithCampaign();
    const before = await failed(tenant);
    await changeCampaignStatus(tenant.merchant.id, campaign.id, 'pause');
    const after = await failed(tenant);

    // Act
    const run = await runHourlyAt(new Date((await getEnrollment(tenant.merchant.id, before.paymentId))?.next_step_at as string));
    await stack.runtime.queues.drain();

    // Assess
    expect(await getEnrollment(tenant.merchant.id, after.paymentId)).toBeUndefined();
    expect(run.ran).toBeGreaterThanOrEqual(1);
    expect(await getEnrollment(tenant.merchant.id, before.paymentId)).toMatchObject({ status: 'active', step_index: 1 });
  }, 60_000);

  it('hands a retry step to the retry engine, whose refusal is the step outcome, and the campaign goes on', async () => {
    // Prepare: a hard decline waits for a card update, so the retry engine refuses a retry
    const { tenant } = await tenantWithCampaign({
      ...EMAIL_THEN_EMAIL,
      steps: [
        { action: 'retry', delay_hours: 0, template_id: null },
        { action: 'sms', delay_hours: 1, template_id: 'tmpl_card_update_sms' },
      ],
    });
    const { paymentId } = await failed(tenant, { decline_code: 'expired_card' });
    const due = new Date((await getEnrollment(tenant.merchant.id, paymentId))?.next_step_at as string);

    // Act
    await runHourlyAt(due);
    const afterRetry = await getEnrollment(tenant.merchant.id, paymentId);
    await runHourlyAt(new Date(afterRetry?.next_step_at as string));
    const done = await getEnrollment(tenant.merchant.id, paymentId);

    // Assess
    expect(afterRetry?.steps[0]).toMatchObject({ action: 'retry', outcome: expect.stringMatching(/^retry_refused: /) });
    expect(afterRetry?.retries_run).toBe(0);
    expect(done?.steps[1]).toMatchObject({ action: 'sms', outcome: 'skipped: no phone number for sms', message_id: null });
    expect(done).toMatchObject({ status: 'completed', end_reason: 'steps_done' });
  }, 60_000);

  it('schedules the first step inside the campaign hours in the merchant time zone, and postpones a due step that falls outside them', async () => {
    // Prepare: quiet hours in New York (enabled, 20:00-08:00), a campaign sending 10:00-16:00 local
    const tenant = await newTenant(['admin'], UNLIMITED);
    await putQuietHours(tenant.merchant.id, { startHour: 20, endHour: 8, timezone: 'America/New_York', enabled: true });
    const draft = await createCampaign(newCampaign(tenant.merchant.id, { ...EMAIL_THEN_EMAIL, start_hour: 10, end_hour: 16, delay_hours: 1 }, new Date()));
    const campaign = await changeCampaignStatus(tenant.merchant.id, draft.id, 'activate');
    const { paymentId } = await failed(tenant);
    const enrolled = await getEnrollment(tenant.merchant.id, paymentId);
    const due = new Date(enrolled?.next_step_at as string);
    const localHour = (at: Date): number =>
      Number(new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', hour: 'numeric', hourCycle: 'h23' }).format(at));
    // Prepare: the window narrowed after enrollment (pause, update, the enrollment goes on), so the due step is outside it
    await changeCampaignStatus(tenant.merchant.id, campaign.id, 'pause');
    const dueHour = localHour(due);
    await updateCampaignFields(tenant.merchant.id, campaign.id, { start_hour: (dueHour + 2) % 24, end_hour: (dueHour + 3) % 24 });

    // Act
    const run = await runHourlyAt(due);
    const postponed = await getEnrollment(tenant.merchant.id, paymentId);

    // Assess: at least an hour after enrollment, at 10:00-16:59 New York time
    expect(due.getTime()).toBeGreaterThanOrEqual(Date.parse(enrolled?.enrolled_at as string) + 3_600_000);
    expect(localHour(due)).toBeGreaterThanOrEqual(10);
    expect(localHour(due)).toBeLessThanOrEqual(16);
    // Assess: not run, moved to the start of the new window, two local hours later
    expect(run.postponed).toBeGreaterThanOrEqual(1);
    expect(postponed).toMatchObject({ status: 'active', step_index: 0, steps: [] });
    const moved = new Date(postponed?.next_step_at as string);
    expect(localHour(moved)).toBe((dueHour + 2) % 24);
    expect(moved.getTime()).toBeGreaterThan(due.getTime());
    expect(moved.getTime() - due.getTime()).toBeLessThanOrEqual(2 * 3_600_000);
  }, 60_000);

  it('removes the enrollments of an erased customer', async () => {
    // Prepare
    const { tenant } = await tenantWithCampaign();
    const { paymentId } = await failed(tenant);
    const customerId = (await getPayment(tenant.merchant.id, paymentId))?.customer_id as string;

    // Act
    await eraseCustomer(tenant.merchant.id, customerId);

    // Assess
    expect(await getEnrollment(tenant.merchant.id, paymentId)).toBeUndefined();
  }, 60_000);
});
