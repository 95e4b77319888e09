/**
 * POST /api/v1/webhooks/endpoints/{id}/recover (Svix's recover, beyond the spec): events whose
 * attempts to an endpoint ended failed are sent again once the receiver is back. Real events
 * (payments failed through POST /ingest/payment-event) go through the outbox, the dispatcher and
 * the outbound-deliveries consumer to a receiver on loopback, which verifies every delivery with
 * the `standardwebhooks` package. A receiver ends an event's retries at once by answering
 * `webhook-delivery: abort-message`, so no test waits for the retry schedule.
 */
import { Webhook } from 'standardwebhooks';
import { MAX_ATTEMPT_NUMBER, type WebhookDeliver } from '#contracts/webhook-deliveries';
import { handler as everyMinute } from '#jobs/every-minute';
import type { LocalStack } from '#lib/local/local-stack';
import { deliverWebhook } from '#services/deliver-webhook';
import { eraseCustomer } from '#services/erase-customer';
import { recoverFailedDeliveries } from '#services/recover-webhook-deliveries';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { keyWithScopes } from '#test/fixtures/recoveries';
import { scheduledJobEventAt } from '#test/fixtures/scheduled-jobs';
import { expectOtherMerchantGets404, newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';
import {
  createEndpointVia,
  deliverAllOf,
  ingestFailureVia,
  ok,
  type Received,
  type Receiver,
  receiverPool,
  status,
  waitingDeliveries,
} from '#test/fixtures/webhook-receiver';

// Each test drives the stream and the queue through several deliveries: seconds on a busy 2-core machine.
jest.setTimeout(90_000);

interface Payload {
  id: string;
  type: string;
  data: { object: Record<string, unknown> };
}
interface LogRow {
  id: string;
  event_id: string;
  attempt: number;
  status: 'pending' | 'delivered' | 'failed';
  status_code: number | null;
  error: string | null;
  next_attempt_at: string | null;
}
interface Recovery {
  endpoint_id: string;
  since: string;
  until: string;
  requeued: number;
  skipped_delivered: number;
  skipped_pending: number;
  skipped_unavailable: number;
  has_more: boolean;
}
interface Answer<T> {
  data: T;
  error?: { code: string; message: string; param?: string };
}

/** The receiver's answer that fails an attempt and ends the event's retries at once. */
const failFinally = status(500, { 'webhook-delivery': 'abort-message' });
const payloadOf = (request: Received): Payload => JSON.parse(request.body) as Payload;
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('POST /api/v1/webhooks/endpoints/{id}/recover', () => {
  let stack: LocalStack;
  const receivers = receiverPool();
  const receiver = receivers.start;
  const createEndpoint = (tenant: Tenant, url: string) => createEndpointVia(stack, tenant, url, ['payment.failed']);
  const deliverAll = () => deliverAllOf(stack);
  /** A payment fails (a real `payment.failed` event), and its first attempt runs: the event's id, as the receiver got it. */
  const failedPaymentEvent = async (tenant: Tenant, hooks: Receiver, email: string): Promise<{ eventId: string; paymentId: string }> => {
    const paymentId = await ingestFailureVia(stack, tenant, email);
    await deliverAll();
    return { eventId: payloadOf(hooks.received.at(-1) as Received).id, paymentId };
  };
  /** A merchant with an endpoint (subscribed to payment.failed) and its receiver; `since`: now, before any event of the test. */
  const merchantWithEndpoint = async () => {
    const tenant = await newTenant(['admin'], UNLIMITED);
    const hooks = await receiver();
    const endpoint = await createEndpoint(tenant, hooks.url);
    return { tenant, hooks, endpoint, since: new Date().toISOString() };
  };
  /** Attempt `attempt` of the event to the endpoint, run now by the consumer's code (as its queue message would). */
  const attemptNow = (tenant: Tenant, endpointId: string, eventId: string, attempt: number, seriesStart?: number) =>
    deliverWebhook({
      kind: 'webhook.deliver',
      merchant_id: tenant.merchant.id,
      event_id: eventId,
      target: 'endpoint',
      target_id: endpointId,
      attempt,
      due_at: new Date().toISOString(),
      ...(seriesStart === undefined ? {} : { series_start: seriesStart }),
    });
  const recover = (tenant: Tenant, endpointId: string, body: unknown, key = tenant.key) =>
    call<Answer<Recovery>>(`${stack.api_url}/webhooks/endpoints/${endpointId}/recover`, { method: 'POST', key, body });
  const log = async (tenant: Tenant, query = '') => (await call<Answer<LogRow[]>>(`${stack.api_url}/webhooks/events${query}`, { key: tenant.key })).body.data;
  const queued = (tenant: Tenant): WebhookDeliver[] => waitingDeliveries(stack).filter((message) => message.merchant_id === tenant.merchant.id);

  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => {
    await receivers.closeAll();
    await stack.stop();
  });

  it('sends again exactly the failed events of the window, oldest first, with their own webhook-id; skips delivered, pending and those outside the window', async () => {
    // Prepare: an event before the window, then failed, delivered, failed and retry-pending ones in it, then one after it
    const { tenant, hooks, endpoint } = await merchantWithEndpoint();
    hooks.answer = failFinally;
    const before = await failedPaymentEvent(tenant, hooks, 'before@example.com');
    await tick();
    const since = new Date().toISOString();
    const first = await failedPaymentEvent(tenant, hooks, 'first@example.com');
    hooks.answer = ok;
    const delivered = await failedPaymentEvent(tenant, hooks, 'delivered@example.com');
    hooks.answer = failFinally;
    const second = await failedPaymentEvent(tenant, hooks, 'second@example.com');
    const retrying = await failedPaymentEvent(tenant, hooks, 'retrying@example.com');
    // Its attempt 3 fails without ending the retries: attempt 4 waits about 30 min in the due index.
    hooks.answer = status(500);
    const third = await attemptNow(tenant, endpoint.id, retrying.eventId, 3);
    await tick();
    const until = new Date().toISOString();
    await tick();
    hooks.answer = failFinally;
    await failedPaymentEvent(tenant, hooks, 'after@example.com');
    const sentBefore = hooks.received.length;
    hooks.answer = ok;

    // Act
    const response = await recover(tenant, endpoint.id, { since, until });
    const enqueued = queued(tenant);
    const pendingAtOnce = await log(tenant, '?status=pending');
    const again = await recover(tenant, endpoint.id, { since, until });
    await stack.runtime.queues.drain();
    const afterDelivery = await recover(tenant, endpoint.id, { since, until });

    // Assess
    expect(third).toMatchObject({ kind: 'failed', next: { attempt: 4, via: 'due_index' } });
    expect(response.status).toBe(202);
    expect(response.body.data).toEqual({
      endpoint_id: endpoint.id,
      since,
      until,
      requeued: 2,
      skipped_delivered: 1,
      skipped_pending: 1,
      skipped_unavailable: 0,
      has_more: false,
    });
    expect(pendingAtOnce.map((row) => [row.event_id, row.attempt]).sort()).toEqual(
      [
        [first.eventId, 2],
        [second.eventId, 2],
        [retrying.eventId, 4],
      ].sort(),
    );
    expect(again.body.data).toMatchObject({ requeued: 0, skipped_delivered: 1, skipped_pending: 3, has_more: false });
    const resent = hooks.received.slice(sentBefore);
    const verifier = new Webhook(endpoint.signing_secret);
    const verified = resent.map((request) => verifier.verify(request.body, request.headers) as Payload);
    // Each a new attempt starting a new series (a few are queued at once, and the consumer sends a batch's messages concurrently).
    expect(enqueued.map((message) => [message.event_id, message.attempt, message.series_start]).sort()).toEqual(
      [
        [first.eventId, 2, 2],
        [second.eventId, 2, 2],
      ].sort(),
    );
    expect(verified.map((payload) => payload.id).sort()).toEqual([first.eventId, second.eventId].sort());
    for (const [index, request] of resent.entries()) expect(request.headers['webhook-id']).toBe(verified[index]?.id);
    expect(verified.every((payload) => payload.type === 'payment.failed')).toBe(true);
    expect(verified.map((payload) => payload.id)).not.toContain(before.eventId);
    const rows = await log(tenant, `?endpoint_id=${endpoint.id}`);
    const rowsOf = (eventId: string) => rows.filter((row) => row.event_id === eventId).map((row) => [row.attempt, row.status, row.status_code]);
    expect(rowsOf(first.eventId)).toEqual([
      [2, 'delivered', 200],
      [1, 'failed', 500],
    ]);
    expect(rowsOf(before.eventId)).toEqual([[1, 'failed', 500]]);
    expect(rowsOf(delivered.eventId)).toEqual([[1, 'delivered', 200]]);
    expect(afterDelivery.body.data).toMatchObject({ requeued: 0, skipped_delivered: 3, skipped_pending: 1 });
    expect(queued(tenant)).toEqual([]);
  });

  it('starts a new retry series: an event whose eight attempts failed is retried again on the schedule after its recovered attempt fails', async () => {
    // Prepare: attempt 1 ends the retries; attempt 8, the schedule's last, fails with no attempt left
    const { tenant, hooks, endpoint, since } = await merchantWithEndpoint();
    hooks.answer = failFinally;
    const { eventId } = await failedPaymentEvent(tenant, hooks, 'exhausted@example.com');
    hooks.answer = status(500);
    const eighth = await attemptNow(tenant, endpoint.id, eventId, 8);

    // Act: recovered while the receiver still fails
    const response = await recover(tenant, endpoint.id, { since });
    const attemptedAfter = Date.now();
    await stack.runtime.queues.drain();
    const attemptedBefore = Date.now();

    // Assess
    expect(eighth).toMatchObject({ kind: 'failed', delivery: { error: expect.stringContaining('no attempts left') } });
    expect(response.body.data).toMatchObject({ requeued: 1 });
    const ninth = (await log(tenant)).find((row) => row.attempt === 9);
    expect(ninth).toMatchObject({ event_id: eventId, status: 'failed', status_code: 500, next_attempt_at: expect.any(String) });
    const [tenth] = queued(tenant);
    expect(tenth).toMatchObject({ event_id: eventId, attempt: 10, series_start: 9, target_id: endpoint.id });
    // The schedule's first wait, 5 s ± 20 %: the series began again at attempt 9.
    expect(Date.parse(tenth?.due_at as string) - attemptedAfter).toBeGreaterThanOrEqual(4_000);
    expect(Date.parse(tenth?.due_at as string) - attemptedBefore).toBeLessThanOrEqual(6_000);
    expect(hooks.received.map((request) => request.headers['webhook-id'])).toEqual([eventId, eventId, eventId]);
  });

  it("keeps the new series through the due index: a recovered series' third failure waits 30 min, then goes on with its series", async () => {
    // Prepare: the series that began at attempt 9 fails its third attempt (11)
    const { tenant, hooks, endpoint } = await merchantWithEndpoint();
    hooks.answer = failFinally;
    const { eventId } = await failedPaymentEvent(tenant, hooks, 'series@example.com');
    hooks.answer = status(500);
    const eleventh = await attemptNow(tenant, endpoint.id, eventId, 11, 9);
    const dueAt = (eleventh as { next: { at: string } }).next.at;

    // Act: the every-minute task enqueues the pending attempt 12 when it is due
    const report = await everyMinute(scheduledJobEventAt('every-minute', new Date(dueAt)));

    // Assess
    expect(eleventh).toMatchObject({ kind: 'failed', next: { attempt: 12, via: 'due_index' } });
    // Other tests' retries may fall due by then too: this merchant's is the one looked at.
    expect(report.tasks.find((task) => task.name === 'dispatch-due-webhooks')?.status).toBe('ok');
    expect(queued(tenant)).toEqual([expect.objectContaining({ event_id: eventId, attempt: 12, series_start: 9, due_at: dueAt })]);
  });

  it('skips failed events that are gone (erased with their customer) or that the endpoint no longer subscribes to', async () => {
    // Prepare
    const { tenant, hooks, endpoint, since } = await merchantWithEndpoint();
    hooks.answer = failFinally;
    const erased = await failedPaymentEvent(tenant, hooks, 'erased@example.com');
    const kept = await failedPaymentEvent(tenant, hooks, 'kept@example.com');
    const payment = await call<Answer<{ customer_id: string }>>(`${stack.api_url}/payments/${erased.paymentId}`, { key: tenant.key });
    await eraseCustomer(tenant.merchant.id, payment.body.data.customer_id);
    hooks.answer = ok;

    // Act: one event erased; then the endpoint subscribes to another type only
    const partly = await recoverFailedDeliveries(tenant.merchant.id, endpoint.id, { since });
    await stack.runtime.queues.drain();
    hooks.answer = failFinally;
    const later = await failedPaymentEvent(tenant, hooks, 'later@example.com');
    await call(`${stack.api_url}/webhooks/endpoints/${endpoint.id}`, { method: 'PUT', key: tenant.key, body: { events: ['payment.recovered'] } });
    const unsubscribed = await recover(tenant, endpoint.id, { since });

    // Assess
    expect(partly).toMatchObject({ requeued: 1, skipped_unavailable: 1 });
    expect(hooks.received.map((request) => payloadOf(request).id)).toEqual([erased.eventId, kept.eventId, kept.eventId, later.eventId]);
    expect(unsubscribed.body.data).toMatchObject({ requeued: 0, skipped_delivered: 1, skipped_unavailable: 2 });
    expect(queued(tenant)).toEqual([]);
  });

  it('leaves an event at its 100th attempt, the last a message may carry', async () => {
    // Prepare
    const { tenant, hooks, endpoint, since } = await merchantWithEndpoint();
    hooks.answer = failFinally;
    const { eventId } = await failedPaymentEvent(tenant, hooks, 'hundredth@example.com');
    const last = await attemptNow(tenant, endpoint.id, eventId, MAX_ATTEMPT_NUMBER);

    // Act
    const response = await recover(tenant, endpoint.id, { since });

    // Assess
    expect(last).toMatchObject({ kind: 'failed', delivery: { attempt: 100, next_attempt_at: null } });
    expect(response.body.data).toMatchObject({ requeued: 0, skipped_unavailable: 1 });
    expect(queued(tenant)).toEqual([]);
  });

  it('sends at most `limit` events a call, oldest first, with has_more; the same window again continues', async () => {
    // Prepare
    const { tenant, hooks, endpoint, since } = await merchantWithEndpoint();
    hooks.answer = failFinally;
    const events: string[] = [];
    for (const name of ['a', 'b', 'c']) events.push((await failedPaymentEvent(tenant, hooks, `${name}@example.com`)).eventId);
    const until = new Date().toISOString();

    // Act
    const calls = [];
    for (let i = 0; i < 4; i += 1) calls.push(await recoverFailedDeliveries(tenant.merchant.id, endpoint.id, { since, until }, { limit: 1 }));

    // Assess
    expect(calls.map((result) => [result.requeued, result.skipped_pending, result.has_more])).toEqual([
      [1, 0, true],
      [1, 1, true],
      [1, 2, false],
      [0, 3, false],
    ]);
    expect(queued(tenant).map((message) => [message.event_id, message.attempt])).toEqual(events.map((eventId) => [eventId, 2]));
  });

  it('takes a retry overdue by more than an hour for lost, and sends the event again', async () => {
    // Prepare: attempt 1 fails and its retry waits on the queue (5 s)
    const { tenant, hooks, endpoint, since } = await merchantWithEndpoint();
    hooks.answer = status(500);
    const { eventId } = await failedPaymentEvent(tenant, hooks, 'lost@example.com');
    const [retry] = queued(tenant);

    // Act: now, the retry is on its way; two hours later, it never came
    const soon = await recoverFailedDeliveries(tenant.merchant.id, endpoint.id, { since });
    const late = await recoverFailedDeliveries(tenant.merchant.id, endpoint.id, { since }, { now: new Date(Date.now() + 2 * 3_600_000) });

    // Assess
    expect(retry).toMatchObject({ event_id: eventId, attempt: 2 });
    expect(soon).toMatchObject({ requeued: 0, skipped_pending: 1 });
    expect(late).toMatchObject({ requeued: 1, skipped_pending: 0 });
    expect(
      queued(tenant)
        .map((message) => message.attempt)
        .sort(),
    ).toEqual([2, 2]);
  });

  it('answers 409 for a disabled endpoint, sending nothing, and recovers once it is enabled again', async () => {
    // Prepare: the receiver answers 410, which disables the endpoint
    const { tenant, hooks, endpoint, since } = await merchantWithEndpoint();
    hooks.answer = status(410);
    const { eventId } = await failedPaymentEvent(tenant, hooks, 'gone@example.com');
    hooks.answer = ok;

    // Act
    const refused = await recover(tenant, endpoint.id, { since });
    const pendingWhileDisabled = await log(tenant, '?status=pending');
    await call(`${stack.api_url}/webhooks/endpoints/${endpoint.id}`, { method: 'PUT', key: tenant.key, body: { enabled: true } });
    const recovered = await recover(tenant, endpoint.id, { since });
    await stack.runtime.queues.drain();

    // Assess
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'state_conflict', message: expect.stringContaining('enabled') });
    expect(pendingWhileDisabled).toEqual([]);
    expect(recovered.body.data).toMatchObject({ requeued: 1 });
    expect(hooks.received.map((request) => request.headers['webhook-id'])).toEqual([eventId, eventId]);
  });

  it("answers 404 for another merchant's endpoint and an id of no endpoint, and needs the webhooks or admin scope", async () => {
    // Prepare
    const { tenant, endpoint, since } = await merchantWithEndpoint();
    const reader = await keyWithScopes(tenant.merchant.id, ['read']);
    const webhooksOnly = await keyWithScopes(tenant.merchant.id, ['webhooks']);

    // Act
    const unknown = await recover(tenant, 'we_01J0000000000000000000000', { since });
    const huge = await recover(tenant, 'x'.repeat(10_000), { since });
    const readOnly = await recover(tenant, endpoint.id, { since }, reader);
    const allowed = await recover(tenant, endpoint.id, { since }, webhooksOnly);

    // Assess
    await expectOtherMerchantGets404(`${stack.api_url}/webhooks/endpoints/${endpoint.id}/recover`, { method: 'POST', body: { since } });
    expect([unknown.status, unknown.body.error?.code]).toEqual([404, 'resource_not_found']);
    expect(huge.status).toBe(404);
    expect([readOnly.status, readOnly.body.error?.code]).toEqual([403, 'insufficient_scope']);
    expect(allowed.status).toBe(202);
    expect(allowed.body.data).toMatchObject({ requeued: 0, skipped_delivered: 0, skipped_pending: 0, skipped_unavailable: 0, has_more: false });
  });

  it.each([
    ['since after until', 422, 'since', () => ({ since: new Date().toISOString(), until: new Date(Date.now() - 60_000).toISOString() })],
    ['since not a date', 422, 'since', () => ({ since: 'yesterday' })],
    ['since without a time', 422, 'since', () => ({ since: '2026-01-01' })],
    ['since older than the log keeps (30 days)', 422, 'since', () => ({ since: new Date(Date.now() - 31 * 86_400_000).toISOString() })],
    ['since in the future', 422, 'since', () => ({ since: new Date(Date.now() + 3_600_000).toISOString() })],
    ['until not a date', 422, 'until', () => ({ since: new Date().toISOString(), until: 42 })],
    ['no since', 400, 'since', () => ({})],
    ['an unknown field', 400, 'untill', () => ({ since: new Date().toISOString(), untill: new Date().toISOString() })],
    ['a __proto__ key', 400, '__proto__', () => JSON.parse(`{"since": "${new Date().toISOString()}", "__proto__": {"polluted": true}}`) as unknown],
  ])('refuses %s with %i and param %s, sending nothing', async (_name, code, param, body) => {
    // Prepare: a failed event that a valid call would send again
    const { tenant, hooks, endpoint } = await merchantWithEndpoint();
    hooks.answer = failFinally;
    await failedPaymentEvent(tenant, hooks, 'bad-input@example.com');

    // Act
    const response = await recover(tenant, endpoint.id, body());

    // Assess
    expect(response.status).toBe(code);
    expect(response.body.error).toMatchObject({ code: code === 400 ? 'invalid_request' : 'validation_error', param });
    expect(queued(tenant)).toEqual([]);
    expect(await log(tenant, '?status=pending')).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
