/**
 * GET /api/v1/analytics/email-health and /email-engagement over real HTTP: messages sent, then
 * delivered, opened, clicked, bounced, complained and unsubscribed through the real write paths;
 * the table stream applied (the MSG projection); the figures checked against a direct count over
 * the same messages. Also the sending pause, tenant isolation and bad input.
 */
import { getEmailEngagementSchemas, getEmailHealthSchemas } from '#api/analytics/engagement-schemas';
import { dayOf } from '#core/analytics/period';
import type { DeliveryEvent, MessageRecord } from '#core/messages';
import type { PaymentRecord } from '#core/payments';
import { countSending, judgeSending } from '#data/channel-repository';
import { claimMessage, createMessage, getMessage, markMessageSent, recordDeliveryEvent } from '#data/message-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { linksFor } from '#services/message-links';
import { recomputeMerchantRollups } from '#services/recompute-rollups';
import { unsubscribeByToken } from '#services/unsubscribe';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { seedPayment } from '#test/fixtures/payments';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

type Ratio = { rate: number; numerator: number; denominator: number };
interface Health {
  data: {
    sent: number;
    delivered: number;
    bounced: number;
    complained: number;
    spam_complaints: number;
    bounce_rate: Ratio;
    complaint_rate: Ratio;
    delivered_rate: Ratio;
    by_domain: { domain: string; sent: number; bounced: number; complained: number }[];
    series: { bucket: string; sent: number; bounced: number }[];
    other_domains: null | { domains: number };
    sending: { paused: boolean; since: string | null; reason: string | null; thresholds: { bounce_rate: number; complaint_rate: number } };
  };
  error?: { code: string; param?: string };
}
interface Engagement {
  data: {
    sent: number;
    delivered: number;
    opened: number;
    clicked: number;
    unsubscribed: number;
    open_rate: Ratio;
    click_rate: Ratio;
    unsubscribe_rate: Ratio;
    by_campaign: { campaign_id: string | null; sent: number; delivered: number; opened: number; clicked: number; unsubscribed: number }[];
  };
  error?: { code: string; param?: string };
}

const CAMPAIGN = { name: 'Email nudges', trigger: 'soft_decline', steps: [{ action: 'retry', delay_hours: 24 }] };

