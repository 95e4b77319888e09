import { triggerDunningSchemas } from '../../../../functions/api/recoveries/schemas';
import { listOutboxEmails } from '../../../../functions/adapters/email/outbox';
import { handler as notificationsHandler } from '../../../../functions/consumers/notifications';
import type { PaymentRecord } from '../../../../functions/core/payments';
import { getMessage } from '../../../../functions/data/message-repository';
import { paymentTimeline } from '../../../../functions/data/payment-queries';
import { applyPaymentEvent } from '../../../../functions/data/payment-repository';
import type { LocalStack } from '../../../../lib/local/local-stack';
import { call } from '../../../fixtures/http';
import { startTestStack } from '../../../fixtures/local-stack';
import { seedPaymentThrough } from '../../../fixtures/payments';
import { keyWithScopes, sqsEventOf } from '../../../fixtures/recoveries';
import { expectOtherMerchantGets404, newTenant, type Tenant } from '../../../fixtures/tenants';

interface DunningBody {
  data: { recovery_id: string; payment_event_id: string; payment_id: string; status: string; sent: boolean; message_id: string };
  meta: { merchant_id: string; timestamp: string; request_id: string };
  error?: { code: string; param?: string; message: string };
}

const LIMITS = { read_per_minute: 100000, write_per_minute: 100000 };

describe('POST /api/v1/recoveries/{id}/dunning', () => {
  let stack: LocalStack;
  let tenant: Tenant;
  const dunning = (id: string): string => `${stack.api_url}/recoveries/${id}/dunning`;
  const seed = (steps: Parameters<typeof seedPaymentThrough>[1] = [], overrides: Parameters<typeof seedPaymentThrough>[2] = {}): Promise<PaymentRecord> =>
    seedPaymentThrough(tenant.merchant.id, steps, { customer: { email: 'Ada@Example.com', name: 'Ada Lovelace' }, amount: 4999, currency: 'usd', invoiceId: `in_${Math.random().toString(36).slice(2, 10)}`, ...overrides });
  const dunningEntries = async (payment: PaymentRecord) => (await paymentTimeline(tenant.merchant.id, payment)).filter((entry) => entry.type === 'dunning_sent');
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
    expect(response.body.data).toEqual({ recovery_id: payment.recovery_id, payment_event_id: payment.id, payment_id: payment.id, status: 'dunning_triggered', sent: true, message_id: expect.stringMatching(/^msg_[0-9A-Z]{26}$/) });
    expect(response.body.meta).toEqual({ merchant_id: tenant.merchant.id, timestamp: expect.any(String), request_id: expect.any(String) });
    expect(queuedMessage).toMatchObject({ status: 'queued', to: 'ada@example.com', payment_id: payment.id, recovery_id: payment.recovery_id, channel: 'email', purpose: 'dunning' });
    expect(delivered).toMatchObject({ delivered: 1, succeeded: 1, failed: 0 });
    const message = await getMessage(tenant.merchant.id, response.body.data.message_id);
    const outbox = await outboxOf(response.body.data.message_id);
    expect(outbox).toHaveLength(1);
    expect(message).toMatchObject({ status: 'sent', sent_at: expect.any(String), provider: 'outbox', provider_message_id: outbox[0]?.id });
    expect(outbox[0]).toMatchObject({ to: 'ada@example.com', customer_id: payment.customer_id, subject: `Your payment of $49.99 to ${tenant.merchant.name} did not go through` });
    expect(outbox[0]?.text).toContain('Hello Ada Lovelace,');
    expect(outbox[0]?.text).toContain(`$49.99 to ${tenant.merchant.name} (invoice ${payment.invoice_id})`);
    const entries = await dunningEntries(payment);
    expect(entries).toHaveLength(1);
    expect(entries[0]?.details).toMatchObject({ message_id: response.body.data.message_id, provider: 'outbox', provider_message_id: outbox[0]?.id });
  });

  it("uses B's subject and keeps its template_id when a body gives them", async () => {
    // Prepare
    const payment = await seed([], { amount: 5000, currency: 'jpy' });
    // Act
    const response = await call<DunningBody>(dunning(payment.id), { method: 'POST', key: tenant.key, body: { template_id: 'tmpl_gentle', subject: 'A quick note about your plan' } });
    await stack.runtime.queues.drain();
    // Assess
    expect(response.status).toBe(202);
    expect(response.body.data).toMatchObject({ recovery_id: payment.recovery_id, sent: true, status: 'dunning_triggered' });
    expect(await getMessage(tenant.merchant.id, response.body.data.message_id)).toMatchObject({ status: 'sent', template_id: 'tmpl_gentle', subject: 'A quick note about your plan' });
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
    expect(await getMessage(tenant.merchant.id, response.body.data.message_id)).toMatchObject({ status: 'cancelled', status_reason: expect.stringContaining('paused') });
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

  it('refuses malformed JSON with 400', async () => {
    // Prepare
    const payment = await seed([]);
    // Act
    const response = await call<DunningBody>(dunning(payment.recovery_id), { method: 'POST', key: tenant.key, rawBody: '{"subject":', headers: { 'Content-Type': 'application/json' } });
    // Assess
    expect(response.status).toBe(400);
    expect(response.body.error?.code).toBe('invalid_request');
  });
});
