/**
 * The notifications consumer sending every channel for real: email as MIME over SMTP into the
 * local stack's mail catcher (read back through maildev's REST API), RFC 8058 one-click
 * unsubscribe over HTTP, SMS and WhatsApp through a loopback fake of Twilio's API, the local
 * SMS/WhatsApp sender, and the merchant's automatic sending pause.
 */
import { handler } from '#consumers/notifications';
import { handler as everyMinute } from '#jobs/every-minute';
import type { MessageRecord } from '#core/messages';
import { applyDeliveryCallback } from '#services/delivery-callback';
import { eraseCustomer } from '#services/erase-customer';
import { linksFor } from '#services/message-links';
import { queueMessage } from '#services/queue-message';
import { logger } from '#shared/logger';
import { sendMessageOf } from '#contracts/notifications';
import type { PaymentRecord } from '#core/payments';
import { countSending, getSendingPause, getUnsubscribe, listLocalMessages, resumeSending, sendingCounts } from '#data/channel-repository';
import { createMerchant } from '#data/merchant-repository';
import { createMessage, getMessage, type NewMessage } from '#data/message-repository';
import { getSuppression } from '#data/suppression-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { seedPaymentThrough } from '#test/fixtures/payments';
import { sqsEventOf } from '#test/fixtures/recoveries';
import twilioSdk from 'twilio';
import type { JsonApiServer } from '#test/fakes/json-api-server';
import { startTwilioApi, TWILIO_ACCOUNT_SID, TWILIO_API_TOKEN } from '#test/fakes/twilio-api';

/** An email as maildev's REST API (`GET /api/email`) gives it. */
interface CaughtEmail {
  readonly id: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly headers: Record<string, string>;
  readonly from: ReadonlyArray<{ address: string; name: string }>;
  readonly to: ReadonlyArray<{ address: string }>;
}

jest.setTimeout(30_000);

let stack: LocalStack;

beforeAll(async () => {
  stack = await startTestStack({ mailCatcher: true });
}, 60_000);

afterAll(async () => {
  await stack.stop();
});

const caughtFor = async (address: string): Promise<CaughtEmail[]> => {
  const response = await fetch(`${stack.mail_catcher_url}/api/email`);
  const emails = (await response.json()) as CaughtEmail[];
  return emails.filter((email) => email.to.some((to) => to.address === address));
};

/** The raw message as the catcher received it over SMTP, its folded header lines unfolded (RFC 5322 §2.2.3). */
const sourceOf = async (email: CaughtEmail): Promise<string> =>
  (await (await fetch(`${stack.mail_catcher_url}/api/email/${email.id}/source`)).text()).replace(/\r?\n[ \t]+/g, ' ');

const messageFor = (payment: PaymentRecord, overrides: Partial<NewMessage> = {}): NewMessage => ({
  merchantId: payment.merchant_id,
  customerId: payment.customer_id,
  paymentId: payment.id,
  recoveryId: payment.recovery_id,
  channel: 'email',
  purpose: 'campaign',
  to: payment.customer_email,
  campaignId: 'camp_test',
  stepIndex: 0,
  ...overrides,
});

const send = (merchantId: string, messageId: string) => handler(sqsEventOf(sendMessageOf(merchantId, messageId)));

