/**
 * Outbound webhook delivery end to end (issue 13, "Delivery"): real state changes (a payment
 * failed through POST /ingest/payment-event, retries attempted and recovered by the every-minute
 * job) are recorded in the outbox, fanned out by the dispatcher (the table stream's second
 * consumer) and delivered by the outbound-deliveries consumer to receivers on loopback, which
 * verify every delivery with the `standardwebhooks` package. Time is driven through the queue's
 * delayed messages, the due index and the `now` the services take, never by sleeping minutes.
 */
import { Webhook } from 'standardwebhooks';
import { handler as outboundDeliveries } from '#consumers/outbound-deliveries';
import type { WebhookDeliver } from '#contracts/webhook-deliveries';
import { getSubscriptionById } from '#data/automation-repository';
import { getOutboundEvent, type OutboundEvent } from '#data/outbound-event-repository';
import { getWebhookEndpoint } from '#data/webhook-endpoint-repository';
import { handler as everyMinute } from '#jobs/every-minute';
import type { LocalStack } from '#lib/local/local-stack';
import { deliverWebhook } from '#services/deliver-webhook';
import { dispatchOutboundEvent } from '#services/dispatch-outbound-event';
import { eraseCustomer } from '#services/erase-customer';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { sqsEventOf } from '#test/fixtures/recoveries';
import { scheduledJobEventAt } from '#test/fixtures/scheduled-jobs';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';
import { createEndpointVia, deliverAllOf, ingestFailureVia, ok, type Received, receiverPool, status, waitingDeliveries } from '#test/fixtures/webhook-receiver';

// Each test drives the stream, the queue and sometimes a receiver that answers late: seconds on a busy 2-core machine.
jest.setTimeout(90_000);

interface Payload {
  id: string;
  type: string;
  created_at: string;
  merchant_id: string;
  data: { object: Record<string, unknown> };
}
interface LogRow {
  id: string;
  event_id: string;
  event_type: string;
  endpoint_id: string;
  attempt: number;
  status: 'pending' | 'delivered' | 'failed';
  status_code: number | null;
  error: string | null;
  next_attempt_at: string | null;
  created_at: string;
}

