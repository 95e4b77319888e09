/**
 * Pre-dunning end to end on DynamoDB Local: renewals announced by Stripe (`invoice.upcoming`,
 * signed with the Stripe SDK) and Chargebee (`subscription_renewal_reminder`) are stored as
 * upcoming charges; the daily `pre-dunning-notifications` task enrolls, once per charge, the
 * customers whose charge is due within 7 days and whose card expires before it or who owe a failed
 * payment, in the merchant's active `pre_dunning` campaign; the hourly job sends the email.
 */
import Stripe from 'stripe';
import { listOutboxEmails } from '#adapters/email/outbox';
import { type CampaignFields, newCampaign } from '#core/campaigns/lifecycle';
import { newTemplate } from '#core/templates/template';
import { formatRetryDate } from '#core/templates/values';
import { type EnrollmentRecord, occasionBodyOf } from '#core/enrollments';
import type { UpcomingChargeRecord } from '#core/upcoming-charges';
import { changeCampaignStatus, createCampaign } from '#data/campaign-repository';
import { activeEnrollmentsOfCustomer, getEnrollmentAt } from '#data/enrollment-repository';
import { setProviderSecret } from '#data/provider-secret-repository';
import { createTemplate } from '#data/template-repository';
import { chargesDueOn } from '#data/upcoming-charge-repository';
import { handler as daily } from '#jobs/daily';
import { handler as hourly } from '#jobs/hourly';
import type { LocalStack } from '#lib/local/local-stack';
import { eraseCustomer } from '#services/erase-customer';
import { call } from '#test/fixtures/http';
import { originOf, startTestStack } from '#test/fixtures/local-stack';
import { scheduledJobEventAt } from '#test/fixtures/scheduled-jobs';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

/** The body of an occasion enrollment's id (what getEnrollmentAt takes); the test fails here when it has none. */
const occasionBody = (enrollment: EnrollmentRecord | undefined): string => {
  const body = enrollment?.occasion ? occasionBodyOf(enrollment.occasion.id) : undefined;
  if (body === undefined) throw new Error('Expected an occasion enrollment');
  return body;
};

jest.setTimeout(90_000);

/** Far from every other test's charges: the task reads every merchant's charges of the window. */
const NOW = new Date('2042-03-28T08:00:00.000Z');
const SOON = new Date('2042-04-02T09:00:00.000Z');
const LATER = new Date('2042-04-10T09:00:00.000Z');
/** The first test's renewals: outside the second test's window, so its summary counts are that test's alone. */
const JUNE = new Date('2042-06-02T09:00:00.000Z');
const DAY = 86_400_000;
const STRIPE_SECRET = 'whsec_pre_dunning_test';
const CHARGEBEE_SECRET = 'recovery-hooks:pre-dunning';
const stripe = new Stripe('sk_test_offline');

const PRE_DUNNING: CampaignFields = {
  name: 'Before the renewal',
  trigger: 'pre_dunning',
  filters: {},
  steps: [{ action: 'email', delay_hours: 0, template_id: 'tmpl_card_expiring_1' }],
  delay_hours: 0,
  start_hour: 0,
  end_hour: 23,
};

let sequence = 0;
const unique = (prefix: string): string => `${prefix}_${(sequence += 1)}_${Math.random().toString(36).slice(2, 8)}`;
const seconds = (at: Date): number => Math.floor(at.getTime() / 1000);

async function runDaily(now: Date): Promise<Record<string, unknown>> {
  const report = await daily(scheduledJobEventAt('daily', now));
  const task = report.tasks.find((t) => t.name === 'pre-dunning-notifications');
  expect(task?.status).toBe('ok');
  return task?.summary as Record<string, unknown>;
}

