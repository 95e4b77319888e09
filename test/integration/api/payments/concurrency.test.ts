/**
 * 50 pause, resume and retry requests at once on one payment, over HTTP: no 5xx, every refusal a
 * 409, and a state that adds up. A retry charges nothing in the request (it makes the retry due
 * now, for the retry executor), and manual retries are at least 5 minutes apart, so at most one
 * is accepted; the executor's run afterwards charges the card at most once. The history only ever
 * takes allowed steps and has one entry per accepted pause, resume and retry plus the policy's
 * plan at each resume; the version and the timeline count every write; counters and customer
 * figures count the payment once. Entries are stamped at commit: ordered by time, the history and
 * the timeline are in the order of the writes.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { attemptIdempotencyKey } from '#core/payment-gateway';
import { isOpen, type PaymentRecord, type PaymentStatus, paymentBodyOf, type StateHistoryEntry } from '#core/payments';
import { documentClient } from '#data/client';
import { getCustomer } from '#data/customer-repository';
import { paymentKeys } from '#data/keys';
import { getPayment, paymentCounters, recordTimelineEvent } from '#data/payment-repository';
import { paymentTimeline } from '#data/payment-queries';
import { sandboxChargesOf } from '#data/sandbox-charge-repository';
import { executeDueRetries } from '#jobs/execute-due-retries';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { seedPayment } from '#test/fixtures/payments';
import { newTenant } from '#test/fixtures/tenants';

const REQUESTS = 50;
const ACTIONS = ['pause', 'resume', 'retry'] as const;

interface RetryData {
  status: string;
  retry_number: number;
}

/**
 * Whether `to` may follow `from` in a history written by the recording, pause, resume and retry
 * requests: the recording plans retry 1 (pending → retrying); a retry request or a plan keeps it
 * retrying; a pause goes to paused and a resume back to the status before the pause.
 */
function allowedStep(from: PaymentStatus, to: PaymentStatus, pausedFrom: PaymentStatus | undefined): boolean {
  if (from === 'pending') return to === 'paused' || to === 'retrying';
  if (from === 'retrying') return to === 'paused' || to === 'retrying';
  if (from === 'paused') return to === pausedFrom;
  return false;
}

function expectAllowedSteps(history: readonly StateHistoryEntry[]): void {
  let pausedFrom: PaymentStatus | undefined;
  history.forEach((entry, index) => {
    const previous = history[index - 1];
    if (previous === undefined) return;
    expect({ step: index, from: previous.status, to: entry.status, allowed: allowedStep(previous.status, entry.status, pausedFrom) }).toEqual({
      step: index,
      from: previous.status,
      to: entry.status,
      allowed: true,
    });
    if (entry.status === 'paused') pausedFrom = previous.status;
  });
}

/**
 * The payment's timeline as stored (ordered by its sort key, whose first part is the entry's
 * time), each entry with the version of the write that added it (the key's sequence starts with it).
 */
