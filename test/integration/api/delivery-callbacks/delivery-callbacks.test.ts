/**
 * The delivery callbacks over real HTTP and DynamoDB Local: a dunning email is triggered and sent
 * (POST /recoveries/{id}/dunning, then the notifications queue), then the service's messaging and
 * email providers report on it: POST /api/v1/messaging/status (Twilio-style), POST
 * /api/v1/messaging/email/status (Mailgun-style) and POST /api/v1/mailer/webhook (Standard
 * Webhooks). Callbacks are signed as each provider documents (test/fixtures/delivery-callbacks.ts,
 * imported first: it sets the service-wide secrets before the runtime reads its environment).
 */
import {
  LEGACY_EMAIL_SIGNING_KEY,
  mailerPayload,
  mailgunData,
  mailgunEvent,
  type SignedCallback,
  standardWebhook,
  twilioStatus,
  twilioStatusBySdk,
  withMailgunSignature,
} from '#test/fixtures/delivery-callbacks';
import { createHash } from 'node:crypto';
import { DeleteCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { CALLBACK_TOLERANCE_SECONDS } from '#api/delivery-callbacks/signatures';
import { CALLBACK_TOKEN_RETENTION_MARGIN_SECONDS } from '#data/callback-token-repository';
import { receiveMailerEventSchemas } from '#api/delivery-callbacks/schemas';
import { listOutboxEmails } from '#adapters/email/outbox';
import type { MessageRecord } from '#core/messages';
import { documentClient } from '#data/client';
import { customerKeys, ENTITY, messageDueKeys } from '#data/keys';
import { getMessage } from '#data/message-repository';
import { getSuppression } from '#data/suppression-repository';
import { env } from '#shared/env';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { originOf, startTestStack } from '#test/fixtures/local-stack';
import { seedPaymentThrough } from '#test/fixtures/payments';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

type Item = Record<string, unknown>;

interface Received {
  data: { received: true };
  meta: { timestamp: string; request_id: string };
  error?: { code: string; message: string };
}

interface Sent {
  readonly messageId: string;
  readonly providerMessageId: string;
  readonly recoveryId: string;
  readonly customerId: string;
  readonly email: string;
}

const MESSAGING = '/api/v1/messaging/status';
const LEGACY = '/api/v1/messaging/email/status';
const MAILER = '/api/v1/mailer/webhook';

async function scanTable(): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: Item | undefined;
  do {
    const page = await documentClient.send(new ScanCommand({ TableName: process.env.TABLE_NAME, ...(startKey ? { ExclusiveStartKey: startKey } : {}) }));
    items.push(...((page.Items ?? []) as Item[]));
    startKey = page.LastEvaluatedKey as Item | undefined;
  } while (startKey !== undefined);
  return items;
}

/** The spent callback tokens among the items (single-use Mailgun tokens). */
const spentTokens = (items: Item[]): Item[] => items.filter((item) => item.entity === ENTITY.callbackToken);
const withoutSpentTokens = (items: Item[]): Item[] => items.filter((item) => item.entity !== ENTITY.callbackToken);
const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