const payloadOf = (request: Received): Payload => JSON.parse(request.body) as Payload;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('outbound webhook delivery', () => {
  let stack: LocalStack;
  const receivers = receiverPool();
  const receiver = receivers.start;
  const createEndpoint = (tenant: Tenant, url: string, events?: string[]) => createEndpointVia(stack, tenant, url, events);
  const ingestFailure = (tenant: Tenant, email = 'ana@example.com') => ingestFailureVia(stack, tenant, email);
  const getPayment = async (tenant: Tenant, id: string) =>
    (await call<{ data: { status: string; next_retry_at: string | null; customer_id: string } }>(`${stack.api_url}/payments/${id}`, { key: tenant.key })).body
      .data;
  const log = async (tenant: Tenant, query = '') => (await call<{ data: LogRow[] }>(`${stack.api_url}/webhooks/events${query}`, { key: tenant.key })).body.data;
  const deliverAll = () => deliverAllOf(stack);
  const runJobAt = async (at: Date) => {
    const report = await everyMinute(scheduledJobEventAt('every-minute', at));
    for (const task of report.tasks) expect(task.status).toBe('ok');
    return report;
  };
  /** The delayed `webhook.deliver` messages waiting on the queue for this event (a retry's). */
  const waitingRetries = (eventId: string): WebhookDeliver[] => waitingDeliveries(stack).filter((message) => message.event_id === eventId);

  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => {
    await receivers.closeAll();
    await stack.stop();
  });

  it('delivers signed events for a payment failed, retries attempted and recovered, each verified with standardwebhooks', async () => {
    // Prepare
    const tenant = await newTenant(['admin'], UNLIMITED);
    const hooks = await receiver();
    const endpoint = await createEndpoint(tenant, hooks.url);
    const verifier = new Webhook(endpoint.signing_secret);

    // Act: the payment fails (ingest), then the retry executor declines attempt 1 and recovers at attempt 2
    const paymentId = await ingestFailure(tenant);
    await deliverAll();
    const failedOnly = hooks.received.length;
    for (let run = 0; run < 4; run += 1) {
      const payment = await getPayment(tenant, paymentId);
      if (payment.status !== 'retrying' || payment.next_retry_at === null) break;
      await runJobAt(new Date(payment.next_retry_at));
      await deliverAll();
    }

    // Assess: the failure records payment.failed and the first retry scheduled with it
    expect(failedOnly).toBe(2);
    expect((await getPayment(tenant, paymentId)).status).toBe('recovered');
    const payloads = hooks.received.map((request) => verifier.verify(request.body, request.headers) as Payload);
    expect(payloads.map((p) => p.type).sort()).toEqual([
      'payment.failed',
      'recovery.retry_attempted',
      'recovery.retry_attempted',
      'recovery.retry_scheduled',
      'recovery.retry_scheduled',
      'recovery.succeeded',
    ]);
    for (const [index, payload] of payloads.entries()) {
      expect(payload).toEqual({
        id: expect.stringMatching(/^evt_/),
        type: expect.any(String),
        created_at: expect.any(String),
        merchant_id: tenant.merchant.id,
        data: { object: expect.any(Object) },
      });
      expect(hooks.received[index]?.headers['webhook-id']).toBe(payload.id);
    }
    expect(new Set(payloads.map((p) => p.id)).size).toBe(payloads.length);
    expect(payloads.find((p) => p.type === 'payment.failed')?.data.object).toMatchObject({
      payment_id: paymentId,
      amount: 4900,
      currency: 'usd',
      decline_code: 'insufficient_funds',
    });
    const rows = await log(tenant);
    expect(rows).toHaveLength(6);
    expect(rows.every((row) => row.status === 'delivered' && row.status_code === 200 && row.attempt === 1 && row.endpoint_id === endpoint.id)).toBe(true);
  });

  it('retries after a 500 on the schedule (queue delay, then the due index), with the same webhook-id, until the receiver takes it', async () => {
    // Prepare
    const tenant = await newTenant(['admin'], UNLIMITED);
    const hooks = await receiver();
    hooks.answer = status(500);
    const endpoint = await createEndpoint(tenant, hooks.url, ['payment.failed']);
    const verifier = new Webhook(endpoint.signing_secret);
    await ingestFailure(tenant);

    // Act 1: attempt 1 fails; its retry waits 5 s ± 20 % on the queue
    const attemptedAfter = Date.now();
    await deliverAll();
    const attemptedBefore = Date.now();
    const [second] = waitingRetries(payloadOf(hooks.received[0] as Received).id);
    const afterFirst = await getWebhookEndpoint(tenant.merchant.id, endpoint.id);
    // The queue's delay is whole seconds: the message shows when its own visibility time comes.
    const visibleAt = Math.max(
      ...stack.runtime.queues
        .waiting('outbound-deliveries')
        .filter((m) => m.body.includes(second?.event_id as string))
        .map((m) => m.visibleAt),
    );
    await sleep(Math.max(0, visibleAt - Date.now()) + 100);
    // Act 2: attempt 2 (delivered by the queue once visible) fails; attempt 3 waits about 5 min on the queue
    await stack.runtime.queues.drain();
    const [third] = waitingRetries(second?.event_id as string).filter((message) => message.attempt === 3);
    // Act 3: attempt 3 at its due time fails; attempt 4 waits about 30 min: a pending row in the due index
    await deliverWebhook(third as WebhookDeliver, new Date(third?.due_at as string));
    const pending = (await log(tenant, '?status=pending'))[0];
    hooks.answer = ok;
    await runJobAt(new Date(Date.parse(pending?.next_attempt_at as string) - 60_000));
    const beforeDue = hooks.received.length;
    // Two runs at once (a slow run overlapping the next) enqueue the retry once.
    const [report, overlapping] = await Promise.all([
      runJobAt(new Date(pending?.next_attempt_at as string)),
      runJobAt(new Date(pending?.next_attempt_at as string)),
    ]);
    await stack.runtime.queues.drain();
    const again = await runJobAt(new Date(pending?.next_attempt_at as string));

    // Assess
    expect(afterFirst.failing_since).not.toBeNull();
    expect(second).toMatchObject({ attempt: 2, target: 'endpoint', target_id: endpoint.id });
    const firstRow = (await log(tenant)).find((row) => row.attempt === 1);
    expect(firstRow).toMatchObject({ status: 'failed', status_code: 500, next_attempt_at: second?.due_at });
    // The attempt ran between attemptedAfter and attemptedBefore (however slow the machine): its wait lies in 4-6 s.
    expect(Date.parse(second?.due_at as string) - attemptedAfter).toBeGreaterThanOrEqual(4_000);
    expect(Date.parse(second?.due_at as string) - attemptedBefore).toBeLessThanOrEqual(6_000);
    expect(Date.parse(third?.due_at as string) - Date.parse(second?.due_at as string)).toBeGreaterThanOrEqual(240_000 - 5_000);
    expect(Date.parse(third?.due_at as string) - Date.parse(second?.due_at as string)).toBeLessThanOrEqual(360_000 + 60_000);
    expect(pending).toMatchObject({ attempt: 4, status: 'pending', endpoint_id: endpoint.id });
    const thirdWait = Date.parse(pending?.next_attempt_at as string) - Date.parse(third?.due_at as string);
    expect(thirdWait).toBeGreaterThanOrEqual(1_440_000);
    expect(thirdWait).toBeLessThanOrEqual(2_160_000);
    expect(beforeDue).toBe(3);
    const summaries = [report, overlapping].map((run) => run.tasks.find((task) => task.name === 'dispatch-due-webhooks')?.summary as Record<string, number>);
    // Each run may or may not still see the entry (the other may have taken it first); it is enqueued once.
    expect(summaries.map((summary) => summary.enqueued).sort()).toEqual([0, 1]);
    for (const summary of summaries) expect(summary.due).toBeLessThanOrEqual(1);
    expect(again.tasks.find((task) => task.name === 'dispatch-due-webhooks')?.summary).toMatchObject({ due: 0, enqueued: 0 });
    expect(hooks.received).toHaveLength(4);
    const ids = hooks.received.map((request) => (verifier.verify(request.body, request.headers) as Payload).id);
    expect(new Set(ids).size).toBe(1);
    const rows = await log(tenant);
    expect(rows.map((row) => [row.attempt, row.status, row.status_code])).toEqual([
      [4, 'delivered', 200],
      [3, 'failed', 500],
      [2, 'failed', 500],
      [1, 'failed', 500],
    ]);
    expect(rows[0]?.id).toBe(pending?.id);
    expect((await getWebhookEndpoint(tenant.merchant.id, endpoint.id)).failing_since).toBeNull();
  });

  it.each([
    ['410 Gone', status(410), 'the receiver answered 410 Gone'],
    ['webhook-delivery: disable', status(503, { 'webhook-delivery': 'disable' }), 'the receiver answered webhook-delivery: disable'],
  ])('disables the endpoint at once on %s, without a retry', async (_name, answer, reason) => {
    // Prepare
    const tenant = await newTenant(['admin'], UNLIMITED);
    const hooks = await receiver();
    hooks.answer = answer;
    const endpoint = await createEndpoint(tenant, hooks.url, ['payment.failed']);

    // Act
    await ingestFailure(tenant);
    await deliverAll();
    const shown = await call<{ data: Array<{ id: string; enabled: boolean; disabled_reason: string | null; disabled_at: string | null }> }>(
      `${stack.api_url}/webhooks/endpoints`,
      { key: tenant.key },
    );
    await ingestFailure(tenant, 'bo@example.com');
    await deliverAll();
    const missed = hooks.received.length;
    hooks.answer = ok;
    const enabled = await call<{ data: { enabled: boolean; disabled_reason: string | null; disabled_at: string | null } }>(
      `${stack.api_url}/webhooks/endpoints/${endpoint.id}`,
      { method: 'PUT', key: tenant.key, body: { enabled: true } },
    );
    await ingestFailure(tenant, 'cy@example.com');
    await deliverAll();

    // Assess
    expect(missed).toBe(1);
    expect(enabled.body.data).toMatchObject({ enabled: true, disabled_reason: null, disabled_at: null });
    expect(hooks.received).toHaveLength(2);
    expect(shown.body.data).toEqual([expect.objectContaining({ id: endpoint.id, enabled: false, disabled_reason: reason, disabled_at: expect.any(String) })]);
    expect(waitingRetries(payloadOf(hooks.received[0] as Received).id)).toEqual([]);
    expect(await log(tenant, '?status=pending')).toEqual([]);
    expect((await log(tenant, '?status=failed'))[0]).toMatchObject({
      status: 'failed',
      next_attempt_at: null,
      error: expect.stringContaining('endpoint disabled'),
    });
  });

  it('stops retrying one message on webhook-delivery: abort-message, and keeps the endpoint', async () => {
    // Prepare
    const tenant = await newTenant(['admin'], UNLIMITED);
    const hooks = await receiver();
    hooks.answer = status(422, { 'webhook-delivery': 'abort-message' });
    const endpoint = await createEndpoint(tenant, hooks.url, ['payment.failed']);

    // Act
    await ingestFailure(tenant);
    await deliverAll();

    // Assess
    expect(waitingRetries(payloadOf(hooks.received[0] as Received).id)).toEqual([]);
    expect((await getWebhookEndpoint(tenant.merchant.id, endpoint.id)).enabled).toBe(true);
    expect((await log(tenant))[0]).toMatchObject({
      status: 'failed',
      status_code: 422,
      next_attempt_at: null,
      error: expect.stringContaining('abort-message'),
    });
  });

  it('disables an endpoint failing every attempt for 5 days, and webhook_endpoint.disabled reaches the other endpoint', async () => {
    // Prepare
    const tenant = await newTenant(['admin'], UNLIMITED);
    const failing = await receiver();
    failing.answer = status(500);
    const healthy = await receiver();
    const broken = await createEndpoint(tenant, failing.url, ['payment.failed', 'webhook_endpoint.disabled']);
    const watcher = await createEndpoint(tenant, healthy.url, ['webhook_endpoint.disabled']);
    await ingestFailure(tenant);
    await deliverAll();
    const [retry] = waitingRetries(payloadOf(failing.received[0] as Received).id);
    const since = (await getWebhookEndpoint(tenant.merchant.id, broken.id)).failing_since as string;

    // Act: an attempt 4 days later still fails (kept), one 5 days later disables
    const dayLater = await deliverWebhook({ ...(retry as WebhookDeliver), attempt: 5, due_at: undefined }, new Date(Date.parse(since) + 4 * 86_400_000));
    const fiveDays = await deliverWebhook(
      { ...(retry as WebhookDeliver), attempt: 6, due_at: undefined },
      new Date(Date.parse(since) + 5 * 86_400_000 + 60_000),
    );
    await deliverAll();

    // Assess
    expect(dayLater).toMatchObject({ kind: 'failed', next: expect.objectContaining({ attempt: 6 }) });
    expect(fiveDays).toMatchObject({ kind: 'failed', disabled: expect.stringContaining('5 days') });
    expect(await getWebhookEndpoint(tenant.merchant.id, broken.id)).toMatchObject({ enabled: false, disabled_reason: expect.stringContaining('5 days') });
    expect(healthy.received).toHaveLength(1);
    const announced = new Webhook(watcher.signing_secret).verify(
      healthy.received[0]?.body as string,
      healthy.received[0]?.headers as Record<string, string>,
    ) as Payload;
    expect(announced).toMatchObject({
      type: 'webhook_endpoint.disabled',
      merchant_id: tenant.merchant.id,
      data: { object: { endpoint_id: broken.id, url: failing.url } },
    });
    expect(failing.received.map((request) => payloadOf(request).type)).not.toContain('webhook_endpoint.disabled');
  });

  it('signs with both secrets during a rotation: the receiver verifies with either', async () => {
    // Prepare
    const tenant = await newTenant(['admin'], UNLIMITED);
    const hooks = await receiver();
    const endpoint = await createEndpoint(tenant, hooks.url, ['payment.failed']);
    const rotated = await call<{ data: { signing_secret: string } }>(`${stack.api_url}/webhooks/endpoints/${endpoint.id}`, {
      method: 'PUT',
      key: tenant.key,
      body: { rotate_secret: true },
    });

    // Act
    await ingestFailure(tenant);
    await deliverAll();

    // Assess
    const [request] = hooks.received as [Received];
    expect(request.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(new Webhook(endpoint.signing_secret).verify(request.body, request.headers)).toMatchObject({ type: 'payment.failed' });
    expect(new Webhook(rotated.body.data.signing_secret).verify(request.body, request.headers)).toMatchObject({ type: 'payment.failed' });
  });

  it('does not deliver an event erased with its customer before the delivery ran', async () => {
    // Prepare
    const tenant = await newTenant(['admin'], UNLIMITED);
    const hooks = await receiver();
    await createEndpoint(tenant, hooks.url, ['payment.failed']);
    const paymentId = await ingestFailure(tenant, 'erase-me@example.com');
    await stack.runtime.stream.drain();
    const queued = stack.runtime.queues.waiting('outbound-deliveries').length;

    // Act
    await eraseCustomer(tenant.merchant.id, (await getPayment(tenant, paymentId)).customer_id);
    await stack.runtime.queues.drain();

    // Assess
    expect(queued).toBeGreaterThanOrEqual(1);
    expect(hooks.received).toEqual([]);
    expect(await log(tenant)).toEqual([]);
  });

  it('closes a pending retry whose event was erased meanwhile: failed with the reason, nothing sent', async () => {
    // Prepare: attempt 3 fails, so attempt 4 waits in the due index
    const tenant = await newTenant(['admin'], UNLIMITED);
    const hooks = await receiver();
    hooks.answer = status(500);
    const endpoint = await createEndpoint(tenant, hooks.url, ['payment.failed']);
    const paymentId = await ingestFailure(tenant, 'gone-later@example.com');
    await deliverAll();
    const eventId = payloadOf(hooks.received[0] as Received).id;
    const third: WebhookDeliver = {
      kind: 'webhook.deliver',
      merchant_id: tenant.merchant.id,
      event_id: eventId,
      target: 'endpoint',
      target_id: endpoint.id,
      attempt: 3,
      due_at: new Date().toISOString(),
    };
    const failed = await deliverWebhook(third, new Date(third.due_at as string));
    const sent = hooks.received.length;

    // Act
    await eraseCustomer(tenant.merchant.id, (await getPayment(tenant, paymentId)).customer_id);
    await runJobAt(new Date((failed as { next: { at: string } }).next.at));
    await stack.runtime.queues.drain();

    // Assess
    expect(failed).toMatchObject({ kind: 'failed', next: { attempt: 4, via: 'due_index' } });
    expect(hooks.received).toHaveLength(sent);
    expect(await log(tenant, '?status=pending')).toEqual([]);
    expect((await log(tenant)).find((row) => row.attempt === 4)).toMatchObject({
      status: 'failed',
      next_attempt_at: null,
      error: 'the event is gone (erased or expired)',
    });
  });

  it('sends a redelivered queue message once its attempt is logged final, and dispatches a redelivered stream record once', async () => {
    // Prepare
    const tenant = await newTenant(['admin'], UNLIMITED);
    const hooks = await receiver();
    const endpoint = await createEndpoint(tenant, hooks.url, ['payment.failed']);
    await ingestFailure(tenant);
    await stack.runtime.stream.drain();
    const [message] = stack.runtime.queues
      .waiting('outbound-deliveries')
      .map((waiting) => JSON.parse(waiting.body) as WebhookDeliver)
      .filter((waiting) => waiting.merchant_id === tenant.merchant.id);
    await stack.runtime.queues.drain();

    // Act
    const redelivered = await outboundDeliveries(sqsEventOf(message as WebhookDeliver, 'sqs-again', 2));
    const event = await deliverWebhook(message as WebhookDeliver);
    const outbound = await getOutboundEvent(tenant.merchant.id, (message as WebhookDeliver).event_id);
    const dispatchedAgain = await dispatchOutboundEvent(outbound as OutboundEvent);
    const queuedAgain = stack.runtime.queues.waiting('outbound-deliveries').filter((waiting) => waiting.body.includes(tenant.merchant.id));

    // Assess
    expect(message).toEqual({
      kind: 'webhook.deliver',
      merchant_id: tenant.merchant.id,
      event_id: expect.stringMatching(/^evt_/),
      target: 'endpoint',
      target_id: endpoint.id,
      attempt: 1,
    });
    expect(redelivered.batchItemFailures).toEqual([]);
    expect(event).toEqual({ kind: 'skipped' });
    expect(dispatchedAgain).toEqual({ outcome: 'already', endpoints: 0, automations: 0 });
    expect(queuedAgain).toEqual([]);
    expect(hooks.received).toHaveLength(1);
    expect(await log(tenant)).toHaveLength(1);
  });

  it("fails a malformed message (for its DLQ) without a send, and drops one naming another merchant's endpoint", async () => {
    // Prepare
    const tenant = await newTenant(['admin'], UNLIMITED);
    const other = await newTenant(['admin'], UNLIMITED);
    const hooks = await receiver();
    const theirs = await createEndpoint(other, hooks.url, ['payment.failed']);
    await ingestFailure(tenant);
    // The event, as an automation poll lists it (the merchant has no endpoint of its own).
    const polled = await call<{ data: Array<{ id: string }> }>(`${stack.api_url}/automation/poll/payment.failed`, { key: tenant.key });
    const event = polled.body.data[0]?.id;
    const base = { kind: 'webhook.deliver', merchant_id: tenant.merchant.id, event_id: event, target: 'endpoint', target_id: theirs.id, attempt: 1 };

    // Act
    const crossTenant = await deliverWebhook(base as WebhookDeliver);
    const malformed = await Promise.all(
      [
        { ...base, target_id: 'x'.repeat(10_000) },
        { ...base, attempt: 0 },
        { ...base, target: 'crm' },
        JSON.parse(`{"__proto__": {"polluted": true}, "kind": "webhook.deliver", "merchant_id": "${tenant.merchant.id}"}`),
      ].map((body, index) => outboundDeliveries(sqsEventOf(body, `bad-${index}`))),
    );

    // Assess
    expect(crossTenant).toEqual({ kind: 'dropped', reason: 'the endpoint is gone' });
    expect(malformed.map((response) => response.batchItemFailures.length)).toEqual([1, 1, 1, 1]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(hooks.received).toEqual([]);
    expect(await log(other)).toEqual([]);
  });

  it('delivers to an automation subscription (id and timestamp headers, no signature), and a 410 unsubscribes it', async () => {
    // Prepare
    const tenant = await newTenant(['admin'], UNLIMITED);
    const zap = await receiver();
    const subscribed = await call<{ data: { id: string } }>(`${stack.api_url}/automation/subscribe`, {
      method: 'POST',
      key: tenant.key,
      body: { target_url: zap.url, event_type: 'payment.failed' },
    });

    // Act
    await ingestFailure(tenant);
    await deliverAll();
    zap.answer = status(410);
    await ingestFailure(tenant, 'bo@example.com');
    await deliverAll();
    await ingestFailure(tenant, 'cy@example.com');
    await deliverAll();

    // Assess
    expect(subscribed.status).toBe(201);
    expect(zap.received).toHaveLength(2);
    const [first] = zap.received as [Received];
    expect(payloadOf(first)).toMatchObject({ type: 'payment.failed', merchant_id: tenant.merchant.id, data: { object: { amount: 4900 } } });
    expect(first.headers['webhook-id']).toBe(payloadOf(first).id);
    expect(first.headers['webhook-timestamp']).toMatch(/^\d+$/);
    expect(first.headers['webhook-signature']).toBeUndefined();
    expect(await getSubscriptionById(tenant.merchant.id, subscribed.body.data.id)).toBeUndefined();
    expect((await log(tenant)).map((row) => [row.endpoint_id, row.status])).toEqual([
      [subscribed.body.data.id, 'failed'],
      [subscribed.body.data.id, 'delivered'],
    ]);
  });

  it("never delivers a merchant's events to another merchant's endpoint", async () => {
    // Prepare
    const tenant = await newTenant(['admin'], UNLIMITED);
    const other = await newTenant(['admin'], UNLIMITED);
    const mine = await receiver();
    const theirs = await receiver();
    await createEndpoint(tenant, mine.url, ['payment.failed']);
    await createEndpoint(other, theirs.url, ['payment.failed']);

    // Act
    await ingestFailure(tenant);
    await deliverAll();

    // Assess
    expect(mine.received).toHaveLength(1);
    expect(theirs.received).toEqual([]);
    expect(await log(other)).toEqual([]);
  });

  it('cuts a hanging receiver at 15 s and a 10 MB answer at 64 KB through the queue consumer, logged failed with a retry, the others delivered, the worker unharmed', async () => {
    // Prepare
    const tenant = await newTenant(['admin'], UNLIMITED);
    const hanging = await receiver();
    hanging.answer = () => undefined;
    const flooding = await receiver();
    flooding.answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(Buffer.alloc(10 * 1024 * 1024, 'x'));
    };
    const healthy = await receiver();
    let healthyAnsweredAt = 0;
    healthy.answer = (req, res, body) => {
      healthyAnsweredAt = Date.now();
      ok(req, res, body);
    };
    const slow = await createEndpoint(tenant, hanging.url, ['payment.failed']);
    const flood = await createEndpoint(tenant, flooding.url, ['payment.failed']);
    const fine = await createEndpoint(tenant, healthy.url, ['payment.failed']);
    await ingestFailure(tenant);

    // Act: one batch of the consumer carries the three attempts (the real limits: 15 s, 64 KB)
    await stack.runtime.stream.drain();
    const started = Date.now();
    const counts = await stack.runtime.queues.drain();
    const tookMs = Date.now() - started;

    // Assess
    const rows = await log(tenant);
    const rowOf = (endpointId: string) => rows.find((row) => row.endpoint_id === endpointId);
    expect(counts).toMatchObject({ failed: 0, deadLettered: 0 });
    expect(rowOf(fine.id)).toMatchObject({ status: 'delivered', status_code: 200 });
    // The slow receiver did not hold the others back.
    expect(healthyAnsweredAt - started).toBeLessThan(5_000);
    expect(rowOf(flood.id)).toMatchObject({ status: 'failed', status_code: 200, error: 'response cut at 65536 bytes', next_attempt_at: expect.any(String) });
    expect(rowOf(slow.id)).toMatchObject({
      status: 'failed',
      status_code: null,
      error: 'no complete answer within 15000 ms',
      next_attempt_at: expect.any(String),
    });
    expect((rowOf(slow.id) as LogRow & { duration_ms: number }).duration_ms).toBeGreaterThanOrEqual(15_000);
    expect(hanging.received).toHaveLength(1);
    expect(tookMs).toBeGreaterThanOrEqual(15_000);
    expect(tookMs).toBeLessThan(25_000);
  });
});
