import { buildOpenApiDocument } from '#api/openapi/build-document';
import { triggerDunningSchemas } from '#api/recoveries/schemas';
import { routes } from '#api/routes';
import { listOutboxEmails } from '#adapters/email/outbox';
import { localQueueTransport, registerLocalQueueTransport } from '#adapters/queue-sender';
import { handler as notificationsHandler } from '#consumers/notifications';
import { MANUAL_DUNNING_COOLDOWN_MS } from '#core/dunning';
import type { PaymentRecord } from '#core/payments';
import { getMessage } from '#data/message-repository';
import { putQuietHours } from '#data/settings-repository';
import { handler as everyMinute } from '#jobs/every-minute';
import { paymentTimeline } from '#data/payment-queries';
import { applyPaymentEvent } from '#data/payment-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { seedPaymentThrough } from '#test/fixtures/payments';
import { keyWithScopes, sqsEventOf } from '#test/fixtures/recoveries';
import { expectOtherMerchantGets404, newTenant, type Tenant } from '#test/fixtures/tenants';

interface DunningBody {
  data: { recovery_id: string; payment_event_id: string; payment_id: string; status: string; sent: boolean; message_id: string; scheduled_at: string | null };
  meta: { merchant_id: string; timestamp: string; request_id: string };
  error?: { code: string; param?: string; message: string };
}

const LIMITS = { read_per_minute: 100000, write_per_minute: 100000 };

/** Runs the every-minute job as EventBridge Scheduler would at `at`, and returns its flush-notifications summary. */
async function dispatchAt(at: Date): Promise<Record<string, number>> {
  const report = await everyMinute({
    schedule: 'every-minute',
    scheduled_time: at.toISOString(),
    execution_id: `test-${at.getTime()}`,
    attempt_number: 1,
    schedule_arn: 'arn:aws:scheduler:us-east-1:000000000000:schedule/default/every-minute',
  });
  const task = report.tasks.find((t) => t.name === 'flush-notifications');
  expect(task?.status).toBe('ok');
  return task?.summary as Record<string, number>;
}

let customerSequence = 0;

