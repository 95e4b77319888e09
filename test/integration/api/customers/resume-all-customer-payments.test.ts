/**
 * POST /api/v1/customers/{id}/resume-all over HTTP (B): resumes each paused payment of the
 * customer to the status it held before its pause (A), with its state_history entry, leaves every
 * other payment alone, skips payments another request changed first, and refuses what it must.
 */
import { resumeAllCustomerPaymentsSchemas } from '#api/customers/schemas';
import type { PaymentRecord } from '#core/payments';
import { getPayment } from '#data/payment-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { moveThrough, seedCustomerPayment, UNLIMITED } from '#test/fixtures/customers';
import { HARD_DECLINE, retryPlanOf } from '#test/fixtures/payments';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { expectOtherMerchantGets404, newTenant, type Tenant } from '#test/fixtures/tenants';

interface Body {
  data: { customer_id: string; status: string; resumed_count: number; payment_ids: string[] };
  error?: { code: string; param?: string };
}

const REASON = "Resumed with all of the customer's payments";

describe('POST /api/v1/customers/{id}/resume-all', () => {
  let stack: LocalStack;
  let tenant: Tenant;

  const post = (id: string, action: 'resume-all' | 'pause-all', key = tenant.key) =>
    call<Body>(`${stack.api_url}/customers/${encodeURIComponent(id)}/${action}`, { method: 'POST', key });
  const resumeAll = (id: string, key = tenant.key) => post(id, 'resume-all', key);
  const fresh = async (payment: PaymentRecord, merchantId = tenant.merchant.id) => (await getPayment(merchantId, payment.id)) as PaymentRecord;

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], UNLIMITED);
  });

  afterAll(async () => {
    await stack.stop();
  });

  it('resumes every paused payment of the customer to its previous status, and only those', async () => {
    // Prepare
    const m = tenant.merchant.id;
    const who = { email: 'remy@example.com' };
    const day = (n: number) => new Date(`2026-10-0${n}T00:00:00.000Z`);
    const fromPending = await moveThrough(m, await seedCustomerPayment(m, who, HARD_DECLINE, day(1)), ['pause']);
    const fromRetrying = await moveThrough(m, await seedCustomerPayment(m, who, {}, day(2)), ['retry', 'pause']);
    const pending = await seedCustomerPayment(m, who, HARD_DECLINE, day(3));
    const recovered = await moveThrough(m, await seedCustomerPayment(m, who, {}, day(4)), ['pause', 'recover']);
    const neighbour = await moveThrough(m, await seedCustomerPayment(m, { email: 'neighbour@example.com' }, {}, day(2)), ['pause']);
    // Act
    const response = await resumeAll(fromPending.customer_id);
    // Assess
    expect(response.status).toBe(200);
    expect(resumeAllCustomerPaymentsSchemas.responses[200].safeParse(response.body).success).toBe(true);
    expect(response.body.data).toEqual({
      customer_id: fromPending.customer_id,
      status: 'active',
      resumed_count: 2,
      payment_ids: [fromRetrying.id, fromPending.id],
    });
    const [afterPending, afterRetrying] = [await fresh(fromPending), await fresh(fromRetrying)];
    expect(afterPending).toMatchObject({
      status: 'pending',
      previous_status: null,
      resumed_at: expect.any(String),
      awaiting_card_update: true,
      next_retry_at: null,
    });
    // Paused, no retry was planned; resumed, the policy plans it again (a payment waiting for a card still waits).
    expect(fromRetrying).toMatchObject({ paused_at: expect.any(String), next_retry_at: null });
    expect(afterRetrying).toMatchObject({
      status: 'retrying',
      previous_status: null,
      paused_at: null,
      resumed_at: expect.any(String),
      next_retry_at: expect.any(String),
    });
    expect(await retryPlanOf({ ...afterRetrying, next_retry_at: null }, new Date(afterRetrying.resumed_at as string))).toMatchObject({
      type: 'schedule_retry',
      at: afterRetrying.next_retry_at,
    });
    expect(afterPending.paused_at).toBeNull();
    expect(afterPending.state_history).toEqual([...fromPending.state_history, { status: 'pending', at: afterPending.resumed_at, reason: REASON }]);
    expect(afterRetrying.state_history).toEqual([
      ...fromRetrying.state_history,
      { status: 'retrying', at: afterRetrying.resumed_at, reason: REASON },
      { status: 'retrying', at: afterRetrying.resumed_at, reason: expect.stringMatching(/^Retry 1 of 8 at /) },
    ]);
    for (const untouched of [pending, recovered, neighbour]) expect(await fresh(untouched)).toEqual(untouched);
  });

  it('undoes pause-all: every payment is back in the status it had, with a pause and a resume in its history, and its retry planned again', async () => {
    // Prepare
    const m = tenant.merchant.id;
    const who = { email: 'roundtrip@example.com', provider_customer_id: 'cus_ROUND' };
    const before = [
      await seedCustomerPayment(m, who, HARD_DECLINE),
      await seedCustomerPayment(m, who),
      await moveThrough(m, await seedCustomerPayment(m, who), ['retry']),
    ];
    await post('cus_ROUND', 'pause-all');
    // Act
    const response = await resumeAll('cus_ROUND');
    // Assess
    expect(before.map((payment) => payment.status)).toEqual(['pending', 'retrying', 'retrying']);
    expect(response.body.data.resumed_count).toBe(3);
    for (const payment of before) {
      const after = await fresh(payment);
      expect(after.status).toBe(payment.status);
      expect(after.next_retry_at === null).toBe(payment.status === 'pending');
      expect(after.state_history.slice(payment.state_history.length).map((entry) => [entry.status, entry.reason])).toEqual([
        ['paused', "Paused with all of the customer's payments"],
        [payment.status, REASON],
        ...(payment.status === 'retrying' ? [['retrying', expect.stringMatching(/^Retry 1 of 8 at /)]] : []),
      ]);
    }
  });

  it('resumes nothing when nothing is paused', async () => {
    // Prepare
    const payment = await seedCustomerPayment(tenant.merchant.id, { email: 'calm@example.com' });
    // Act
    const response = await resumeAll(payment.customer_id);
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ customer_id: payment.customer_id, status: 'active', resumed_count: 0, payment_ids: [] });
    expect(await fresh(payment)).toEqual(payment);
  });

  it('resumes each payment exactly once when two resume-all requests race, skipping rather than failing', async () => {
    // Prepare
    const m = tenant.merchant.id;
    const payments = [];
    for (let i = 0; i < 6; i += 1) payments.push(await moveThrough(m, await seedCustomerPayment(m, { email: 'racer@example.com' }), ['pause']));
    const customerId = payments[0]?.customer_id as string;
    // Act
    const responses = await Promise.all([resumeAll(customerId), resumeAll(customerId)]);
    // Assess
    expect(responses.map((response) => response.status)).toEqual([200, 200]);
    expect(responses.flatMap((response) => response.body.data.payment_ids).sort()).toEqual(payments.map((payment) => payment.id).sort());
    for (const payment of payments) {
      const after = await fresh(payment);
      expect(after.status).toBe('retrying');
      expect(after.state_history.filter((entry) => entry.reason === REASON)).toHaveLength(1);
    }
  }, 30_000);

  it('answers 404 for an unknown customer, and to another merchant', async () => {
    // Prepare
    const payment = await moveThrough(tenant.merchant.id, await seedCustomerPayment(tenant.merchant.id, { email: 'private@example.com' }), ['pause']);
    // Act
    const unknown = await resumeAll('cus_nobody');
    // Assess
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.code).toBe('resource_not_found');
    await expectOtherMerchantGets404(`${stack.api_url}/customers/${payment.customer_id}/resume-all`, { method: 'POST' });
    expect((await fresh(payment)).status).toBe('paused');
  });

  it('answers an id over 255 characters with 404 resource_not_found naming id, as no such id can exist', async () => {
    // Act
    const response = await resumeAll('x'.repeat(256));
    // Assess
    expect(response.status).toBe(404);
    expect(response.body.error).toMatchObject({ code: 'resource_not_found', param: 'id' });
  });
});