describe('daily pre-dunning-notifications', () => {
  let stack: LocalStack;

  const tenantWith = async (campaign: boolean): Promise<Tenant> => {
    const tenant = await newTenant(['admin'], UNLIMITED);
    await setProviderSecret(tenant.merchant.id, 'stripe', STRIPE_SECRET);
    await setProviderSecret(tenant.merchant.id, 'chargebee', CHARGEBEE_SECRET);
    if (campaign) {
      // The merchant's own notice, with the upcoming charge's amount and date
      const notice = await createTemplate(
        newTemplate(tenant.merchant.id, {
          name: 'Renewal notice',
          channel: 'email',
          subject: 'Your renewal of {{amount}} on {{retry_date}}',
          html: '<p>Your {{merchant_name}} renewal of {{amount}} ({{amount_cents}} {{currency}}) is due on {{retry_date}}.</p>',
          text: 'Your {{merchant_name}} renewal of {{amount}} ({{amount_cents}} {{currency}}) is due on {{retry_date}}.',
          whatsapp_content_sid: null,
        }),
      );
      const fields = { ...PRE_DUNNING, steps: [{ action: 'email' as const, delay_hours: 0, template_id: notice.id }] };
      const draft = await createCampaign(newCampaign(tenant.merchant.id, fields, new Date()));
      await changeCampaignStatus(tenant.merchant.id, draft.id, 'activate');
    }
    return tenant;
  };
  const ingest = async (tenant: Tenant, type: string, email: string, metadata: Record<string, unknown>) => {
    const response = await call(`${stack.api_url}/ingest/payment-event`, {
      method: 'POST',
      key: tenant.key,
      body: { event_type: type, amount_cents: 1500, currency: 'usd', customer_email: email, decline_code: 'insufficient_funds', metadata },
    });
    expect(response.status).toBe(200);
  };
  /** A customer known from a failed payment (settled when `owes` is false), with a card expiring in `card` when given. */
  const customer = async (tenant: Tenant, options: { owes: boolean; card?: { month: number; year: number } }) => {
    const email = `${unique('renewer')}@example.com`;
    const paymentId = unique('ch');
    const card = options.card ? { card_exp_month: options.card.month, card_exp_year: options.card.year } : {};
    await ingest(tenant, 'payment_failed', email, { payment_id: paymentId, ...card });
    if (!options.owes) await ingest(tenant, 'payment_succeeded', email, { payment_id: paymentId });
    const found = await call<{ data: { id: string } }>(`${stack.api_url}/customers/by-email/${encodeURIComponent(email)}`, { key: tenant.key });
    return { id: found.body.data.id, email };
  };
  const post = async (tenant: Tenant, psp: string, body: string, headers: Record<string, string>) => {
    const response = await call(`${originOf(stack)}/${psp}/${tenant.merchant.id}`, {
      method: 'POST',
      rawBody: body,
      headers: { 'content-type': 'application/json', ...headers },
    });
    expect(response.status).toBe(200);
    await stack.runtime.queues.drain();
  };
  const stripeUpcoming = async (tenant: Tenant, email: string, due: Date, amount = 2900, subscription = unique('sub')) => {
    const body = JSON.stringify({
      id: unique('evt'),
      object: 'event',
      created: seconds(NOW),
      type: 'invoice.upcoming',
      data: {
        object: {
          object: 'invoice',
          amount_due: amount,
          currency: 'usd',
          customer: unique('cus'),
          customer_email: email,
          subscription,
          collection_method: 'charge_automatically',
          next_payment_attempt: seconds(due),
          period_end: seconds(due),
        },
      },
    });
    await post(tenant, 'stripe', body, { 'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload: body, secret: STRIPE_SECRET }) });
  };
  const chargebeeReminder = async (tenant: Tenant, email: string, due: Date, card: { month: number; year: number }) => {
    const customerId = unique('cb');
    const body = JSON.stringify({
      id: unique('ev'),
      occurred_at: seconds(NOW),
      object: 'event',
      api_version: 'v2',
      event_type: 'subscription_renewal_reminder',
      content: {
        subscription: {
          id: unique('sub'),
          customer_id: customerId,
          next_billing_at: seconds(due),
          currency_code: 'EUR',
          plan_amount: 1500,
          object: 'subscription',
        },
        customer: { id: customerId, email, object: 'customer' },
        card: { customer_id: customerId, expiry_month: card.month, expiry_year: card.year, object: 'card' },
      },
    });
    await post(tenant, 'chargebee', body, { authorization: `Basic ${Buffer.from(CHARGEBEE_SECRET).toString('base64')}` });
  };
  const chargesOf = async (tenant: Tenant, day: Date): Promise<UpcomingChargeRecord[]> => {
    const found: UpcomingChargeRecord[] = [];
    for await (const charge of chargesDueOn(day.toISOString().slice(0, 10))) if (charge.merchant_id === tenant.merchant.id) found.push(charge);
    return found;
  };
  const notices = async (tenant: Tenant, customerId: string): Promise<EnrollmentRecord[]> =>
    (await activeEnrollmentsOfCustomer(tenant.merchant.id, customerId)).filter((enrollment) => enrollment.occasion?.kind === 'pre_dunning');

  beforeAll(async () => {
    stack = await startTestStack();
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  it('stores the renewals Stripe and Chargebee announce, once per renewal, and ignores unknown customers', async () => {
    // Prepare
    const tenant = await tenantWith(false);
    const known = await customer(tenant, { owes: false });
    const other = await customer(tenant, { owes: false });
    // Act: Stripe announces the same renewal twice (the second with a new amount); Chargebee one with its card
    await stripeUpcoming(tenant, known.email, JUNE, 2900, 'sub_same_renewal');
    await stripeUpcoming(tenant, known.email, JUNE, 3100, 'sub_same_renewal');
    await chargebeeReminder(tenant, other.email, JUNE, { month: 3, year: 2042 });
    await stripeUpcoming(tenant, 'stranger@example.com', JUNE);
    const stored = await chargesOf(tenant, JUNE);
    const otherShown = await call<{ data: { card_expiry: unknown } }>(`${stack.api_url}/customers/${other.id}`, { key: tenant.key });
    // Assess: one renewal of the same subscription and due time, its amount the newest announced
    expect(stored.filter((charge) => charge.customer_id === known.id)).toEqual([
      expect.objectContaining({ psp: 'stripe', amount: 3100, currency: 'usd', subscription_id: 'sub_same_renewal', due_at: JUNE.toISOString() }),
    ]);
    expect(stored.find((charge) => charge.customer_id === other.id)).toMatchObject({
      psp: 'chargebee',
      amount: 1500,
      currency: 'eur',
      due_at: JUNE.toISOString(),
      id: expect.stringMatching(/^upc_/),
    });
    expect(stored).toHaveLength(2);
    expect(otherShown.body.data.card_expiry).toEqual({ month: 3, year: 2042 });
    // Erasing a customer removes its upcoming charges with everything else about it.
    await eraseCustomer(tenant.merchant.id, other.id);
    expect((await chargesOf(tenant, JUNE)).map((charge) => charge.customer_id)).toEqual([known.id]);
  });

  it('enrolls, once per charge, the customers due within 7 days whose card expires first or who owe a failed payment', async () => {
    // Prepare
    const tenant = await tenantWith(true);
    const expiring = await customer(tenant, { owes: false, card: { month: 3, year: 2042 } });
    const owing = await customer(tenant, { owes: true });
    const safe = await customer(tenant, { owes: false, card: { month: 1, year: 2045 } });
    const later = await customer(tenant, { owes: true });
    for (const who of [expiring, owing, safe]) await stripeUpcoming(tenant, who.email, SOON);
    await stripeUpcoming(tenant, later.email, LATER);
    const noCampaign = await tenantWith(false);
    const elsewhere = await customer(noCampaign, { owes: true });
    await stripeUpcoming(noCampaign, elsewhere.email, SOON);

    // Act
    const first = await runDaily(NOW);
    const rerun = await runDaily(NOW);
    const nextDay = await runDaily(new Date(NOW.getTime() + DAY));

    // Assess
    expect(first).toEqual({
      from: NOW.toISOString(),
      to: '2042-04-04T08:00:00.000Z',
      charges: 4,
      enrolled: 2,
      already_enrolled: 0,
      not_at_risk: 1,
      no_campaign: 1,
      skipped: 0,
      failed: 0,
    });
    expect(rerun).toMatchObject({ charges: 4, enrolled: 0, already_enrolled: 2 });
    expect(nextDay).toMatchObject({ enrolled: 0, already_enrolled: 2 });
    expect(await notices(tenant, expiring.id)).toEqual([
      expect.objectContaining({ payment_id: null, occasion: expect.objectContaining({ kind: 'pre_dunning', due_at: SOON.toISOString() }) }),
    ]);
    expect(await notices(tenant, owing.id)).toHaveLength(1);
    expect(await notices(tenant, safe.id)).toEqual([]);
    expect(await notices(tenant, later.id)).toEqual([]);
    expect(await notices(noCampaign, elsewhere.id)).toEqual([]);

    // Act: the notice's email goes out; after the charge's due time the enrollment ends
    const [notice] = await notices(tenant, expiring.id);
    const body = occasionBody(notice);
    await hourly(scheduledJobEventAt('hourly', new Date(notice?.next_step_at as string)));
    await stack.runtime.queues.drain();
    const sent = await getEnrollmentAt(tenant.merchant.id, body);
    const outbox = (await listOutboxEmails(tenant.merchant.id)).filter((email) => email.message_id === sent?.steps[0]?.message_id);

    // Assess
    expect(sent).toMatchObject({ status: 'completed', steps: [{ action: 'email', outcome: 'message_queued' }] });
    expect(outbox).toEqual([expect.objectContaining({ to: expiring.email })]);
    // The upcoming charge fills the notice's payment placeholders: 2900 usd, due on SOON
    expect(outbox[0]?.subject).toBe(`Your renewal of $29.00 on ${formatRetryDate(SOON.toISOString())}`);
    expect(outbox[0]?.text).toContain('renewal of $29.00 (2900 USD) is due on');
  });
});