describe('email through the consumer into the mail catcher', () => {
  it('delivers real MIME with text and html parts, our Message-ID and the RFC 8058 headers; one-click unsubscribe then stops the next message', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Maildev Co' });
    const payment = await seedPaymentThrough(merchant.id, [], { customer: { email: 'ada@example.com', name: 'Ada Lovelace' } });
    const first = await createMessage(messageFor(payment));

    // Act
    const result = await send(merchant.id, first.id);

    // Assess: what the mail catcher received
    expect(result.batchItemFailures).toEqual([]);
    const caught = await caughtFor('ada@example.com');
    expect(caught).toHaveLength(1);
    const email = caught[0] as CaughtEmail;
    const source = await sourceOf(email);
    expect(email.headers['message-id']).toBe(`<${first.id}@recovery.local>`);
    expect(email.from).toEqual([{ address: 'no-reply@recovery.local', name: 'Maildev Co' }]);
    expect(source).toMatch(/^Content-Type: multipart\/alternative;/m);
    expect(source).toMatch(/^Content-Type: text\/plain; charset=utf-8/m);
    expect(source).toMatch(/^Content-Type: text\/html; charset=utf-8/m);
    expect(source).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    const unsubscribeUrl = /^List-Unsubscribe: <([^>]+)>\r?$/m.exec(source)?.[1] as string;
    expect(unsubscribeUrl).toMatch(new RegExp(`^${stack.api_url.replace(/\/api\/v1$/, '')}/unsubscribe/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{43}$`));
    expect(email.subject).toContain('did not go through');
    expect(email.text).toContain('Hello Ada Lovelace,');
    expect(email.text).toContain(`Unsubscribe: ${unsubscribeUrl}`);
    expect(email.text).toMatch(/\/update-payment\/[A-Za-z0-9_-]{43}\b/);
    expect(email.html).toContain(`<a href="${unsubscribeUrl}">Unsubscribe</a>`);
    expect(email.html).toContain('Update payment method</a>');
    expect(await getMessage(merchant.id, first.id)).toMatchObject({ status: 'sent', provider: 'smtp', channel: 'email', purpose: 'campaign' });

    // Act: the same queue message again, then the one-click POST a mail client makes
    await send(merchant.id, first.id);
    const page = await call(unsubscribeUrl, { method: 'GET' });
    const oneClick = await call(unsubscribeUrl, {
      method: 'POST',
      rawBody: 'List-Unsubscribe=One-Click',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    const again = await call(unsubscribeUrl, {
      method: 'POST',
      rawBody: 'List-Unsubscribe=One-Click',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    const next = await createMessage(messageFor(payment, { stepIndex: 1 }));
    await send(merchant.id, next.id);
    const sms = await createMessage(messageFor(payment, { channel: 'sms', to: '+14155550123', stepIndex: 2 }));
    await send(merchant.id, sms.id);

    // Assess: one email only; the page changes nothing, the POST unsubscribes, every channel stops
    expect(await caughtFor('ada@example.com')).toHaveLength(1);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('<form method="post"');
    expect(oneClick.status).toBe(200);
    expect(oneClick.text).toContain('You are unsubscribed');
    expect(again.status).toBe(200);
    expect(await getUnsubscribe(merchant.id, payment.customer_id)).toMatchObject({ channel: 'email', message_id: first.id });
    expect(await getSuppression(merchant.id, 'ada@example.com')).toMatchObject({ reason: 'unsubscribe', customer_id: payment.customer_id });
    expect(await getMessage(merchant.id, next.id)).toMatchObject({ status: 'suppressed', status_reason: expect.stringContaining('unsubscribed') });
    expect(await getMessage(merchant.id, sms.id)).toMatchObject({ status: 'suppressed', status_reason: expect.stringContaining('unsubscribed') });
  });

  it('answers 404 to a forged, tampered or malformed unsubscribe token, and writes nothing', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Forgery Ltd' });
    const payment = await seedPaymentThrough(merchant.id, [], { customer: { email: 'forged@example.com', name: 'F' } });
    const message = await createMessage(messageFor(payment));
    await send(merchant.id, message.id);
    const source = await sourceOf((await caughtFor('forged@example.com'))[0] as CaughtEmail);
    const genuine = /^List-Unsubscribe: <[^>]*\/unsubscribe\/([^>]+)>\r?$/m.exec(source)?.[1] as string;
    const [payload, signature] = genuine.split('.') as [string, string];
    const otherCustomer = Buffer.from(JSON.stringify([merchant.id, 'cus_someoneelse', 'email', message.id])).toString('base64url');
    const origin = stack.api_url.replace(/\/api\/v1$/, '');

    // Act
    const answers = await Promise.all(
      [`${otherCustomer}.${signature}`, `${payload}.${'A'.repeat(43)}`, 'not-a-token', `${payload}.${signature}x`].map((token) =>
        call(`${origin}/unsubscribe/${token}`, { method: 'POST', rawBody: 'List-Unsubscribe=One-Click' }),
      ),
    );

    // Assess
    expect(answers.map((answer) => answer.status)).toEqual([404, 404, 404, 404]);
    expect(answers[0]?.body).toMatchObject({ error: { code: 'resource_not_found' } });
    expect(await getUnsubscribe(merchant.id, payment.customer_id)).toBeUndefined();
    expect(await getSuppression(merchant.id, 'forged@example.com')).toBeUndefined();
  });
});

describe('queued and scheduled messages', () => {
  it('queues a campaign message now, holds one scheduled for later until the every-minute flush-notifications releases it, and sends both', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Queue Co' });
    const payment = await seedPaymentThrough(merchant.id, [], { customer: { email: 'queued@example.com', name: 'Q' } });
    const later = new Date(Date.now() + 10 * 60_000);
    // Act: one now, one in ten minutes
    const now = await queueMessage(messageFor(payment));
    const scheduled = await queueMessage(messageFor(payment, { stepIndex: 1, scheduledAt: later }));
    await stack.runtime.queues.drain();
    const beforeDue = await caughtFor('queued@example.com');
    const report = await everyMinute({
      schedule: 'every-minute',
      scheduled_time: new Date(later.getTime() + 60_000).toISOString(),
      execution_id: 'test-flush',
      attempt_number: 1,
      schedule_arn: 'arn:aws:scheduler:us-east-1:000000000000:schedule/default/every-minute',
    });
    await stack.runtime.queues.drain();
    // Assess
    expect(now.status).toBe('queued');
    expect(scheduled.status).toBe('scheduled');
    expect(beforeDue).toHaveLength(1);
    expect(report.tasks.find((task) => task.name === 'flush-notifications')).toMatchObject({ status: 'ok', summary: { dispatched: 1 } });
    expect(await caughtFor('queued@example.com')).toHaveLength(2);
    expect(await getMessage(merchant.id, scheduled.id)).toMatchObject({ status: 'sent', provider: 'smtp' });
  });

  it("counts an email's hard bounce and complaint callbacks (once each) for the merchant's sending pause", async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Counted Co' });
    const payment = await seedPaymentThrough(merchant.id, [], { customer: { email: 'counted@example.com', name: 'C' } });
    const message = await createMessage(messageFor(payment));
    await send(merchant.id, message.id);
    const sent = await getMessage(merchant.id, message.id);
    const at = new Date().toISOString();
    const bounce = {
      source: 'ses' as const,
      providerMessageId: sent?.provider_message_id as string,
      event: { id: 'evt-bounce', type: 'bounced' as const, source: 'ses', occurred_at: at, received_at: at, detail: 'Permanent/General' },
      suppress: 'hard_bounce' as const,
    };
    // Act: the bounce twice (a retried callback), then a complaint
    await applyDeliveryCallback(bounce, logger);
    await applyDeliveryCallback(bounce, logger);
    await applyDeliveryCallback({ ...bounce, event: { ...bounce.event, id: 'evt-complaint', type: 'complained' }, suppress: 'complaint' }, logger);
    // Assess
    expect(await sendingCounts(merchant.id)).toEqual({ sent: 1, bounced: 1, complained: 1 });
    expect(await getSuppression(merchant.id, 'counted@example.com')).toMatchObject({ reason: 'hard_bounce' });
  });
});

