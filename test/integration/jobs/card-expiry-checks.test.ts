/**
 * The daily `card-expiry-checks` task end to end on DynamoDB Local: customers whose card expires
 * this month or next (told through ingest) are enrolled, once per card, in their merchant's active
 * `card_expiring` campaign; the hourly job then sends the campaign's email through the
 * notifications queue to the local outbox, with an update-payment link that leads to the
 * merchant's provider page; quiet hours and unsubscribes are respected.
 */
import { listOutboxEmails } from '#adapters/email/outbox';
import { type CampaignFields, newCampaign } from '#core/campaigns/lifecycle';
import type { CampaignRecord } from '#core/campaigns/types';
import { type EnrollmentRecord, occasionBodyOf } from '#core/enrollments';
import { changeCampaignStatus, createCampaign, getCampaign } from '#data/campaign-repository';
import { putUnsubscribe } from '#data/channel-repository';
import { activeEnrollmentsOfCustomer, getEnrollmentAt } from '#data/enrollment-repository';
import { setUpdatePaymentPage } from '#data/hosted-settings-repository';
import { getMessage } from '#data/message-repository';
import { putQuietHours } from '#data/settings-repository';
import { handler as daily } from '#jobs/daily';
import { handler as hourly } from '#jobs/hourly';
import type { LocalStack } from '#lib/local/local-stack';
import { eraseCustomer } from '#services/erase-customer';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { scheduledJobEventAt } from '#test/fixtures/scheduled-jobs';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

/** The body of an occasion enrollment's id (what getEnrollmentAt takes); the test fails here when it has none. */
const occasionBody = (enrollment: EnrollmentRecord | undefined): string => {
  const body = enrollment?.occasion ? occasionBodyOf(enrollment.occasion.id) : undefined;
  if (body === undefined) throw new Error('Expected an occasion enrollment');
  return body;
};

// Each test ingests several customers and runs the jobs more than once: seconds on a busy 2-core machine.
jest.setTimeout(90_000);

/** Far from every other test's cards: the index is read for every merchant, so the summaries here are this file's alone. */
const NOW = new Date('2041-05-20T08:00:00.000Z');
const DAY = 86_400_000;

const CARD_EXPIRING: CampaignFields = {
  name: 'Card expiring',
  trigger: 'card_expiring',
  filters: {},
  steps: [
    { action: 'email', delay_hours: 0, template_id: 'tmpl_card_expiring_1' },
    { action: 'retry', delay_hours: 24, template_id: null },
    { action: 'email', delay_hours: 144, template_id: 'tmpl_card_expiring_2' },
  ],
  delay_hours: 0,
  start_hour: 0,
  end_hour: 23,
};

let sequence = 0;
const unique = (prefix: string): string => `${prefix}_${(sequence += 1)}_${Math.random().toString(36).slice(2, 8)}`;

async function runDaily(now: Date): Promise<Record<string, unknown>> {
  const report = await daily(scheduledJobEventAt('daily', now));
  const task = report.tasks.find((t) => t.name === 'card-expiry-checks');
  expect(task?.status).toBe('ok');
  return task?.summary as Record<string, unknown>;
}

async function runHourly(now: Date): Promise<Record<string, number>> {
  const report = await hourly(scheduledJobEventAt('hourly', now));
  const task = report.tasks.find((t) => t.name === 'advance-campaign-steps');
  expect(task?.status).toBe('ok');
  return task?.summary as Record<string, number>;
}

