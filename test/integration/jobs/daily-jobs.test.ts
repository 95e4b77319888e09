import { newCampaign } from '#core/campaigns/lifecycle';
import type { MeteringRecord } from '#core/metering';
import { upcomingChargeIdFor } from '#core/upcoming-charges';
import { changeCampaignStatus, createCampaign } from '#data/campaign-repository';
import { putUpcomingCharge } from '#data/upcoming-charge-repository';
import { dynamo } from '#data/client';
import { createMerchant } from '#data/merchant-repository';
import { listMetering } from '#data/metering-repository';
import { listOutboundEvents } from '#data/outbound-event-repository';
import { applyPaymentEvent } from '#data/payment-repository';
import { getWebhookLog, putWebhookLog, type WebhookLogRecord } from '#data/webhook-log-repository';
import { handler as daily } from '#jobs/daily';
import type { JobTaskReport } from '#jobs/run-job';
import { cleanUpRetention } from '#services/retention-cleanup';
import { seedPayment } from '#test/fixtures/payments';
import { scheduledJobEventAt } from '#test/fixtures/scheduled-jobs';
import { drainTableStream } from '#test/fixtures/table-stream';

/**
 * The daily job's retention-cleanup, billing-metering, card-expiry-checks and pre-dunning-notifications tasks on DynamoDB Local, run by the job's
 * Lambda handler at the scheduled times the tests pick (the job's `now`).
 */
// Each test writes dozens of items and runs the job twice: seconds on a busy 2-core machine.
jest.setTimeout(90_000);

afterAll(() => dynamo.destroy());

const DAY = 86_400_000;
const at = (iso: string): Date => new Date(iso);
const ago = (when: Date, ms: number): Date => new Date(when.getTime() - ms);

async function runDaily(now: Date): Promise<Record<string, JobTaskReport>> {
  const report = await daily(scheduledJobEventAt('daily', now));
  return Object.fromEntries(report.tasks.map((task) => [task.name, task]));
}

const delivery = (merchantId: string, received: Date): Promise<WebhookLogRecord> =>
  putWebhookLog(
    {
      merchantId,
      psp: 'stripe',
      routeVariant: 'default',
      rawBody: Buffer.from('{"id":"evt_1"}'),
      contentType: 'application/json',
      url: 'https://hooks.test/stripe',
    },
    received,
  );