describe('SMS and WhatsApp through Twilio', () => {
  let twilio: JsonApiServer;
  const saved = { ...process.env };

  beforeAll(async () => {
    twilio = await startTwilioApi();
    Object.assign(process.env, {
      MESSAGING_DRIVER: 'twilio',
      TWILIO_API_BASE_URL: twilio.url,
      TWILIO_ACCOUNT_SID,
      TWILIO_AUTH_TOKEN: TWILIO_API_TOKEN,
      TWILIO_SMS_FROM: '+15005550006',
      TWILIO_WHATSAPP_FROM: '+14155238886',
    });
  });

  afterAll(async () => {
    for (const name of ['MESSAGING_DRIVER', 'TWILIO_API_BASE_URL', 'TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_SMS_FROM', 'TWILIO_WHATSAPP_FROM']) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    await twilio.stop();
  });

  it('sends an SMS as Twilio expects it (form body, Basic auth), keeps its Message SID, and does not text twice on redelivery', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Texting Co' });
    const payment = await seedPaymentThrough(merchant.id, [], { customer: { email: 'sms@example.com', name: 'Sam' } });
    const message = await createMessage(messageFor(payment, { channel: 'sms', to: '+14155550123' }));
    const before = twilio.requests.length;

    // Act
    await send(merchant.id, message.id);
    await send(merchant.id, message.id);

    // Assess
    const requests = twilio.requests.slice(before);
    expect(requests).toHaveLength(1);
    const request = requests[0];
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe(`/2010-04-01/Accounts/${TWILIO_ACCOUNT_SID}/Messages.json`);
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request?.headers.authorization).toBe(`Basic ${Buffer.from(`${TWILIO_ACCOUNT_SID}:${TWILIO_API_TOKEN}`).toString('base64')}`);
    const form = new URLSearchParams(request?.bodyText);
    expect(form.get('To')).toBe('+14155550123');
    expect(form.get('From')).toBe('+15005550006');
    expect(form.get('Body')).toContain(`Texting Co: your payment of $49.99`);
    expect(form.get('Body')).toContain('/unsubscribe/');
    const sent = await getMessage(merchant.id, message.id);
    expect(sent).toMatchObject({ status: 'sent', provider: 'twilio', channel: 'sms', provider_message_id: expect.stringMatching(/^SM[0-9a-f]{32}$/) });
  });

  it('sends a WhatsApp template by its content SID, and fails a free-form WhatsApp (no content SID) with the reason, sending nothing', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'WhatsApp Co' });
    const payment = await seedPaymentThrough(merchant.id, [], { customer: { email: 'wa@example.com', name: 'Wanda' } });
    const template = await createMessage(messageFor(payment, { channel: 'whatsapp', to: '+447700900123', contentSid: 'HX0123456789abcdef0123456789abcdef' }));
    const freeForm = await createMessage(messageFor(payment, { channel: 'whatsapp', to: '+447700900123', stepIndex: 1 }));
    const before = twilio.requests.length;

    // Act
    await send(merchant.id, template.id);
    const result = await send(merchant.id, freeForm.id);

    // Assess
    const requests = twilio.requests.slice(before);
    expect(requests).toHaveLength(1);
    const form = new URLSearchParams(requests[0]?.bodyText);
    expect(form.get('To')).toBe('whatsapp:+447700900123');
    expect(form.get('From')).toBe('whatsapp:+14155238886');
    expect(form.get('ContentSid')).toBe('HX0123456789abcdef0123456789abcdef');
    expect(form.get('Body')).toBeNull();
    expect(await getMessage(merchant.id, template.id)).toMatchObject({ status: 'sent', provider: 'twilio' });
    expect(result.batchItemFailures).toEqual([]);
    expect(await getMessage(merchant.id, freeForm.id)).toMatchObject({
      status: 'failed',
      provider_message_id: null,
      status_reason: expect.stringContaining('24 h session window'),
    });
  });

  it("makes the same request for an SMS as Twilio's own SDK (twilio-node messages.create against the same fake)", async () => {
    // Prepare: the SDK, with its API domain pointed at the fake
    const sdk = twilioSdk(TWILIO_ACCOUNT_SID, TWILIO_API_TOKEN);
    sdk.api.baseUrl = twilio.url;
    const merchant = await createMerchant({ name: 'SDK Parity Co' });
    const payment = await seedPaymentThrough(merchant.id, [], { customer: { email: 'parity@example.com', name: 'P' } });
    const message = await createMessage(messageFor(payment, { channel: 'sms', to: '+14155550177' }));
    const before = twilio.requests.length;
    // Act
    await send(merchant.id, message.id);
    const ours = twilio.requests[before];
    const body = new URLSearchParams(ours?.bodyText).get('Body') as string;
    const created = await sdk.messages.create({ to: '+14155550177', from: '+15005550006', body });
    const theirs = twilio.requests[before + 1];
    // Assess
    expect(created.sid).toMatch(/^SM/);
    expect(ours?.method).toBe(theirs?.method);
    expect(ours?.path).toBe(theirs?.path);
    expect(ours?.headers.authorization).toBe(theirs?.headers.authorization);
    expect(theirs?.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(Object.fromEntries(new URLSearchParams(ours?.bodyText))).toEqual(Object.fromEntries(new URLSearchParams(theirs?.bodyText)));
  });

  it("marks a message Twilio refuses for good (invalid number, 21211) failed with Twilio's reason", async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Bad Number Co' });
    const payment = await seedPaymentThrough(merchant.id, [], { customer: { email: 'bad@example.com', name: 'B' } });
    const message = await createMessage(messageFor(payment, { channel: 'sms', to: '+15005550001' }));
    // Act
    const result = await send(merchant.id, message.id);
    // Assess
    expect(result.batchItemFailures).toEqual([]);
    expect(await getMessage(merchant.id, message.id)).toMatchObject({ status: 'failed', status_reason: expect.stringContaining('21211') });
  });
});

