/**
 * POST /api/v1/customers/{id}/pause-all over HTTP (B): pauses each pending or retrying payment of
 * the customer (previous status kept, state_history entry), leaves every other payment alone,
 * skips payments another request changed first, and refuses what it must (scopes, another
 * merchant, bad input).
 */
import { pauseAllCustomerPaymentsSchemas } from '#api/customers/schemas';
import type { PaymentRecord } from '#core/payments';
import { getPayment } from '#data/payment-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { moveThrough, seedCustomerPayment, UNLIMITED } from '#test/fixtures/customers';
import { HARD_DECLINE } from '#test/fixtures/payments';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { expectOtherMerchantGets404, newTenant, type Tenant } from '#test/fixtures/tenants';

interface Body {
  data: { customer_id: string; status: string; paused_count: number; payment_ids: string[] };
  error?: { code: string; param?: string };
}

const REASON = "Paused with all of the customer's payments";

describe('POST /api/v1/customers/{id}/pause-all', () => {
  let stack: LocalStack;
  let tenant: Tenant;

  const pauseAll = (id: string, key = tenant.key, headers: Record<string, string> = {}) =>
    call<Body>(`${stack.api_url}/customers/${encodeURIComponent(id)}/pause-all`, { method: 'POST', key, headers });
  const fresh = async (payment: PaymentRecord) => (await getPayment(tenant.merchant.id, payment.id)) as PaymentRecord;

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], UNLIMITED);
  });

  afterAll(async () => {
    await stack.stop();
  });

  it('pauses every pending and retrying payment of the customer, and only those', async () => {
    // Prepare
    const m = tenant.merchant.id;
    const who = { email: 'paula@example.com' };
    const day = (n: number) => new Date(`2026-10-0${n}T00:00:00.000Z`);
    const pending = await seedCustomerPayment(m, who, HARD_DECLINE, day(1));
    const retrying = await seedCustomerPayment(m, who, {}, day(2));
    const paused = await moveThrough(m, await seedCustomerPayment(m, who, {}, day(3)), ['pause']);
    const recovered = await moveThrough(m, await seedCustomerPayment(m, who, {}, day(4)), ['recover']);
    const terminal = await moveThrough(m, await seedCustomerPayment(m, who, {}, day(5)), ['terminate']);
    const neighbour = await seedCustomerPayment(m, { email: 'neighbour@example.com' }, {}, day(2));
    // Act
    const response = await pauseAll(pending.customer_id);
    // Assess
    expect(response.status).toBe(200);
    expect(pauseAllCustomerPaymentsSchemas.responses[200].safeParse(response.body).success).toBe(true);
    expect(response.body.data).toEqual({ customer_id: pending.customer_id, status: 'paused', paused_count: 2, payment_ids: [retrying.id, pending.id] });
    const [afterPending, afterRetrying] = [await fresh(pending), await fresh(retrying)];
    expect(afterPending).toMatchObject({ status: 'paused', previous_status: 'pending', paused_at: expect.any(String) });
    expect(afterRetrying).toMatchObject({ status: 'paused', previous_status: 'retrying', paused_at: expect.any(String) });
    for (const [before, after] of [
      [pending, afterPending],
      [retrying, afterRetrying],
    ] as const) {
      expect(after.state_history).toEqual([...before.state_history, { status: 'paused', at: after.paused_at, reason: REASON }]);
    }
    for (const untouched of [paused, recovered, terminal, neighbour]) expect(await fresh(untouched)).toEqual(untouched);
  });

  it('pauses nothing the second time, and finds the customer by its provider customer id', async () => {
    // Prepare
    const payment = await seedCustomerPayment(tenant.merchant.id, { email: 'twice@example.com', provider_customer_id: 'cus_TWICE' });
    const first = await pauseAll('cus_TWICE');
    // Act
    const second = await pauseAll('cus_TWICE');
    // Assess
    expect(first.body.data).toMatchObject({ customer_id: payment.customer_id, paused_count: 1, payment_ids: [payment.id] });
    expect(second.status).toBe(200);
    expect(second.body.data).toEqual({ customer_id: payment.customer_id, status: 'paused', paused_count: 0, payment_ids: [] });
    expect((await fresh(payment)).state_history.filter((entry) => entry.status === 'paused')).toHaveLength(1);
  });

  it('pauses each payment exactly once when two pause-all requests race, skipping rather than failing', async () => {
    // Prepare
    const who = { email: 'racer@example.com' };
    const payments = [];
    for (let i = 0; i < 6; i += 1) payments.push(await seedCustomerPayment(tenant.merchant.id, who));
    const customerId = payments[0]?.customer_id as string;
    // Act
    const responses = await Promise.all([pauseAll(customerId), pauseAll(customerId)]);
    // Assess
    expect(responses.map((response) => response.status)).toEqual([200, 200]);
    const paused = responses.flatMap((response) => response.body.data.payment_ids);
    expect(paused.sort()).toEqual(payments.map((payment) => payment.id).sort());
    for (const payment of payments) {
      const after = await fresh(payment);
      expect(after.status).toBe('paused');
      expect(after.state_history.filter((entry) => entry.status === 'paused')).toHaveLength(1);
    }
  }, 30_000);

  it('replays the first answer for a repeated Idempotency-Key', async () => {
    // Prepare
    const payment = await seedCustomerPayment(tenant.merchant.id, { email: 'idem@example.com' });
    const headers = { 'Idempotency-Key': `pause-all-${payment.id}` };
    const first = await pauseAll(payment.customer_id, tenant.key, headers);
    // Act
    const replay = await pauseAll(payment.customer_id, tenant.key, headers);
    // Assess
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(first.text);
    expect(replay.body.data.paused_count).toBe(1);
  });

  it('answers 404 for an unknown customer, and to another merchant', async () => {
    // Prepare
    const payment = await seedCustomerPayment(tenant.merchant.id, { email: 'private@example.com' });
    // Act
    const unknown = await pauseAll('cust_01JZZZZZZZZZZZZZZZZZZZZZZZ');
    // Assess
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.code).toBe('resource_not_found');
    await expectOtherMerchantGets404(`${stack.api_url}/customers/${payment.customer_id}/pause-all`, { method: 'POST' });
    expect(await fresh(payment)).toEqual(payment);
  });

  it('answers an id over 255 characters with 404 resource_not_found naming id, as no such id can exist', async () => {
    // Act
    const response = await pauseAll('x'.repeat(256));
    // Assess
    expect(response.status).toBe(404);
    expect(response.body.error).toMatchObject({ code: 'resource_not_found', param: 'id' });
  });
});