describe('daily retention-cleanup', () => {
  const NOW = at('2027-02-10T08:00:00.000Z');

  it('deletes the stored deliveries and outbound events past 30 days, every merchant, and keeps the younger ones', async () => {
    // Prepare
    const [first, second] = await Promise.all([createMerchant({ name: 'Retention A' }), createMerchant({ name: 'Retention B' })]);
    const oldDelivery = await delivery(first.id, ago(NOW, 31 * DAY));
    const dueToday = await delivery(first.id, ago(NOW, 30 * DAY));
    const youngDelivery = await delivery(first.id, ago(NOW, 29 * DAY));
    const otherOld = await delivery(second.id, ago(NOW, 40 * DAY));
    const otherYoung = await delivery(second.id, ago(NOW, DAY));
    // A payment's outbound events (the retry scheduled at its failure) 35 days ago, and one 2 days ago.
    await seedPayment(first.id, {}, ago(NOW, 35 * DAY));
    await seedPayment(second.id, {}, ago(NOW, 2 * DAY));
    const eventsBefore = [...(await listOutboundEvents(first.id)), ...(await listOutboundEvents(second.id))];
    const oldEvents = eventsBefore.filter((event) => Date.parse(event.created_at) <= ago(NOW, 30 * DAY).getTime());
    expect(oldEvents.length).toBeGreaterThan(0);

    // Act
    const tasks = await runDaily(NOW);

    // Assess
    expect(tasks['retention-cleanup']).toEqual({
      name: 'retention-cleanup',
      status: 'ok',
      summary: { deleted: 3 + oldEvents.length, skipped: 0, pages: 2, more: false },
    });
    expect(await getWebhookLog(first.id, oldDelivery.id)).toBeUndefined();
    expect(await getWebhookLog(first.id, dueToday.id)).toBeUndefined();
    expect(await getWebhookLog(second.id, otherOld.id)).toBeUndefined();
    expect(await getWebhookLog(first.id, youngDelivery.id)).toEqual(youngDelivery);
    expect(await getWebhookLog(second.id, otherYoung.id)).toEqual(otherYoung);
    const eventsAfter = [...(await listOutboundEvents(first.id)), ...(await listOutboundEvents(second.id))];
    expect(eventsAfter.map((event) => event.id).sort()).toEqual(
      eventsBefore
        .filter((event) => !oldEvents.includes(event))
        .map((event) => event.id)
        .sort(),
    );
    expect(eventsAfter.length).toBeGreaterThan(0);
  });

  it('deletes nothing more when run again the same day', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Retention rerun' });
    const old = await delivery(merchant.id, ago(NOW, 45 * DAY));
    const young = await delivery(merchant.id, ago(NOW, 3 * DAY));
    await runDaily(NOW);

    // Act
    const rerun = await runDaily(NOW);

    // Assess
    expect(rerun['retention-cleanup']?.summary).toEqual({ deleted: 0, skipped: 0, pages: 1, more: false });
    expect(await getWebhookLog(merchant.id, old.id)).toBeUndefined();
    expect(await getWebhookLog(merchant.id, young.id)).toEqual(young);
  });

  it('works in bounded pages and says when it left some for the next run', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Retention pages' });
    const old = [];
    for (let i = 0; i < 24; i += 1) old.push(await delivery(merchant.id, ago(NOW, 31 * DAY + i * 60_000)));
    const bounds = { pageSize: 8, maxPages: 2 };

    // Act: runs until one says it left nothing (each page reads an even share of 8 from the 8 shards;
    // the earlier tests' runs at NOW left nothing else expired)
    const runs = [];
    for (let run = 0; run < 24 && (runs.at(-1)?.more ?? true); run += 1) runs.push(await cleanUpRetention(NOW, bounds));

    // Assess
    expect(runs[0]).toMatchObject({ pages: 2, more: true, skipped: 0 });
    for (const run of runs) expect(run.deleted).toBeLessThanOrEqual(bounds.pageSize * bounds.maxPages);
    expect(runs.reduce((sum, run) => sum + run.deleted, 0)).toBe(24);
    expect(runs.at(-1)?.more).toBe(false);
    expect(await Promise.all(old.map((log) => getWebhookLog(merchant.id, log.id)))).toEqual(old.map(() => undefined));
  });

  it('deletes a delivery whose 30 days end later only once a later run reaches them', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Retention later' });
    const young = await delivery(merchant.id, ago(NOW, 10 * DAY));

    // Act
    await runDaily(NOW);
    const kept = await getWebhookLog(merchant.id, young.id);
    await runDaily(new Date(NOW.getTime() + 20 * DAY));

    // Assess
    expect(kept).toEqual(young);
    expect(await getWebhookLog(merchant.id, young.id)).toBeUndefined();
  });
});