describe('daily card-expiry-checks', () => {
  let stack: LocalStack;

  /** A tenant with a `card_expiring` campaign in `status` (draft, active, paused). */
  const tenantWith = async (status: 'draft' | 'active' | 'paused' | 'none'): Promise<{ tenant: Tenant; campaign?: CampaignRecord }> => {
    const tenant = await newTenant(['admin'], UNLIMITED);
    if (status === 'none') return { tenant };
    const draft = await createCampaign(newCampaign(tenant.merchant.id, CARD_EXPIRING, new Date()));
    if (status === 'draft') return { tenant, campaign: draft };
    const active = await changeCampaignStatus(tenant.merchant.id, draft.id, 'activate');
    return { tenant, campaign: status === 'active' ? active : await changeCampaignStatus(tenant.merchant.id, draft.id, 'pause') };
  };
  const ingest = async (tenant: Tenant, type: string, email: string, metadata: Record<string, unknown>) => {
    const response = await call(`${stack.api_url}/ingest/payment-event`, {
      method: 'POST',
      key: tenant.key,
      body: {
        event_type: type,
        amount_cents: 1500,
        currency: 'usd',
        customer_email: email,
        decline_code: 'insufficient_funds',
        metadata: { payment_id: unique('ch'), ...metadata },
      },
    });
    expect(response.status).toBe(200);
  };
  /** A customer of the tenant whose card expires in `month` of `year`; returns its id and email. */
  const customerWithCard = async (tenant: Tenant, month: number, year: number) => {
    const email = `${unique('holder')}@example.com`;
    await ingest(tenant, 'payment_failed', email, { card_exp_month: month, card_exp_year: year });
    const found = await call<{ data: { id: string } }>(`${stack.api_url}/customers/by-email/${encodeURIComponent(email)}`, { key: tenant.key });
    return { id: found.body.data.id, email };
  };
  const notices = async (tenant: Tenant, customerId: string): Promise<EnrollmentRecord[]> =>
    (await activeEnrollmentsOfCustomer(tenant.merchant.id, customerId)).filter((enrollment) => enrollment.occasion?.kind === 'card_expiring');

  beforeAll(async () => {
    stack = await startTestStack();
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  it('enrolls exactly the customers whose card expires this month or next, of merchants with an active card_expiring campaign, once per card', async () => {
    // Prepare: the merchant's targets, and decoys of every kind
    const { tenant, campaign } = await tenantWith('active');
    const thisMonth = await customerWithCard(tenant, 5, 2041);
    const nextMonth = await customerWithCard(tenant, 6, 2041);
    const inThreeMonths = await customerWithCard(tenant, 8, 2041);
    const erased = await customerWithCard(tenant, 5, 2041);
    const updated = await customerWithCard(tenant, 6, 2041);
    await eraseCustomer(tenant.merchant.id, erased.id);
    await ingest(tenant, 'payment_method_updated', updated.email, { card_exp_month: 9, card_exp_year: 2044 });
    const decoys = await Promise.all((['none', 'draft', 'paused'] as const).map((status) => tenantWith(status)));
    const decoyCustomers = await Promise.all(decoys.map(({ tenant: other }) => customerWithCard(other, 5, 2041)));
    const otherActive = await tenantWith('active');
    const otherCustomer = await customerWithCard(otherActive.tenant, 6, 2041);

    // Act
    const first = await runDaily(NOW);
    const rerun = await runDaily(NOW);
    const nextDay = await runDaily(new Date(NOW.getTime() + DAY));

    // Assess: this file's cards only in these months (see NOW): 2 + 1 enrolled, 3 merchants without an active campaign
    expect(first).toEqual({ months: ['2041-05', '2041-06'], cards: 6, enrolled: 3, already_enrolled: 0, no_campaign: 3, skipped: 0, failed: 0 });
    expect(rerun).toMatchObject({ cards: 6, enrolled: 0, already_enrolled: 3 });
    expect(nextDay).toMatchObject({ enrolled: 0, already_enrolled: 3 });
    const [a, b] = [await notices(tenant, thisMonth.id), await notices(tenant, nextMonth.id)];
    expect(a).toEqual([
      expect.objectContaining({
        campaign_id: campaign?.id,
        payment_id: null,
        recovery_id: null,
        status: 'active',
        step_index: 0,
        total_steps: 3,
        occasion: expect.objectContaining({ kind: 'card_expiring', card_expiry: { month: 5, year: 2041 }, id: expect.stringMatching(/^occ_/) }),
      }),
    ]);
    expect(b).toEqual([expect.objectContaining({ occasion: expect.objectContaining({ card_expiry: { month: 6, year: 2041 } }) })]);
    expect(await notices(tenant, inThreeMonths.id)).toEqual([]);
    expect(await notices(tenant, updated.id)).toEqual([]);
    expect(await notices(otherActive.tenant, otherCustomer.id)).toEqual([
      expect.objectContaining({ campaign_id: otherActive.campaign?.id, occasion: expect.objectContaining({ card_expiry: { month: 6, year: 2041 } }) }),
    ]);
    for (const [index, { tenant: other }] of decoys.entries()) expect(await notices(other, decoyCustomers[index]?.id as string)).toEqual([]);
    expect((await getCampaign(tenant.merchant.id, campaign?.id as string))?.stats).toMatchObject({ enrolled: 2, active: 2 });
    // A failed payment of the card_expiring tenant enrolled in nothing (the trigger never enrolls failures),
    // and the customer-level enrollments are no recoveries: the campaign's recovery listing is empty.
    const recoveries = await call<{ data: { campaign_id: string | null }[] }>(`${stack.api_url}/recoveries?per_page=100`, { key: tenant.key });
    expect(recoveries.body.data.every((recovery) => recovery.campaign_id === null)).toBe(true);
    const ofCampaign = await call<{ data: unknown[] }>(`${stack.api_url}/recoveries?campaign_id=${campaign?.id}`, { key: tenant.key });
    expect({ status: ofCampaign.status, data: ofCampaign.body.data }).toEqual({ status: 200, data: [] });
  });

  it('sends the email step to the outbox with a working update-payment link, skips the retry step, and stops when the card is updated', async () => {
    // Prepare
    const { tenant, campaign } = await tenantWith('active');
    await setUpdatePaymentPage(tenant.merchant.id, 'https://billing.example.com/portal?c={customer_id}');
    const holder = await customerWithCard(tenant, 6, 2041);
    await runDaily(new Date(NOW.getTime() + 2 * DAY));
    const [enrolled] = await notices(tenant, holder.id);

    // Act: the first step (email) at its due time, the queue drained; then the retry step
    const firstRun = await runHourly(new Date(enrolled?.next_step_at as string));
    await stack.runtime.queues.drain();
    const afterEmail = await getEnrollmentAt(tenant.merchant.id, occasionBody(enrolled));
    const messageId = afterEmail?.steps[0]?.message_id as string;
    const [sent] = (await listOutboxEmails(tenant.merchant.id)).filter((email) => email.message_id === messageId);
    const link = /https?:\/\/\S+\/update-payment\/[A-Za-z0-9_-]{43}/.exec(sent?.text ?? '')?.[0] as string;
    const clicked = await call(link, { redirect: 'manual' });
    await runHourly(new Date(afterEmail?.next_step_at as string));
    const afterRetry = await getEnrollmentAt(tenant.merchant.id, occasionBody(enrolled));
    await ingest(tenant, 'payment_method_updated', holder.email, { card_exp_month: 6, card_exp_year: 2046 });
    const afterUpdate = await getEnrollmentAt(tenant.merchant.id, occasionBody(enrolled));

    // Assess: the email went to the customer, from the card-expiring template, with the merchant's provider page behind its link
    // (the job runs every merchant's due steps: the first test's notices are due by then too)
    expect(firstRun.failed).toBe(0);
    expect(firstRun.messages_queued).toBeGreaterThanOrEqual(1);
    expect(sent).toMatchObject({ to: holder.email, subject: expect.stringContaining('expires soon') });
    expect(await getMessage(tenant.merchant.id, messageId)).toMatchObject({ status: 'sent', payment_id: null, recovery_id: null, campaign_id: campaign?.id });
    expect(clicked.status).toBe(303);
    expect(clicked.headers.get('location')).toBe(`https://billing.example.com/portal?c=${holder.id}`);
    expect(afterRetry?.steps[1]).toMatchObject({ action: 'retry', outcome: 'skipped: no failed payment to retry (customer-level notice)' });
    expect(afterUpdate).toMatchObject({ status: 'stopped', end_reason: 'card_updated' });
    expect((await getCampaign(tenant.merchant.id, campaign?.id as string))?.stats).toMatchObject({ enrolled: 1, active: 0, stopped: 1, messages_sent: 1 });
  });

  it("schedules the first step after the merchant's quiet hours, and sends nothing to a customer who unsubscribed", async () => {
    // Prepare: quiet hours 06:00-12:00 UTC cover the run (08:00)
    const { tenant } = await tenantWith('active');
    await putQuietHours(tenant.merchant.id, { startHour: 6, endHour: 12, timezone: 'UTC', enabled: true });
    const quiet = await customerWithCard(tenant, 5, 2041);
    const unsubscribed = await customerWithCard(tenant, 5, 2041);
    await putUnsubscribe({
      merchant_id: tenant.merchant.id,
      customer_id: unsubscribed.id,
      channel: 'email',
      message_id: 'msg_earlier',
      created_at: NOW.toISOString(),
    });

    // Act
    await runDaily(new Date(NOW.getTime() + 3 * DAY));
    const [held] = await notices(tenant, quiet.id);
    const [refused] = await notices(tenant, unsubscribed.id);
    await runHourly(new Date(held?.next_step_at as string));
    await stack.runtime.queues.drain();
    const heldAfter = await getEnrollmentAt(tenant.merchant.id, occasionBody(held));
    const refusedAfter = await getEnrollmentAt(tenant.merchant.id, occasionBody(refused));
    const outbox = await listOutboxEmails(tenant.merchant.id);

    // Assess: due at 12:00 UTC, the end of the quiet hours; the unsubscribed customer's message suppressed
    expect(held?.next_step_at).toBe('2041-05-23T12:00:00.000Z');
    expect(outbox.map((email) => email.to)).toEqual([quiet.email]);
    const suppressed = await getMessage(tenant.merchant.id, refusedAfter?.steps[0]?.message_id as string);
    expect(suppressed).toMatchObject({ status: 'suppressed', status_reason: expect.stringContaining('unsubscribed') });
    expect(heldAfter?.steps[0]).toMatchObject({ outcome: 'message_queued' });
  });
});