describe('delivery callbacks', () => {
  let stack: LocalStack;
  let tenant: Tenant;

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], UNLIMITED);
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const post = (path: string, callback: SignedCallback) =>
    call<Received>(`${originOf(stack)}${path}`, { method: 'POST', rawBody: callback.body, headers: callback.headers });
  /** The URL the server rebuilds for a callback (no X-Forwarded-Proto: https and the Host header), which Twilio signs. */
  const publicUrl = (path: string): string => `https://${new URL(originOf(stack)).host}${path}`;
  const messageOf = (sent: Sent): Promise<MessageRecord | undefined> => getMessage(tenant.merchant.id, sent.messageId);
  const triggerDunning = async (recoveryId: string): Promise<string> => {
    const response = await call<{ data: { message_id: string } }>(`${stack.api_url}/recoveries/${recoveryId}/dunning`, { method: 'POST', key: tenant.key });
    expect(response.status).toBe(202);
    await stack.runtime.queues.drain();
    return response.body.data.message_id;
  };
  /** A dunning email sent to a fresh customer through the API and the notifications queue. */
  const sendDunning = async (): Promise<Sent> => {
    const email = `cb-${Math.random().toString(36).slice(2, 10)}@example.com`;
    const payment = await seedPaymentThrough(tenant.merchant.id, ['retry'], {
      customer: { email, name: 'Callback Customer' },
      invoiceId: `in_${Math.random().toString(36).slice(2, 10)}`,
    });
    const messageId = await triggerDunning(payment.recovery_id);
    const message = await getMessage(tenant.merchant.id, messageId);
    expect(message).toMatchObject({ status: 'sent', provider_message_id: expect.any(String) });
    return { messageId, providerMessageId: message?.provider_message_id as string, recoveryId: payment.recovery_id, customerId: payment.customer_id, email };
  };
  /** The hour of manual-dunning cooldown after the first email, passed: its item is gone, as its TTL would remove it. */
  const endDunningCooldown = (customerId: string) =>
    documentClient.send(new DeleteCommand({ TableName: env.TABLE_NAME, Key: messageDueKeys.cooldown(tenant.merchant.id, customerId) }));
  const outboxOf = async (messageId: string) => (await listOutboxEmails(tenant.merchant.id)).filter((email) => email.message_id === messageId);

  describe('POST /api/v1/mailer/webhook', () => {
    it('records delivered with its timestamp and answers 200 received when the event is correctly signed', async () => {
      // Prepare
      const sent = await sendDunning();
      const callback = standardWebhook(mailerPayload('email.delivered', sent.providerMessageId, {}));
      // Act
      const response = await post(MAILER, callback);
      // Assess
      expect(response.status).toBe(200);
      expect(() => receiveMailerEventSchemas.responses[200].parse(response.body)).not.toThrow();
      expect(response.body.data).toEqual({ received: true });
      const message = await messageOf(sent);
      expect(message).toMatchObject({ status: 'sent', delivery_status: 'delivered', delivered_at: expect.any(String) });
      expect(message?.delivery_events).toEqual([expect.objectContaining({ id: callback.id, type: 'delivered', source: 'mailer' })]);
    });

    it('keeps the furthest state and one event per id when events arrive twice and out of order', async () => {
      // Prepare
      const sent = await sendDunning();
      const clicked = standardWebhook(mailerPayload('email.clicked', sent.providerMessageId));
      const opened = standardWebhook(mailerPayload('email.opened', sent.providerMessageId));
      const delivered = standardWebhook(mailerPayload('email.delivered', sent.providerMessageId));
      // Act
      const answers = [
        await post(MAILER, clicked),
        await post(MAILER, clicked),
        await post(MAILER, delivered),
        await post(MAILER, opened),
        await post(MAILER, delivered),
      ];
      // Assess
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
      const message = await messageOf(sent);
      expect(message).toMatchObject({
        delivery_status: 'clicked',
        clicked_at: expect.any(String),
        opened_at: expect.any(String),
        delivered_at: expect.any(String),
      });
      expect(message?.delivery_events?.map((event) => event.type)).toEqual(['clicked', 'delivered', 'opened']);
    });

    it('suppresses the recipient on a hard bounce, so the next dunning to the customer is suppressed and sends nothing', async () => {
      // Prepare
      const sent = await sendDunning();
      // Act
      const response = await post(
        MAILER,
        standardWebhook(mailerPayload('email.bounced', sent.providerMessageId, { bounce: { type: 'Permanent', subType: 'General' } })),
      );
      await endDunningCooldown(sent.customerId);
      const secondMessageId = await triggerDunning(sent.recoveryId);
      // Assess
      expect(response.status).toBe(200);
      expect(await messageOf(sent)).toMatchObject({ delivery_status: 'bounced', bounced_at: expect.any(String) });
      expect(await getSuppression(tenant.merchant.id, sent.email)).toMatchObject({
        email: sent.email,
        reason: 'hard_bounce',
        source_message_id: sent.messageId,
        customer_id: sent.customerId,
        created_at: expect.any(String),
      });
      const suppressionItem = (await scanTable()).find((item) => item.SK === `SUPP#${sent.email}`);
      expect(suppressionItem).toMatchObject({ PK: `M#${tenant.merchant.id}`, GSI2PK: customerKeys.data(tenant.merchant.id, sent.customerId) });
      expect(await getMessage(tenant.merchant.id, secondMessageId)).toMatchObject({ status: 'suppressed', provider_message_id: null });
      expect(await outboxOf(secondMessageId)).toHaveLength(0);
    });

    it('keeps a transient bounce as a deferred event without moving the status or suppressing', async () => {
      // Prepare
      const sent = await sendDunning();
      // Act
      const response = await post(
        MAILER,
        standardWebhook(mailerPayload('email.bounced', sent.providerMessageId, { bounce: { type: 'Transient', subType: 'MailboxFull' } })),
      );
      // Assess
      expect(response.status).toBe(200);
      const message = await messageOf(sent);
      expect(message?.delivery_status).toBeUndefined();
      expect(message?.delivery_events?.map((event) => event.type)).toEqual(['deferred']);
      expect(await getSuppression(tenant.merchant.id, sent.email)).toBeUndefined();
    });

    it('answers 400 and changes nothing when a correctly signed body is not a mailer event', async () => {
      // Prepare
      const sent = await sendDunning();
      const before = await messageOf(sent);
      // Act
      const response = await post(MAILER, standardWebhook({ type: 'email.delivered', data: {} }));
      // Assess
      expect(response.status).toBe(400);
      expect(response.body.error?.code).toBe('invalid_request');
      expect(await messageOf(sent)).toEqual(before);
    });
  });

  describe('POST /api/v1/messaging/email/status', () => {
    it('records delivered then opened when the legacy callbacks are correctly signed', async () => {
      // Prepare
      const sent = await sendDunning();
      // Act
      const delivered = await post(LEGACY, mailgunEvent(mailgunData(sent.providerMessageId, 'delivered')));
      const opened = await post(LEGACY, mailgunEvent(mailgunData(`<${sent.providerMessageId}>`, 'opened')));
      // Assess
      expect([delivered.status, opened.status]).toEqual([200, 200]);
      expect(opened.body.data).toEqual({ received: true });
      expect(await messageOf(sent)).toMatchObject({ delivery_status: 'opened', delivered_at: expect.any(String), opened_at: expect.any(String) });
    });

    it('suppresses the recipient on a complaint, so the next dunning to the customer is suppressed and sends nothing', async () => {
      // Prepare
      const sent = await sendDunning();
      // Act
      const response = await post(LEGACY, mailgunEvent(mailgunData(sent.providerMessageId, 'complained')));
      await endDunningCooldown(sent.customerId);
      const secondMessageId = await triggerDunning(sent.recoveryId);
      // Assess
      expect(response.status).toBe(200);
      expect(await messageOf(sent)).toMatchObject({ delivery_status: 'complained', complained_at: expect.any(String) });
      expect(await getSuppression(tenant.merchant.id, sent.email)).toMatchObject({ reason: 'complaint', source_message_id: sent.messageId });
      expect(await getMessage(tenant.merchant.id, secondMessageId)).toMatchObject({ status: 'suppressed' });
      expect(await outboxOf(secondMessageId)).toHaveLength(0);
    });

    it('suppresses on a permanent failure and only defers on a temporary one', async () => {
      // Prepare
      const soft = await sendDunning();
      const hard = await sendDunning();
      // Act
      await post(LEGACY, mailgunEvent(mailgunData(soft.providerMessageId, 'failed', { severity: 'temporary', reason: 'generic' })));
      await post(LEGACY, mailgunEvent(mailgunData(hard.providerMessageId, 'failed', { severity: 'permanent', reason: 'bounce' })));
      // Assess
      expect((await messageOf(soft))?.delivery_status).toBeUndefined();
      expect(await getSuppression(tenant.merchant.id, soft.email)).toBeUndefined();
      expect(await messageOf(hard)).toMatchObject({ delivery_status: 'bounced' });
      expect(await getSuppression(tenant.merchant.id, hard.email)).toMatchObject({ reason: 'hard_bounce' });
    });

    it('spends the token as a SHA-256-keyed item that expires a little after the signature window, and never stores the raw token', async () => {
      // Prepare
      const sent = await sendDunning();
      const callback = mailgunEvent(mailgunData(sent.providerMessageId, 'delivered'));
      const before = spentTokens(await scanTable());
      // Act
      const response = await post(LEGACY, callback);
      // Assess
      expect(response.status).toBe(200);
      const after = await scanTable();
      const added = spentTokens(after).filter((item) => !before.some((old) => old.PK === item.PK));
      const { timestamp, token } = callback.signatureBlock;
      expect(added).toEqual([
        {
          PK: `CBTOKEN#${sha256Hex(token)}`,
          SK: 'CBTOKEN#legacy_email',
          entity: 'callback_token',
          source: 'legacy_email',
          created_at: expect.any(String),
          expires_at: Number(timestamp) + CALLBACK_TOLERANCE_SECONDS + CALLBACK_TOKEN_RETENTION_MARGIN_SECONDS,
        },
      ]);
      expect(JSON.stringify(after)).not.toContain(token);
    });

    it('refuses a captured signature replayed with other event-data: 401 invalid_signature and nothing written', async () => {
      // Prepare
      const sent = await sendDunning();
      const genuine = mailgunEvent(mailgunData(sent.providerMessageId, 'delivered'));
      expect((await post(LEGACY, genuine)).status).toBe(200);
      const before = await scanTable();
      const replay = withMailgunSignature(genuine.signatureBlock, mailgunData(sent.providerMessageId, 'complained'));
      // Act
      const response = await post(LEGACY, replay);
      // Assess
      expect(response.status).toBe(401);
      expect(response.body.error?.code).toBe('invalid_signature');
      expect(await scanTable()).toEqual(before);
      expect(await messageOf(sent)).toMatchObject({ delivery_status: 'delivered' });
      expect(await getSuppression(tenant.merchant.id, sent.email)).toBeUndefined();
    });

    // Provider retries: a resend of the unchanged signature block inside the window is refused (its
    // first copy was handled); a retry Mailgun signs anew carries a new token and is accepted, and
    // its event (same event-data.id) is recorded once. An unchanged block resent after Mailgun's
    // first retry delay (5 min) is stale: see the refusals below.
    it('refuses the same signed delivery sent twice, having recorded its event once', async () => {
      // Prepare
      const sent = await sendDunning();
      const callback = mailgunEvent(mailgunData(sent.providerMessageId, 'opened'));
      // Act
      const first = await post(LEGACY, callback);
      const afterFirst = await scanTable();
      const second = await post(LEGACY, callback);
      // Assess
      expect([first.status, second.status]).toEqual([200, 401]);
      expect(second.body.error?.code).toBe('invalid_signature');
      expect(await scanTable()).toEqual(afterFirst);
      const message = await messageOf(sent);
      expect(message?.delivery_status).toBe('opened');
      expect(message?.delivery_events).toHaveLength(1);
    });

    it('accepts a retry of the same event signed anew with a new token, recording the event once', async () => {
      // Prepare
      const sent = await sendDunning();
      const data = mailgunData(sent.providerMessageId, 'delivered');
      const first = mailgunEvent(data);
      const retry = mailgunEvent(data);
      const before = spentTokens(await scanTable()).length;
      // Act
      const answers = [await post(LEGACY, first), await post(LEGACY, retry)];
      // Assess
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      expect(spentTokens(await scanTable())).toHaveLength(before + 2);
      expect((await messageOf(sent))?.delivery_events).toEqual([expect.objectContaining({ id: data.id, type: 'delivered', source: 'legacy_email' })]);
    });

    it('accepts exactly one of several concurrent deliveries with the same token', async () => {
      // Prepare
      const sent = await sendDunning();
      const callback = mailgunEvent(mailgunData(sent.providerMessageId, 'clicked'));
      // Act
      const answers = await Promise.all(Array.from({ length: 5 }, () => post(LEGACY, callback)));
      // Assess
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401, 401, 401, 401]);
      expect((await messageOf(sent))?.delivery_events).toHaveLength(1);
    });

    it('spends the token of a signed body without readable event-data (400), so its signature cannot be reused with readable event-data', async () => {
      // Prepare
      const sent = await sendDunning();
      const unreadable = mailgunEvent({ event: 'delivered' });
      const before = await messageOf(sent);
      // Act
      const refused = await post(LEGACY, unreadable);
      const reused = await post(LEGACY, withMailgunSignature(unreadable.signatureBlock, mailgunData(sent.providerMessageId, 'complained')));
      // Assess
      expect(refused.status).toBe(400);
      expect(refused.body.error?.code).toBe('invalid_request');
      expect(reused.status).toBe(401);
      expect(reused.body.error?.code).toBe('invalid_signature');
      expect(await messageOf(sent)).toEqual(before);
      expect(await getSuppression(tenant.merchant.id, sent.email)).toBeUndefined();
    });
  });

  describe('POST /api/v1/messaging/status', () => {
    it('records delivered then read as opened when the status callbacks are correctly signed', async () => {
      // Prepare
      const sent = await sendDunning();
      const url = publicUrl(MESSAGING);
      // Act
      const read = await post(
        MESSAGING,
        twilioStatus(url, { MessageSid: sent.providerMessageId, MessageStatus: 'read', AccountSid: 'AC123', To: 'whatsapp:+15550001111' }),
      );
      const delivered = await post(
        MESSAGING,
        twilioStatus(url, { MessageSid: sent.providerMessageId, MessageStatus: 'delivered', AccountSid: 'AC123', To: 'whatsapp:+15550001111' }),
      );
      const queued = await post(MESSAGING, twilioStatus(url, { MessageSid: sent.providerMessageId, MessageStatus: 'queued', AccountSid: 'AC123' }));
      // Assess
      expect([read.status, delivered.status, queued.status]).toEqual([200, 200, 200]);
      const message = await messageOf(sent);
      expect(message).toMatchObject({ delivery_status: 'opened', opened_at: expect.any(String), delivered_at: expect.any(String) });
      expect(message?.delivery_events?.map((event) => event.id)).toEqual([`${sent.providerMessageId}:read`, `${sent.providerMessageId}:delivered`]);
    });

    // [WEBHOOK_PUBLIC_BASE_URL, origin the twilio SDK signs]: Twilio may sign the URL with or without its default port.
    it.each([
      ['https://hooks.example.com', 'https://hooks.example.com:443'],
      ['https://hooks.example.com:443', 'https://hooks.example.com'],
      ['http://hooks.example.com', 'http://hooks.example.com:80'],
      ['http://hooks.example.com:80', 'http://hooks.example.com'],
      ['https://hooks.example.com', 'https://hooks.example.com'],
    ])('records a status callback when the public URL is %s and the twilio SDK signed it over %s', async (publicBase, signedOrigin) => {
      // Prepare
      const sent = await sendDunning();
      const callback = twilioStatusBySdk(`${signedOrigin}${MESSAGING}`, {
        MessageSid: sent.providerMessageId,
        MessageStatus: 'delivered',
        AccountSid: 'AC123',
        To: '+15550001111',
      });
      const configured = env.WEBHOOK_PUBLIC_BASE_URL;
      env.WEBHOOK_PUBLIC_BASE_URL = publicBase;
      // Act
      const response = await post(MESSAGING, callback).finally(() => {
        env.WEBHOOK_PUBLIC_BASE_URL = configured;
      });
      // Assess
      expect(response.status).toBe(200);
      const message = await messageOf(sent);
      expect(message).toMatchObject({ delivery_status: 'delivered', delivered_at: expect.any(String) });
      expect(message?.delivery_events?.map((event) => event.id)).toEqual([`${sent.providerMessageId}:delivered`]);
    });

    it('refuses a status callback signed over the public URL on another port, which is another endpoint', async () => {
      // Prepare
      const sent = await sendDunning();
      const before = await messageOf(sent);
      const callback = twilioStatusBySdk(`https://hooks.example.com:8443${MESSAGING}`, { MessageSid: sent.providerMessageId, MessageStatus: 'delivered' });
      const configured = env.WEBHOOK_PUBLIC_BASE_URL;
      env.WEBHOOK_PUBLIC_BASE_URL = 'https://hooks.example.com';
      // Act
      const response = await post(MESSAGING, callback).finally(() => {
        env.WEBHOOK_PUBLIC_BASE_URL = configured;
      });
      // Assess
      expect(response.status).toBe(401);
      expect(response.body.error?.code).toBe('invalid_signature');
      expect(await messageOf(sent)).toEqual(before);
    });
  });

  describe('refusals', () => {
    const cases: [string, string, (sent: Sent, url: string) => SignedCallback][] = [
      [
        'messaging: tampered body',
        MESSAGING,
        (sent, url) => {
          const signed = twilioStatus(url, { MessageSid: sent.providerMessageId, MessageStatus: 'delivered' });
          return { ...signed, body: signed.body.replace('delivered', 'undelivered') };
        },
      ],
      [
        'messaging: wrong secret',
        MESSAGING,
        (sent, url) => twilioStatus(url, { MessageSid: sent.providerMessageId, MessageStatus: 'delivered' }, 'another_token'),
      ],
      [
        'messaging: missing signature',
        MESSAGING,
        (sent, url) => {
          const signed = twilioStatus(url, { MessageSid: sent.providerMessageId, MessageStatus: 'delivered' });
          return { body: signed.body, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } };
        },
      ],
      [
        'messaging: signed for another URL',
        MESSAGING,
        (sent) => twilioStatus('https://elsewhere.example.com/api/v1/messaging/status', { MessageSid: sent.providerMessageId, MessageStatus: 'delivered' }),
      ],
      // The local server's URL has a non-default port, which is never dropped (twilio-node would drop it).
      [
        'messaging: signed over the URL without its non-default port',
        MESSAGING,
        (sent, url) => twilioStatusBySdk(url.replace(/:\d+\//, '/'), { MessageSid: sent.providerMessageId, MessageStatus: 'delivered' }),
      ],
      // Mailgun signs only timestamp+token, not event-data: the tampering it detects is of the signed fields.
      [
        'legacy email: tampered signed token',
        LEGACY,
        (sent) => {
          const signed = mailgunEvent(mailgunData(sent.providerMessageId, 'delivered'));
          const body = JSON.parse(signed.body) as { signature: { token: string } };
          body.signature.token = `${body.signature.token.slice(0, -1)}${body.signature.token.endsWith('a') ? 'b' : 'a'}`;
          return { ...signed, body: JSON.stringify(body) };
        },
      ],
      ['legacy email: wrong secret', LEGACY, (sent) => mailgunEvent(mailgunData(sent.providerMessageId, 'delivered'), { key: `${LEGACY_EMAIL_SIGNING_KEY}x` })],
      [
        'legacy email: missing signature',
        LEGACY,
        (sent) => ({
          body: JSON.stringify({ 'event-data': mailgunData(sent.providerMessageId, 'delivered') }),
          headers: { 'Content-Type': 'application/json' },
        }),
      ],
      [
        'legacy email: stale timestamp',
        LEGACY,
        (sent) => mailgunEvent(mailgunData(sent.providerMessageId, 'delivered'), { timestamp: Math.floor(Date.now() / 1000) - 301 }),
      ],
      [
        'mailer: tampered body',
        MAILER,
        (sent) => {
          const signed = standardWebhook(mailerPayload('email.delivered', sent.providerMessageId));
          return { ...signed, body: signed.body.replace('email.delivered', 'email.complained') };
        },
      ],
      [
        'mailer: wrong secret',
        MAILER,
        (sent) =>
          standardWebhook(mailerPayload('email.delivered', sent.providerMessageId), { secret: `whsec_${Buffer.from('not-the-secret').toString('base64')}` }),
      ],
      [
        'mailer: missing signature',
        MAILER,
        (sent) => {
          const signed = standardWebhook(mailerPayload('email.delivered', sent.providerMessageId));
          const { 'webhook-signature': _dropped, ...headers } = signed.headers;
          return { body: signed.body, headers };
        },
      ],
      [
        'mailer: stale timestamp',
        MAILER,
        (sent) => standardWebhook(mailerPayload('email.delivered', sent.providerMessageId), { timestamp: Math.floor(Date.now() / 1000) - 301 }),
      ],
      [
        'mailer: future timestamp',
        MAILER,
        (sent) => standardWebhook(mailerPayload('email.delivered', sent.providerMessageId), { timestamp: Math.floor(Date.now() / 1000) + 301 }),
      ],
    ];

    it.each(cases)('answers 401 invalid_signature and changes nothing when %s', async (_name, path, build) => {
      // Prepare
      const sent = await sendDunning();
      const before = await messageOf(sent);
      const tokensBefore = spentTokens(await scanTable());
      // Act
      const response = await post(path, build(sent, publicUrl(path)));
      // Assess
      expect(response.status).toBe(401);
      expect(response.body.error?.code).toBe('invalid_signature');
      expect(await messageOf(sent)).toEqual(before);
      expect(await getSuppression(tenant.merchant.id, sent.email)).toBeUndefined();
      expect(spentTokens(await scanTable())).toEqual(tokensBefore);
    });

    it('answers 401 invalid_signature when the secret of the callback is not configured', async () => {
      // Prepare
      const sent = await sendDunning();
      const before = await messageOf(sent);
      const configured = env.MAILER_WEBHOOK_SECRET;
      env.MAILER_WEBHOOK_SECRET = undefined;
      // Act
      const response = await post(MAILER, standardWebhook(mailerPayload('email.complained', sent.providerMessageId))).finally(() => {
        env.MAILER_WEBHOOK_SECRET = configured;
      });
      // Assess
      expect(response.status).toBe(401);
      expect(response.body.error?.code).toBe('invalid_signature');
      expect(await messageOf(sent)).toEqual(before);
    });

    it('answers 400 to a body over 256 KB', async () => {
      // Prepare
      const callback = standardWebhook(mailerPayload('email.delivered', 'obx_unknown', { padding: 'x'.repeat(260 * 1024) }));
      // Act
      const response = await post(MAILER, callback);
      // Assess
      expect(response.status).toBe(400);
    });
  });

  it.each([
    ['messaging', MESSAGING],
    ['legacy email', LEGACY],
    ['mailer', MAILER],
  ] as const)('answers 200 and changes nothing when a %s callback names an unknown message id', async (_name, path) => {
    // Prepare
    await sendDunning();
    const before = await scanTable();
    const unknown = 'obx_01J00000000000000000000000';
    const callback =
      path === MESSAGING
        ? twilioStatus(publicUrl(path), { MessageSid: unknown, MessageStatus: 'undelivered', ErrorCode: '30003' })
        : path === LEGACY
          ? mailgunEvent(mailgunData(unknown, 'complained'))
          : standardWebhook(mailerPayload('email.bounced', unknown, { bounce: { type: 'Permanent' } }));
    // Act
    const response = await post(path, callback);
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ received: true });
    const after = await scanTable();
    expect(withoutSpentTokens(after)).toEqual(withoutSpentTokens(before));
    // A legacy email callback's token is spent before its event data is read, known message or not.
    expect(spentTokens(after)).toHaveLength(spentTokens(before).length + (path === LEGACY ? 1 : 0));
  });

  it('removes the suppression with the customer when the customer is erased', async () => {
    // Prepare
    const sent = await sendDunning();
    await post(MAILER, standardWebhook(mailerPayload('email.complained', sent.providerMessageId)));
    expect(await getSuppression(tenant.merchant.id, sent.email)).toBeDefined();
    // Act
    const response = await call(`${stack.api_url}/customers/${sent.customerId}`, { method: 'DELETE', key: tenant.key });
    // Assess
    expect(response.status).toBe(200);
    expect(await getSuppression(tenant.merchant.id, sent.email)).toBeUndefined();
    const mentioning = (await scanTable()).filter((item) => JSON.stringify(item).toLowerCase().includes(sent.email));
    expect(mentioning).toEqual([]);
    const references = (await scanTable()).filter((item) => item.PK === `MSGREF#${sent.providerMessageId}`);
    expect(references).toEqual([]);
  });
});