describe('daily billing-metering', () => {
  // The run of 2027-03-11 08:00 UTC meters 2027-03-10.
  const RUN = at('2027-03-11T08:00:00.000Z');
  const METERED_DAY = '2027-03-10';
  const recover = (merchantId: string, paymentId: string, when: Date) =>
    applyPaymentEvent(merchantId, paymentId, { type: 'recover', reason: 'paid (test)' }, when).then(({ after }) => after);

  /** A merchant with the day's payments: failures in usd and eur, recoveries that day in usd, eur and jpy (one failed earlier), one the next day. */
  async function merchantWithDay(): Promise<string> {
    const merchant = await createMerchant({ name: 'Metering' });
    const usd = await seedPayment(merchant.id, { amount: 2500, currency: 'usd' }, at('2027-03-10T01:00:00.000Z'));
    await seedPayment(merchant.id, { amount: 1000, currency: 'usd' }, at('2027-03-10T09:30:00.000Z'));
    const eur = await seedPayment(merchant.id, { amount: 4000, currency: 'eur' }, at('2027-03-10T23:59:00.000Z'));
    const jpy = await seedPayment(merchant.id, { amount: 3000, currency: 'jpy' }, at('2027-03-08T12:00:00.000Z'));
    const late = await seedPayment(merchant.id, { amount: 700, currency: 'usd' }, at('2027-03-10T10:00:00.000Z'));
    await recover(merchant.id, usd.id, at('2027-03-10T00:30:00.000Z'));
    await recover(merchant.id, jpy.id, at('2027-03-10T12:00:00.000Z'));
    await recover(merchant.id, eur.id, at('2027-03-10T23:59:59.000Z'));
    await recover(merchant.id, late.id, at('2027-03-11T00:00:00.000Z'));
    return merchant.id;
  }

  it('meters the day before per currency: recoveries by the day they happened, payments processed by the day they failed', async () => {
    // Prepare
    const merchantId = await merchantWithDay();
    // Another merchant's recovery that day is its own.
    const other = await createMerchant({ name: 'Metering other' });
    const theirs = await seedPayment(other.id, { amount: 99_900, currency: 'usd' }, at('2027-03-10T05:00:00.000Z'));
    await recover(other.id, theirs.id, at('2027-03-10T06:00:00.000Z'));
    await drainTableStream();

    // Act
    const tasks = await runDaily(RUN);

    // Assess
    expect(tasks['billing-metering']).toMatchObject({ status: 'ok', summary: { day: METERED_DAY, merchants: expect.any(Number) } });
    const [day] = await listMetering(merchantId, METERED_DAY, METERED_DAY);
    expect(day).toEqual<MeteringRecord>({
      merchant_id: merchantId,
      day: METERED_DAY,
      recoveries: 3,
      recoveries_by_currency: { usd: 1, jpy: 1, eur: 1 },
      recovered_amount_by_currency: { usd: 2500, jpy: 3000, eur: 4000 },
      payments_processed: 4,
      payments_processed_by_currency: { usd: 3, eur: 1 },
      processed_amount_by_currency: { usd: 4200, eur: 4000 },
      metered_at: RUN.toISOString(),
    });
    const [theirDay] = await listMetering(other.id, METERED_DAY, METERED_DAY);
    expect(theirDay).toMatchObject({ recoveries: 1, recovered_amount_by_currency: { usd: 99_900 }, payments_processed: 1 });
  });

  it('fills in the earlier days not metered yet, and a rerun the same day rewrites the same figures and fills nothing more', async () => {
    // Prepare
    const merchantId = await merchantWithDay();
    await drainTableStream();

    // Act
    const first = await runDaily(RUN);
    const afterFirst = await listMetering(merchantId, '2027-03-01', '2027-03-11');
    const rerun = await runDaily(RUN);
    const afterRerun = await listMetering(merchantId, '2027-03-01', '2027-03-11');

    // Assess
    expect(afterFirst.map((record) => record.day)).toEqual(['2027-03-04', '2027-03-05', '2027-03-06', '2027-03-07', '2027-03-08', '2027-03-09', '2027-03-10']);
    expect(afterFirst.find((record) => record.day === '2027-03-08')).toMatchObject({
      recoveries: 0,
      payments_processed: 1,
      payments_processed_by_currency: { jpy: 1 },
      processed_amount_by_currency: { jpy: 3000 },
    });
    expect(first['billing-metering']?.summary).toMatchObject({ filled: expect.any(Number) });
    expect(rerun['billing-metering']?.summary).toMatchObject({ day: METERED_DAY, filled: 0 });
    expect(afterRerun).toEqual(afterFirst);
  });
});