describe('email analytics', () => {
  let stack: LocalStack;
  let tenant: Tenant;
  let stranger: Tenant;
  let campaignId: string;
  const messages: MessageRecord[] = [];
  const health = (query = '', key = tenant.key) => call<Health>(`${stack.api_url}/analytics/email-health${query}`, { key });
  const engagement = (query = '', key = tenant.key) => call<Engagement>(`${stack.api_url}/analytics/email-engagement${query}`, { key });

  /** A message through the consumer's own writes: claimed, then sent. */
  const send = async (payment: PaymentRecord, to: string, options: { campaign?: string; channel?: 'email' | 'sms' } = {}): Promise<MessageRecord> => {
    const message = await createMessage({
      merchantId: payment.merchant_id,
      customerId: payment.customer_id,
      paymentId: payment.id,
      recoveryId: payment.recovery_id,
      channel: options.channel ?? 'email',
      purpose: options.campaign === undefined ? 'dunning' : 'campaign',
      campaignId: options.campaign ?? null,
      to,
    });
    const now = new Date();
    const claim = await claimMessage(payment.merchant_id, message.id, now, 60_000);
    if (claim.outcome !== 'claimed') throw new Error(`not claimed: ${claim.outcome}`);
    await markMessageSent(claim.message, { provider: 'local', providerMessageId: `local-${message.id}` }, now);
    return (await getMessage(payment.merchant_id, message.id)) as MessageRecord;
  };
  const report = async (message: MessageRecord, ...types: DeliveryEvent['type'][]): Promise<void> => {
    for (const type of types) {
      const at = new Date().toISOString();
      await recordDeliveryEvent(message, { id: `${message.id}-${type}`, type, source: 'mailer', occurred_at: at, received_at: at, detail: null });
    }
  };

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], UNLIMITED);
    stranger = await newTenant(['admin'], UNLIMITED);
    campaignId = (await call<{ data: { id: string } }>(`${stack.api_url}/campaigns`, { method: 'POST', key: tenant.key, body: CAMPAIGN })).body.data.id;
    const m = tenant.merchant.id;
    const ada = await seedPayment(m, { customer: { email: 'ada@gmail.com', name: 'Ada' } });
    const bob = await seedPayment(m, { customer: { email: 'bob@yahoo.com', name: 'Bob' } });
    const cy = await seedPayment(m, { customer: { email: 'cy@gmail.com', name: 'Cy' } });
    // Ada's campaign email is delivered, opened, clicked, and its unsubscribe link used.
    const toAda = await send(ada, 'ada@gmail.com', { campaign: campaignId });
    messages.push(toAda);
    await report(toAda, 'delivered', 'opened', 'clicked');
    await unsubscribeByToken((await linksFor(toAda)).unsubscribe_url.split('/').pop() as string);
    // Bob's campaign email bounces; Cy's dunning email is delivered, then reported as spam.
    messages.push(await send(bob, 'bob@yahoo.com', { campaign: campaignId }));
    await report(messages[1] as MessageRecord, 'bounced');
    messages.push(await send(cy, 'Cy@GMAIL.com'));
    await report(messages[2] as MessageRecord, 'delivered', 'complained');
    // Neither an email never sent nor an SMS counts.
    messages.push(
      await createMessage({
        merchantId: m,
        customerId: cy.customer_id,
        paymentId: cy.id,
        recoveryId: cy.recovery_id,
        channel: 'email',
        purpose: 'dunning',
        to: 'cy@gmail.com',
      }),
    );
    messages.push(await send(cy, '+14155550123', { campaign: campaignId, channel: 'sms' }));
    // Another merchant's email.
    await send(await seedPayment(stranger.merchant.id, { customer: { email: 'eve@gmail.com', name: 'Eve' } }), 'eve@gmail.com');
    await stack.runtime.stream.drain();
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
  });

  /** The direct count over the tenant's messages as stored now: sent emails, and how many have each outcome. */
  const sentEmails = async (): Promise<MessageRecord[]> =>
    (await Promise.all(messages.map((message) => getMessage(tenant.merchant.id, message.id)))).filter(
      (message): message is MessageRecord => message?.channel === 'email' && typeof message.sent_at === 'string',
    );
  const directCount = async () => {
    const emails = await sentEmails();
    const count = (field: keyof MessageRecord) => emails.filter((message) => typeof message[field] === 'string').length;
    return {
      sent: emails.length,
      delivered: count('delivered_at'),
      bounced: count('bounced_at'),
      complained: count('complained_at'),
      opened: count('opened_at'),
      clicked: count('clicked_at'),
      unsubscribed: count('unsubscribed_at'),
    };
  };

  describe('GET /api/v1/analytics/email-health', () => {
    it('rates bounces, complaints and deliveries over the emails sent, overall and per recipient domain', async () => {
      // Prepare
      const direct = await directCount();
      // Act
      const response = await health();
      // Assess
      expect(response.status).toBe(200);
      expect(() => getEmailHealthSchemas.responses[200].parse(response.body)).not.toThrow();
      expect(response.body.data).toMatchObject({ sent: direct.sent, delivered: direct.delivered, bounced: direct.bounced, complained: direct.complained });
      expect(response.body.data).toMatchObject({ sent: 3, delivered: 2, bounced: 1, complained: 1, spam_complaints: 1 });
      expect(response.body.data.bounce_rate).toEqual({ rate: 0.3333, numerator: 1, denominator: 3 });
      expect(response.body.data.complaint_rate).toEqual({ rate: 0.3333, numerator: 1, denominator: 3 });
      expect(response.body.data.delivered_rate).toEqual({ rate: 0.6667, numerator: 2, denominator: 3 });
      expect(response.body.data.by_domain.map((row) => [row.domain, row.sent, row.bounced, row.complained])).toEqual([
        ['gmail.com', 2, 0, 1],
        ['yahoo.com', 1, 1, 0],
      ]);
      expect(response.body.data.other_domains).toBeNull();
      expect(response.body.data.sending).toMatchObject({ paused: false, since: null, thresholds: { bounce_rate: 0.025, complaint_rate: 0.0008 } });
    });

    it('gives the hourly series of the period, the sends in the hour they were sent', async () => {
      // Prepare
      const emails = await sentEmails();
      const today = dayOf(new Date(emails[0]?.sent_at as string));
      const byHour: Record<string, number> = {};
      for (const email of emails) {
        const hour = `${(email.sent_at as string).slice(0, 13)}:00:00Z`;
        byHour[hour] = (byHour[hour] ?? 0) + 1;
      }
      // Act
      const response = await health(`?start_date=${today}&end_date=${today}&group_by=hour`);
      // Assess
      expect(response.body.data.series).toHaveLength(24);
      expect(Object.fromEntries(response.body.data.series.filter((row) => row.sent > 0).map((row) => [row.bucket, row.sent]))).toEqual(byHour);
      expect(response.body.data.series.reduce((sum, row) => sum + row.bounced, 0)).toBe(1);
    });

    it("shows the merchant's sending pause and what it is judged by", async () => {
      // Prepare: a merchant past 2.5% bounces over its last 30 days.
      const paused = await newTenant(['analytics'], UNLIMITED);
      await countSending(paused.merchant.id, 'sent', new Date(), 400);
      await countSending(paused.merchant.id, 'bounced', new Date(), 20);
      const pause = await judgeSending(paused.merchant.id);
      // Act
      const response = await health('', paused.key);
      // Assess
      expect(response.status).toBe(200);
      expect(response.body.data.sending).toMatchObject({ paused: true, since: pause?.since, reason: pause?.reason });
      expect(response.body.data.sent).toBe(0);
    });

    it("counts no other merchant's emails", async () => {
      // Act
      const response = await health('', stranger.key);
      // Assess
      expect(response.body.data).toMatchObject({ sent: 1, delivered: 0 });
      expect(response.body.data.by_domain.map((row) => row.domain)).toEqual(['gmail.com']);
    });

    it.each([
      ['?start_date=2026-02-30', 'start_date'],
      ['?start_date=2026-03-02&end_date=2026-03-01', 'end_date'],
      ['?group_by=year', 'group_by'],
      ['?start_date=2020-01-01&end_date=2026-01-01&group_by=hour', 'group_by'],
    ])('refuses %s with 400 naming %s', async (query, param) => {
      // Act
      const response = await health(query);
      // Assess
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'invalid_request', param });
    });
  });

  it('keeps MSG rollups the hourly recompute finds no drift in', async () => {
    // Prepare
    const day = dayOf(new Date((await sentEmails())[0]?.sent_at as string));
    // Act
    const report = await recomputeMerchantRollups(tenant.merchant.id, day, { families: ['MSG'] });
    // Assess
    expect(report.items_recomputed).toBeGreaterThan(0);
    expect(report.items_stored).toBe(report.items_recomputed);
    expect(report.drift).toEqual([]);
  });

  describe('GET /api/v1/analytics/email-engagement', () => {
    it('rates opens, clicks and unsubscribes over the emails delivered, overall and per campaign', async () => {
      // Prepare
      const { bounced: _b, complained: _c, ...direct } = await directCount();
      // Act
      const response = await engagement();
      // Assess
      expect(response.status).toBe(200);
      expect(() => getEmailEngagementSchemas.responses[200].parse(response.body)).not.toThrow();
      expect(response.body.data).toMatchObject(direct);
      expect(response.body.data).toMatchObject({ sent: 3, delivered: 2, opened: 1, clicked: 1, unsubscribed: 1 });
      expect(response.body.data.open_rate).toEqual({ rate: 0.5, numerator: 1, denominator: 2 });
      expect(response.body.data.unsubscribe_rate).toEqual({ rate: 0.5, numerator: 1, denominator: 2 });
      expect(response.body.data.by_campaign).toEqual([
        expect.objectContaining({ campaign_id: campaignId, sent: 2, delivered: 1, opened: 1, clicked: 1, unsubscribed: 1 }),
        expect.objectContaining({ campaign_id: null, sent: 1, delivered: 1, opened: 0, clicked: 0, unsubscribed: 0 }),
      ]);
    });

    it('keeps one campaign with campaign_id', async () => {
      // Act
      const response = await engagement(`?campaign_id=${campaignId}`);
      // Assess
      expect(response.body.data).toMatchObject({ sent: 2, delivered: 1, opened: 1 });
      expect(response.body.data.by_campaign.map((row) => row.campaign_id)).toEqual([campaignId]);
    });
  });
});