describe('erasure', () => {
  it("removes a customer's unsubscribe, suppression and local SMS with the customer", async () => {
    // Prepare: an SMS sent by the local sender, then the customer unsubscribes
    const merchant = await createMerchant({ name: 'Erased Texts' });
    const payment = await seedPaymentThrough(merchant.id, [], { customer: { email: 'erase-me@example.com', name: 'E' } });
    const sms = await createMessage(messageFor(payment, { channel: 'sms', to: '+14155550111' }));
    await send(merchant.id, sms.id);
    const { unsubscribe_url: url } = await linksFor((await getMessage(merchant.id, sms.id)) as MessageRecord);
    await call(url, { method: 'POST', rawBody: 'List-Unsubscribe=One-Click' });
    const before = { unsubscribe: await getUnsubscribe(merchant.id, payment.customer_id), local: await listLocalMessages(merchant.id, { limit: 10 }) };
    // Act
    await eraseCustomer(merchant.id, payment.customer_id);
    // Assess
    expect(before.unsubscribe).toBeDefined();
    expect(before.local).toHaveLength(1);
    expect(await getUnsubscribe(merchant.id, payment.customer_id)).toBeUndefined();
    expect(await listLocalMessages(merchant.id, { limit: 10 })).toEqual([]);
    expect(await getSuppression(merchant.id, 'erase-me@example.com')).toBeUndefined();
    // The link keeps answering, and writes nothing about the erased customer.
    expect((await call(url, { method: 'POST', rawBody: 'List-Unsubscribe=One-Click' })).status).toBe(200);
    expect(await getUnsubscribe(merchant.id, payment.customer_id)).toBeUndefined();
  });
});