describe('daily card-expiry-checks', () => {
  // A month no other test's card expires in: the task reads every merchant's cards of the run's month and the next.
  const NOW = at('2043-01-10T08:00:00.000Z');

  it('reports succeeded with its counts, and enrolls nothing more when run again the same day', async () => {
    // Prepare: a merchant with an active card_expiring campaign and a customer whose card expires next month
    const merchant = await createMerchant({ name: 'Card expiry' });
    const fields = {
      name: 'Card expiring',
      trigger: 'card_expiring',
      filters: {},
      steps: [{ action: 'email' as const, delay_hours: 0, template_id: 'tmpl_card_expiring_1' }],
    };
    const draft = await createCampaign(newCampaign(merchant.id, fields, NOW));
    await changeCampaignStatus(merchant.id, draft.id, 'activate');
    await seedPayment(merchant.id, { customer: { email: 'expiring@example.com', name: 'Exp Iring', card_expiry: { month: 2, year: 2043 } } });

    // Act
    const first = await runDaily(NOW);
    const rerun = await runDaily(NOW);

    // Assess
    expect(first['card-expiry-checks']).toEqual({
      name: 'card-expiry-checks',
      status: 'ok',
      summary: { months: ['2043-01', '2043-02'], cards: 1, enrolled: 1, already_enrolled: 0, no_campaign: 0, skipped: 0, failed: 0 },
    });
    expect(rerun['card-expiry-checks']?.summary).toMatchObject({ cards: 1, enrolled: 0, already_enrolled: 1 });
  });
});

describe('daily pre-dunning-notifications', () => {
  // A window no other test's upcoming charge falls in: the task reads every merchant's charges of the next 7 days.
  const NOW = at('2043-07-10T08:00:00.000Z');

  it('reports succeeded with its counts, and enrolls nothing more when run again the same day', async () => {
    // Prepare: a merchant with an active pre_dunning campaign, and a customer who owes a failed payment and renews in 3 days
    const merchant = await createMerchant({ name: 'Pre-dunning' });
    const fields = {
      name: 'Before the renewal',
      trigger: 'pre_dunning',
      filters: {},
      steps: [{ action: 'email' as const, delay_hours: 0, template_id: 'tmpl_card_expiring_1' }],
    };
    const draft = await createCampaign(newCampaign(merchant.id, fields, NOW));
    await changeCampaignStatus(merchant.id, draft.id, 'activate');
    const payment = await seedPayment(merchant.id, { customer: { email: 'renews@example.com', name: 'Re News' } });
    const due = new Date(NOW.getTime() + 3 * DAY);
    await putUpcomingCharge({
      id: upcomingChargeIdFor('stripe', 'sub_daily', due),
      merchant_id: merchant.id,
      customer_id: payment.customer_id,
      psp: 'stripe',
      subscription_id: 'sub_daily',
      amount: 1900,
      currency: 'usd',
      due_at: due.toISOString(),
      provider_event_id: 'evt_daily',
      created_at: NOW.toISOString(),
      updated_at: NOW.toISOString(),
    });

    // Act
    const first = await runDaily(NOW);
    const rerun = await runDaily(NOW);

    // Assess
    expect(first['pre-dunning-notifications']).toEqual({
      name: 'pre-dunning-notifications',
      status: 'ok',
      summary: {
        from: NOW.toISOString(),
        to: '2043-07-17T08:00:00.000Z',
        charges: 1,
        enrolled: 1,
        already_enrolled: 0,
        not_at_risk: 0,
        no_campaign: 0,
        skipped: 0,
        failed: 0,
      },
    });
    expect(rerun['pre-dunning-notifications']?.summary).toMatchObject({ charges: 1, enrolled: 0, already_enrolled: 1 });
  });
});