describe('POST /api/v1/recoveries/{id}/dunning', () => {
  let stack: LocalStack;
  let tenant: Tenant;
  const dunning = (id: string): string => `${stack.api_url}/recoveries/${id}/dunning`;
  /** A payment of a new customer each time (manual dunning has a per-customer cooldown), unless `overrides` names one. */
  const seed = (
    steps: Parameters<typeof seedPaymentThrough>[1] = [],
    overrides: Parameters<typeof seedPaymentThrough>[2] = {},
    merchantId = tenant.merchant.id,
  ): Promise<PaymentRecord> => {
    customerSequence += 1;
    return seedPaymentThrough(merchantId, steps, {
      customer: { email: `Ada+${customerSequence}@Example.com`, name: 'Ada Lovelace' },
      amount: 4999,
      currency: 'usd',
      invoiceId: `in_${Math.random().toString(36).slice(2, 10)}`,
      ...overrides,
    });
  };
  const dunningEntries = async (payment: PaymentRecord) =>
    (await paymentTimeline(tenant.merchant.id, payment)).filter((entry) => entry.type === 'dunning_sent');
  const outboxOf = async (messageId: string) => (await listOutboxEmails(tenant.merchant.id)).filter((email) => email.message_id === messageId);

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], LIMITS);
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  it('answers 202 with A and B fields, then sends one email through the notifications queue when called without a body', async () => {
    // Prepare
    const payment = await seed(['retry']);
    // Act
    const response = await call<DunningBody>(dunning(payment.recovery_id), { method: 'POST', key: tenant.key });
    const queuedMessage = await getMessage(tenant.merchant.id, response.body.data.message_id);
    const delivered = await stack.runtime.queues.drain();
    // Assess
    expect(response.status).toBe(202);
    expect(() => triggerDunningSchemas.responses[202].parse(response.body)).not.toThrow();
    expect(response.body.data).toEqual({
      recovery_id: payment.recovery_id,
      payment_event_id: payment.id,
      payment_id: payment.id,
      status: 'dunning_triggered',
      sent: true,
      message_id: expect.stringMatching(/^msg_[0-9A-Z]{26}$/),
      scheduled_at: null,
    });
    expect(response.body.meta).toEqual({ merchant_id: tenant.merchant.id, timestamp: expect.any(String), request_id: expect.any(String) });
    expect(payment.customer_email).toMatch(/^ada\+\d+@example\.com$/);
    expect(queuedMessage).toMatchObject({
      status: 'queued',
      to: payment.customer_email,
      payment_id: payment.id,
      recovery_id: payment.recovery_id,
      channel: 'email',
      purpose: 'dunning',
    });
    expect(delivered).toMatchObject({ delivered: 1, succeeded: 1, failed: 0 });
    const message = await getMessage(tenant.merchant.id, response.body.data.message_id);
    const outbox = await outboxOf(response.body.data.message_id);
    expect(outbox).toHaveLength(1);
    expect(message).toMatchObject({ status: 'sent', sent_at: expect.any(String), provider: 'outbox', provider_message_id: outbox[0]?.id });
    expect(outbox[0]).toMatchObject({
      to: payment.customer_email,
      customer_id: payment.customer_id,
      subject: `Your payment of $49.99 to ${tenant.merchant.name} did not go through`,
    });
    expect(outbox[0]?.text).toContain('Hello Ada Lovelace,');
    expect(outbox[0]?.text).toContain(`We could not collect your payment of $49.99 to ${tenant.merchant.name}.`);
    expect(outbox[0]?.text).toMatch(/\/update-payment\/[A-Za-z0-9_-]{43}\b/);
    const entries = await dunningEntries(payment);
    expect(entries).toHaveLength(1);
    expect(entries[0]?.details).toMatchObject({ message_id: response.body.data.message_id, provider: 'outbox', provider_message_id: outbox[0]?.id });
  });

  it("uses B's subject and keeps its template_id when a body gives them", async () => {
    // Prepare
    const payment = await seed([], { amount: 5000, currency: 'jpy' });
    // Act
    const response = await call<DunningBody>(dunning(payment.id), {
      method: 'POST',
      key: tenant.key,
      body: { template_id: 'tmpl_dunning_default', subject: 'A quick note about your plan' },
    });
    await stack.runtime.queues.drain();
    // Assess
    expect(response.status).toBe(202);
    expect(response.body.data).toMatchObject({ recovery_id: payment.recovery_id, sent: true, status: 'dunning_triggered' });
    expect(await getMessage(tenant.merchant.id, response.body.data.message_id)).toMatchObject({
      status: 'sent',
      template_id: 'tmpl_dunning_default',
      subject: 'A quick note about your plan',
    });
    const outbox = await outboxOf(response.body.data.message_id);
    expect(outbox).toHaveLength(1);
    expect(outbox[0]?.subject).toBe('A quick note about your plan');
    expect(outbox[0]?.text).toContain('¥5,000');
  });

  it('sends nothing twice when the consumer receives the same SQS record twice', async () => {
    // Prepare
    const payment = await seed(['retry']);
    const response = await call<DunningBody>(dunning(payment.recovery_id), { method: 'POST', key: tenant.key });
    const record = { kind: 'dunning_email', merchant_id: tenant.merchant.id, message_id: response.body.data.message_id };
    // Act
    const first = await notificationsHandler(sqsEventOf(record, 'sqs-1', 1));
    const second = await notificationsHandler(sqsEventOf(record, 'sqs-1', 2));
    const queued = await stack.runtime.queues.drain();
    // Assess
    expect(first.batchItemFailures).toEqual([]);
    expect(second.batchItemFailures).toEqual([]);
    expect(queued).toMatchObject({ delivered: 1, succeeded: 1 });
    expect(await outboxOf(response.body.data.message_id)).toHaveLength(1);
    expect(await dunningEntries(payment)).toHaveLength(1);
    expect(await getMessage(tenant.merchant.id, response.body.data.message_id)).toMatchObject({ status: 'sent' });
  });

  it('sends one email when two consumers receive the same record at once', async () => {
    // Prepare
    const payment = await seed(['retry']);
    const response = await call<DunningBody>(dunning(payment.recovery_id), { method: 'POST', key: tenant.key });
    const record = { kind: 'dunning_email', merchant_id: tenant.merchant.id, message_id: response.body.data.message_id };
    // Act
    const results = await Promise.all([notificationsHandler(sqsEventOf(record, 'sqs-a')), notificationsHandler(sqsEventOf(record, 'sqs-b'))]);
    await stack.runtime.queues.drain();
    // Assess
    expect(results.flatMap((result) => result.batchItemFailures).length).toBeLessThanOrEqual(1);
    expect(await outboxOf(response.body.data.message_id)).toHaveLength(1);
    expect(await dunningEntries(payment)).toHaveLength(1);
  });

  it('cancels the message and sends nothing when the recovery is paused before the queue delivers it', async () => {
    // Prepare
    const payment = await seed(['retry']);
    const response = await call<DunningBody>(dunning(payment.recovery_id), { method: 'POST', key: tenant.key });
    await applyPaymentEvent(tenant.merchant.id, payment.id, { type: 'pause', reason: 'customer asked' });
    // Act
    await stack.runtime.queues.drain();
    // Assess
    expect(await getMessage(tenant.merchant.id, response.body.data.message_id)).toMatchObject({
      status: 'cancelled',
      status_reason: expect.stringContaining('paused'),
    });
    expect(await outboxOf(response.body.data.message_id)).toHaveLength(0);
    expect(await dunningEntries(payment)).toHaveLength(0);
  });

  it('replays the first answer and queues one message when an Idempotency-Key is repeated', async () => {
    // Prepare
    const payment = await seed([]);
    const headers = { 'Idempotency-Key': `dunning-${payment.id}` };
    // Act
    const first = await call<DunningBody>(dunning(payment.recovery_id), { method: 'POST', key: tenant.key, headers });
    const second = await call<DunningBody>(dunning(payment.recovery_id), { method: 'POST', key: tenant.key, headers });
    await stack.runtime.queues.drain();
    // Assess
    expect(second.status).toBe(202);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.text).toBe(first.text);
    expect(await dunningEntries(payment)).toHaveLength(1);
  });

  it.each([
    ['recovered', ['retry', 'recover'], /recovered/],
    ['terminal', ['terminate'], /terminal/],
    ['paused', ['pause'], /paused: no dunning emails until it is resumed/],
  ] as const)('answers 409 naming the status when the recovery is %s', async (_status, steps, message) => {
    // Prepare
    const payment = await seed(steps);
    // Act
    const response = await call<DunningBody>(dunning(payment.recovery_id), { method: 'POST', key: tenant.key });
    // Assess
    expect(response.status).toBe(409);
    expect(response.body.error).toMatchObject({ code: 'state_conflict', message: expect.stringMatching(message) });
    expect(stack.runtime.queues.depth('notifications')).toBe(0);
  });

  it('answers 404 when the recovery does not exist', async () => {
    // Act
    const response = await call<DunningBody>(dunning('rec_01J0000000000000000000000Z'), { method: 'POST', key: tenant.key });
    // Assess
    expect(response.status).toBe(404);
    expect(response.body.error?.code).toBe('resource_not_found');
  });

  it("answers 404 and queues nothing when another merchant triggers dunning on this merchant's recovery", async () => {
    // Prepare
    const payment = await seed([]);
    // Act and assess
    await expectOtherMerchantGets404(dunning(payment.recovery_id), { method: 'POST' });
    expect(stack.runtime.queues.depth('notifications')).toBe(0);
  });

  it('refuses a read-only key with 403 when it triggers dunning', async () => {
    // Prepare
    const payment = await seed([]);
    const key = await keyWithScopes(tenant.merchant.id, ['read']);
    // Act
    const response = await call<DunningBody>(dunning(payment.recovery_id), { method: 'POST', key });
    // Assess
    expect(response.status).toBe(403);
    expect(response.body.error?.code).toBe('insufficient_scope');
    expect(stack.runtime.queues.depth('notifications')).toBe(0);
  });

  it.each([
    [{ subject: 'Hello\r\nBcc: someone@example.com' }, 422, 'validation_error', 'subject'],
    [{ subject: '' }, 422, 'validation_error', 'subject'],
    [{ subject: 'x'.repeat(256) }, 422, 'validation_error', 'subject'],
    [{ subject: 'nul\u0000byte' }, 422, 'validation_error', 'subject'],
    [{ subject: 'tab\there' }, 422, 'validation_error', 'subject'],
    [{ subject: 'line\u2028separator' }, 422, 'validation_error', 'subject'],
    [{ subject: 'lone \ud800 surrogate' }, 422, 'validation_error', 'subject'],
    [{ template_id: 'tmpl 1' }, 422, 'validation_error', 'template_id'],
    [{ template_id: 42 }, 422, 'validation_error', 'template_id'],
    [{ template_id: '' }, 422, 'validation_error', 'template_id'],
  ])('refuses the body %j with %i naming the field', async (body, status, code, param) => {
    // Prepare
    const payment = await seed([]);
    // Act
    const response = await call<DunningBody>(dunning(payment.recovery_id), { method: 'POST', key: tenant.key, body });
    // Assess
    expect(response.status).toBe(status);
    expect(response.body.error).toMatchObject({ code, param });
    expect(stack.runtime.queues.depth('notifications')).toBe(0);
  });

  it('answers 404 naming template_id, and records and queues nothing, when template_id names no template', async () => {
    // Prepare
    const payment = await seed([]);
    // Act
    const response = await call<DunningBody>(dunning(payment.recovery_id), { method: 'POST', key: tenant.key, body: { template_id: 'tmpl_gentle' } });
    const allowedAfter = await call<DunningBody>(dunning(payment.recovery_id), { method: 'POST', key: tenant.key });
    await stack.runtime.queues.drain();
    // Assess
    expect(response.status).toBe(404);
    expect(response.body.error).toMatchObject({ code: 'resource_not_found', param: 'template_id' });
    // The refusal started no cooldown: the same recovery takes the default email right after.
    expect(allowedAfter.status).toBe(202);
    expect(await dunningEntries(payment)).toHaveLength(1);
  });

  it("sends the merchant's own template, rendered with the payment's values, and refuses an SMS template with 422", async () => {
    // Prepare: a template saved through the API.
    const saved = await call<{ data: { id: string } }>(`${stack.api_url}/templates`, {
      method: 'POST',
      key: tenant.key,
      body: {
        name: 'Gentle',
        channel: 'email',
        subject: '{{merchant_name}}: {{amount}} is still open',
        html: '<p>Hi {{customer_name}}, <a href="{{update_payment_url}}">update your card</a>.</p>',
        text: 'Hi {{customer_name}}, update your card: {{update_payment_url}}',
      },
    });
    const payment = await seed(['retry']);
    // Act
    const response = await call<DunningBody>(dunning(payment.recovery_id), { method: 'POST', key: tenant.key, body: { template_id: saved.body.data.id } });
    const smsPayment = await seed([]);
    const sms = await call<DunningBody>(dunning(smsPayment.recovery_id), { method: 'POST', key: tenant.key, body: { template_id: 'tmpl_card_update_sms' } });
    await stack.runtime.queues.drain();
    // Assess
    expect(saved.status).toBe(201);
    expect(response.status).toBe(202);
    const [email] = (await listOutboxEmails(tenant.merchant.id)).filter((sent) => sent.message_id === response.body.data.message_id);
    expect(email?.subject).toBe(`${tenant.merchant.name}: $49.99 is still open`);
    expect(email?.text).toMatch(/^Hi Ada Lovelace, update your card: https?:\/\/\S+/);
    expect(sms.status).toBe(422);
    expect(sms.body.error).toMatchObject({ code: 'validation_error', param: 'template_id' });
  });

  it('documents the body as optional in the OpenAPI document (a POST without a body sends the default email)', () => {
    // Act
    const document = buildOpenApiDocument(routes);
    // Assess
    expect(document.paths['/api/v1/recoveries/{id}/dunning']?.post?.requestBody?.required).toBe(false);
  });

  describe('quiet hours', () => {
    it('schedules the email for the end of the quiet period, says so, and the every-minute job sends it then', async () => {
      // Prepare: quiet hours covering now (this hour and the next, UTC) for a merchant of its own.
      const quietTenant = await newTenant(['admin'], LIMITS);
      const hour = new Date().getUTCHours();
      await putQuietHours(quietTenant.merchant.id, { startHour: hour, endHour: (hour + 2) % 24, timezone: 'UTC', enabled: true });
      const payment = await seed(['retry'], {}, quietTenant.merchant.id);
      // Act
      const response = await call<DunningBody>(dunning(payment.recovery_id), { method: 'POST', key: quietTenant.key });
      const afterRequest = await stack.runtime.queues.drain();
      const scheduledAt = new Date(response.body.data.scheduled_at ?? 0);
      const early = await dispatchAt(new Date(scheduledAt.getTime() - 60_000));
      const outboxBefore = (await listOutboxEmails(quietTenant.merchant.id)).length;
      const due = await dispatchAt(scheduledAt);
      await stack.runtime.queues.drain();
      const again = await dispatchAt(new Date(scheduledAt.getTime() + 60_000));
      // Assess
      const expectedEnd = new Date();
      expectedEnd.setUTCHours(hour + 2, 0, 0, 0);
      expect(response.status).toBe(202);
      expect(() => triggerDunningSchemas.responses[202].parse(response.body)).not.toThrow();
      expect(response.body.data).toMatchObject({
        status: 'dunning_scheduled',
        sent: false,
        recovery_id: payment.recovery_id,
        scheduled_at: expectedEnd.toISOString(),
      });
      expect(afterRequest.delivered).toBe(0);
      expect(early).toEqual({ due: 0, dispatched: 0, failed: 0 });
      expect(outboxBefore).toBe(0);
      expect(due).toEqual({ due: 1, dispatched: 1, failed: 0 });
      expect(again).toEqual({ due: 0, dispatched: 0, failed: 0 });
      const outbox = (await listOutboxEmails(quietTenant.merchant.id)).filter((email) => email.message_id === response.body.data.message_id);
      expect(outbox).toHaveLength(1);
      expect(await getMessage(quietTenant.merchant.id, response.body.data.message_id)).toMatchObject({
        status: 'sent',
        scheduled_at: expectedEnd.toISOString(),
      });
    });
  });

  describe('cooldown', () => {
    it('refuses a second manual send to the same recovery, or another recovery of the same customer, within the hour with 409', async () => {
      // Prepare
      const first = await seed(['retry']);
      const sibling = await seed([], { customer: { email: first.customer_email } });
      const stranger = await seed([]);
      // Act
      const sent = await call<DunningBody>(dunning(first.recovery_id), { method: 'POST', key: tenant.key });
      const sameRecovery = await call<DunningBody>(dunning(first.recovery_id), { method: 'POST', key: tenant.key });
      const sameCustomer = await call<DunningBody>(dunning(sibling.recovery_id), { method: 'POST', key: tenant.key });
      const otherCustomer = await call<DunningBody>(dunning(stranger.recovery_id), { method: 'POST', key: tenant.key });
      await stack.runtime.queues.drain();
      // Assess
      expect(sibling.customer_id).toBe(first.customer_id);
      expect([sent.status, sameRecovery.status, sameCustomer.status, otherCustomer.status]).toEqual([202, 409, 409, 202]);
      const next = new Date(Date.parse(sent.body.meta.timestamp) + MANUAL_DUNNING_COOLDOWN_MS);
      expect(sameRecovery.body.error).toMatchObject({ code: 'state_conflict', message: expect.stringContaining('this recovery') });
      expect(sameCustomer.body.error).toMatchObject({ code: 'state_conflict', message: expect.stringContaining(first.recovery_id) });
      const until = Date.parse(/at (\S+)\.$/.exec(sameRecovery.body.error?.message ?? '')?.[1] ?? '');
      expect(Math.abs(until - next.getTime())).toBeLessThan(5_000);
      expect(await dunningEntries(first)).toHaveLength(1);
      expect(await dunningEntries(sibling)).toHaveLength(0);
    });

    it('sends one email when 20 requests for one customer arrive at once', async () => {
      // Prepare
      const payment = await seed(['retry']);
      // Act
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => call<DunningBody>(dunning(payment.recovery_id), { method: 'POST', key: tenant.key })),
      );
      await stack.runtime.queues.drain();
      // Assess
      const statuses = responses.map((response) => response.status);
      expect(statuses.filter((status) => status === 202)).toHaveLength(1);
      expect(statuses.filter((status) => status === 409)).toHaveLength(19);
      expect(await dunningEntries(payment)).toHaveLength(1);
      expect((await listOutboxEmails(tenant.merchant.id)).filter((email) => email.customer_id === payment.customer_id)).toHaveLength(1);
    });

    it('lifts the cooldown when the email could not be queued: the 500 is retried at once and sends one email', async () => {
      // Prepare: the queue refuses the first send (SQS down), then works again.
      const payment = await seed(['retry']);
      const queues = localQueueTransport();
      registerLocalQueueTransport({
        send: () => {
          throw new Error('SQS is unavailable');
        },
      });
      // Act
      const failed = await call<DunningBody>(dunning(payment.recovery_id), { method: 'POST', key: tenant.key }).finally(() =>
        registerLocalQueueTransport(queues),
      );
      const retried = await call<DunningBody>(dunning(payment.recovery_id), { method: 'POST', key: tenant.key });
      await stack.runtime.queues.drain();
      // Assess
      expect(failed.status).toBe(500);
      expect(retried.status).toBe(202);
      expect(await dunningEntries(payment)).toHaveLength(1);
      expect((await listOutboxEmails(tenant.merchant.id)).filter((email) => email.customer_id === payment.customer_id)).toHaveLength(1);
      // The cooldown now belongs to the retried request's message.
      const again = await call<DunningBody>(dunning(payment.recovery_id), { method: 'POST', key: tenant.key });
      expect(again.status).toBe(409);
    });
  });

  it('refuses malformed JSON with 400', async () => {
    // Prepare
    const payment = await seed([]);
    // Act
    const response = await call<DunningBody>(dunning(payment.recovery_id), {
      method: 'POST',
      key: tenant.key,
      rawBody: '{"subject":',
      headers: { 'Content-Type': 'application/json' },
    });
    // Assess
    expect(response.status).toBe(400);
    expect(response.body.error?.code).toBe('invalid_request');
  });
});