describe('the local SMS/WhatsApp sender', () => {
  it('keeps each SMS as an item the operator lists', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Local Texts' });
    const payment = await seedPaymentThrough(merchant.id, [], { customer: { email: 'local@example.com', name: 'Lo' } });
    const message = await createMessage(messageFor(payment, { channel: 'sms', to: '+14155550199' }));
    // Act
    await send(merchant.id, message.id);
    // Assess
    const listed = await listLocalMessages(merchant.id, { limit: 10 });
    expect(listed).toEqual([
      expect.objectContaining({ message_id: message.id, channel: 'sms', to: '+14155550199', body: expect.stringContaining('Local Texts') }),
    ]);
    expect(await getMessage(merchant.id, message.id)).toMatchObject({ status: 'sent', provider: 'local', provider_message_id: listed[0]?.id });
    expect(await listLocalMessages(merchant.id, { channel: 'whatsapp', limit: 10 })).toEqual([]);
  });
});

describe('the automatic sending pause', () => {
  it('holds email past 2.5% bounces (nothing lost), says why and since when, and sends again once an operator lifts it', async () => {
    // Prepare: 400 emails sent this month, 11 bounced (2.75%)
    const merchant = await createMerchant({ name: 'Bouncy Co' });
    const now = new Date();
    await countSending(merchant.id, 'sent', new Date(now.getTime() - 3 * 86_400_000), 400);
    await countSending(merchant.id, 'bounced', new Date(now.getTime() - 2 * 86_400_000), 11);
    const payment = await seedPaymentThrough(merchant.id, [], { customer: { email: 'held@example.com', name: 'Held' } });
    const message = await createMessage(messageFor(payment));

    // Act
    await send(merchant.id, message.id);

    // Assess
    const held = await getMessage(merchant.id, message.id);
    expect(held).toMatchObject({ status: 'scheduled', status_reason: expect.stringContaining('bounce rate 2.75%') });
    expect(Date.parse(held?.scheduled_at as string)).toBeGreaterThan(now.getTime() + 50 * 60_000);
    expect(await getSendingPause(merchant.id)).toMatchObject({
      reason: expect.stringContaining('bounce rate'),
      counts: { sent: 400, bounced: 11, complained: 0 },
    });
    expect(await caughtFor('held@example.com')).toHaveLength(0);

    // Act: the operator lifts it; the held message comes round again
    const lifted = await resumeSending(merchant.id);
    await send(merchant.id, message.id);

    // Assess
    expect(lifted).toMatchObject({ merchant_id: merchant.id });
    expect(await getSendingPause(merchant.id)).toBeUndefined();
    expect(await getMessage(merchant.id, message.id)).toMatchObject({ status: 'sent' });
    expect(await caughtFor('held@example.com')).toHaveLength(1);
  });

  it('does not judge before 200 sends, and pauses on complaints past 0.08%', async () => {
    // Prepare
    const few = await createMerchant({ name: 'Few Sends' });
    await countSending(few.id, 'sent', new Date(), 100);
    await countSending(few.id, 'bounced', new Date(), 20);
    const complaints = await createMerchant({ name: 'Complained About' });
    await countSending(complaints.id, 'sent', new Date(), 1000);
    await countSending(complaints.id, 'complained', new Date(), 1);
    const fewPayment = await seedPaymentThrough(few.id, [], { customer: { email: 'few@example.com', name: 'Few' } });
    const complainedPayment = await seedPaymentThrough(complaints.id, [], { customer: { email: 'complained@example.com', name: 'C' } });
    const fewMessage = await createMessage(messageFor(fewPayment));
    const complainedMessage = await createMessage(messageFor(complainedPayment));
    // Act
    await send(few.id, fewMessage.id);
    await send(complaints.id, complainedMessage.id);
    // Assess
    expect(await getMessage(few.id, fewMessage.id)).toMatchObject({ status: 'sent' });
    expect(await getMessage(complaints.id, complainedMessage.id)).toMatchObject({
      status: 'scheduled',
      status_reason: expect.stringContaining('complaint rate 0.10%'),
    });
  });
});