async function storedTimeline(
  merchantId: string,
  payment: PaymentRecord,
): Promise<Array<{ timestamp: string; version: number; type: string; details: Record<string, unknown> }>> {
  const { PK, SKPrefix } = paymentKeys.timelinePrefix(merchantId, paymentBodyOf(payment.id) as string);
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new QueryCommand({
        TableName: process.env.TABLE_NAME,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
        ExpressionAttributeValues: { ':pk': PK, ':sk': SKPrefix },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey !== undefined);
  return items.map((item) => ({
    timestamp: item.timestamp as string,
    version: Number((item.SK as string).split('#').at(-1)?.slice(0, 6)),
    type: item.type as string,
    details: item.details as Record<string, unknown>,
  }));
}

/** Ordered by time, state_history and the timeline are in the order of the writes (versions). */
function expectTimeOrderIsWriteOrder(history: readonly StateHistoryEntry[], timeline: Awaited<ReturnType<typeof storedTimeline>>): void {
  const times = history.map((entry) => Date.parse(entry.at));
  const backwards = times.flatMap((at, i) => (i > 0 && at < (times[i - 1] as number) ? [{ entry: i, at: history[i]?.at, previous: history[i - 1]?.at }] : []));
  expect(backwards).toEqual([]);
  const versions = timeline.map((entry) => entry.version);
  const outOfOrder = versions.flatMap((version, i) =>
    i > 0 && version < (versions[i - 1] as number)
      ? [{ entry: i, version, previous: versions[i - 1], at: timeline[i]?.timestamp, previousAt: timeline[i - 1]?.timestamp }]
      : [],
  );
  expect(outOfOrder).toEqual([]);
  // Two writes never share an instant, so the order by time alone is the order of the writes.
  const sharedInstants = timeline.flatMap((entry, i) =>
    i > 0 && entry.version !== timeline[i - 1]?.version && entry.timestamp === timeline[i - 1]?.timestamp ? [entry.timestamp] : [],
  );
  expect(sharedInstants).toEqual([]);
}

describe('concurrent POST /payments/{id}/pause, /resume and /retry on one payment', () => {
  let stack: LocalStack;

  beforeAll(async () => {
    stack = await startTestStack();
  });

  afterAll(async () => {
    await stack.stop();
  });

  it(`keeps a consistent state under ${REQUESTS} parallel requests`, async () => {
    // Prepare: insufficient_funds, retrying with retry 1 planned at recording.
    const tenant = await newTenant(['write:payments', 'read:payments'], { read_per_minute: 1_000_000, write_per_minute: 1_000_000 });
    const m = tenant.merchant.id;
    const payment = await seedPayment(m);
    // Act
    const responses = await Promise.all(
      Array.from({ length: REQUESTS }, async (_, i) => {
        const action = ACTIONS[i % ACTIONS.length] as (typeof ACTIONS)[number];
        const response = await call<{ data?: RetryData; error?: { code: string } }>(`${stack.api_url}/payments/${payment.id}/${action}`, {
          method: 'POST',
          key: tenant.key,
        });
        return { action, status: response.status, code: response.body?.error?.code, data: response.body?.data };
      }),
    );
    // Assess
    expect(responses.filter((response) => response.status >= 500)).toEqual([]);
    for (const response of responses.filter((r) => r.status >= 300)) expect(response).toMatchObject({ status: 409, code: 'state_conflict' });
    const accepted = responses.filter((response) => response.status < 300);
    const acceptedOf = (action: string) => accepted.filter((response) => response.action === action);
    const pauses = acceptedOf('pause').length;
    const resumes = acceptedOf('resume').length;
    // Manual retries are 5 minutes apart: at most one accepted, retry 1, queued now; nothing charged in a request.
    const retries = acceptedOf('retry').map((response) => response.data as RetryData);
    expect(retries.length).toBeLessThanOrEqual(1);
    expect(retries.map((retry) => [retry.status, retry.retry_number])).toEqual(retries.map(() => ['retry_initiated', 1]));
    expect(await sandboxChargesOf(m, payment.id)).toEqual([]);

    const final = await getPayment(m, payment.id);
    if (final === undefined) throw new Error('the payment is gone');
    expectAllowedSteps(final.state_history);
    expect(final.status).toBe(final.state_history.at(-1)?.status);
    expect(final).toMatchObject({ retry_count: 0, attempt: null });
    expect(final.next_retry_at === null).toBe(final.status === 'paused');
    // One write per accepted request, each resume planning the retry again in its own write.
    expect(final.version).toBe(payment.version + pauses + resumes + retries.length);
    const history = final.state_history.slice(payment.state_history.length);
    expect(history.filter((entry) => entry.reason === 'Paused through the API')).toHaveLength(pauses);
    expect(history.filter((entry) => entry.reason === 'Resumed through the API')).toHaveLength(resumes);
    expect(history.filter((entry) => entry.reason.startsWith('Retry 1 of 8 at '))).toHaveLength(resumes);
    expect(history.filter((entry) => entry.reason.startsWith('Retry 1 requested through the API'))).toHaveLength(retries.length);
    expect(history).toHaveLength(pauses + 2 * resumes + retries.length);
    const types = (await paymentTimeline(m, payment)).map((entry) => entry.type);
    const count = (type: string) => types.filter((t) => t === type).length;
    expect([count('payment_failed'), count('status_change'), count('retry_scheduled')]).toEqual([1, pauses + resumes, 1 + resumes + retries.length]);
    expect(types).toHaveLength(2 + pauses + 2 * resumes + retries.length);
    expectTimeOrderIsWriteOrder(final.state_history, await storedTimeline(m, payment));

    // Act: the executor's run attempts the payment once if a retry is due now.
    await executeDueRetries({ now: new Date(), executionId: 'after-the-burst' });
    // Assess
    const due = final.status === 'retrying' && Date.parse(final.next_retry_at as string) <= Date.now();
    expect((await sandboxChargesOf(m, payment.id)).map((charge) => [charge.idempotency_key, charge.calls])).toEqual(
      due ? [[attemptIdempotencyKey(payment.id, 1), 1]] : [],
    );
    const settled = (await getPayment(m, payment.id)) as PaymentRecord;
    expect(settled.retry_count).toBe(due ? 1 : 0);

    const http = await call<{ data: { status: string } }>(`${stack.api_url}/payments/${payment.id}`, { key: tenant.key });
    expect(http.body.data.status).toBe(settled.status);
    await stack.runtime.stream.drain();
    const counters = await paymentCounters(m);
    expect(counters.all).toBe(1);
    expect(counters[`s:${settled.status}`]).toBe(1);
    const customer = await getCustomer(m, payment.customer_id);
    expect(customer?.open_payments).toBe(isOpen(settled.status) ? 1 : 0);
  }, 120_000);

  it('stamps state_history and timeline entries of concurrent pauses and resumes at commit: ordered by time, they are in the order of the writes', async () => {
    // Prepare
    const tenant = await newTenant(['write:payments', 'read:payments'], { read_per_minute: 1_000_000, write_per_minute: 1_000_000 });
    const m = tenant.merchant.id;
    const payment = await seedPayment(m);
    // Act: 5 waves of 8 pauses and resumes at once. In each wave the transition the current status
    // allows is made at least once, so at least 5 writes race with the wave's other calls.
    const responses: Awaited<ReturnType<typeof call>>[] = [];
    for (let wave = 0; wave < 5; wave += 1) {
      responses.push(
        ...(await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            call(`${stack.api_url}/payments/${payment.id}/${i % 2 === 0 ? 'pause' : 'resume'}`, { method: 'POST', key: tenant.key }),
          ),
        )),
      );
    }
    // Assess
    expect(responses.filter((response) => response.status !== 200 && response.status !== 409)).toEqual([]);
    const final = (await getPayment(m, payment.id)) as PaymentRecord;
    const timeline = await storedTimeline(m, payment);
    expect(responses.filter((response) => response.status === 200).length).toBeGreaterThanOrEqual(5);
    expectTimeOrderIsWriteOrder(final.state_history, timeline);
    // Each pause or resume in time order starts from the status the previous one left.
    const changes = timeline.filter((entry) => entry.type === 'status_change').map((entry) => entry.details as { from: string; to: string });
    changes.forEach((change, i) => {
      if (i > 0) expect({ i, from: change.from }).toEqual({ i, from: changes[i - 1]?.to });
    });
    expect(final.updated_at).toBe(final.state_history.at(-1)?.at);
  }, 120_000);

  it('stamps a refund entry at commit too: refunds racing pauses and resumes keep the order by time the order of the writes', async () => {
    // Prepare
    const tenant = await newTenant(['write:payments', 'read:payments'], { read_per_minute: 1_000_000, write_per_minute: 1_000_000 });
    const m = tenant.merchant.id;
    const payment = await seedPayment(m);
    // Act: 4 waves of 3 refund entries (as ingest records a charge refund) and 4 pauses/resumes at once.
    for (let wave = 0; wave < 4; wave += 1) {
      await Promise.all([
        ...Array.from({ length: 3 }, (_, i) =>
          recordTimelineEvent(m, payment.id, { type: 'charge_refunded', detail: `Refunded ${wave}-${i}`, details: { amount: 100 } }),
        ),
        ...Array.from({ length: 4 }, (_, i) =>
          call(`${stack.api_url}/payments/${payment.id}/${i % 2 === 0 ? 'pause' : 'resume'}`, { method: 'POST', key: tenant.key }),
        ),
      ]);
    }
    // Assess
    const final = (await getPayment(m, payment.id)) as PaymentRecord;
    const timeline = await storedTimeline(m, payment);
    expect(timeline.filter((entry) => entry.type === 'charge_refunded')).toHaveLength(12);
    expectTimeOrderIsWriteOrder(final.state_history, timeline);
    // Every refund entry is a write of its own: 12 versions beyond the transitions'.
    expect(new Set(timeline.filter((entry) => entry.type === 'charge_refunded').map((entry) => entry.version)).size).toBe(12);
  }, 120_000);
});
