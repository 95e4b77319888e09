/**
 * GET /api/v1/payments over HTTP: every filter (A's statuses, B's `failed` and `active`, decline
 * category, psp, the created range as timestamps and as days), paging, scopes, tenant isolation
 * and bad input. Payments are seeded with recordFailedPayment, as ingest will record them.
 */
import { ListPaymentsResponse } from '#api/payments/schemas';
import type { PaymentRecord } from '#core/payments';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { seedPayment, seedPaymentThrough } from '#test/fixtures/payments';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

interface ListBody {
  data: Array<{ id: string; amount: number; amount_cents: number; provider_payment_id: string | null; external_id: string | null }>;
  pagination: { total: number; page: number; per_page: number; total_pages: number };
  error?: { code: string; param?: string; message: string };
}

describe('GET /api/v1/payments', () => {
  let stack: LocalStack;
  let tenant: Tenant;
  /**
   * Payments a day apart from 2026-10-01 (p[0]) to 2026-10-06 (p[5]), one per status: p[0] and
   * p[2] are soft declines, retrying from their recording on (p[2] rescheduled), p[1] a hard decline
   * pending a card update, p[3] paused, p[4] recovered, p[5] terminal.
   */
  let p: PaymentRecord[];

  const list = (query: string, key = tenant.key) => call<ListBody>(`${stack.api_url}/payments${query}`, { key });
  const ids = (...indexes: number[]) => indexes.map((index) => p[index]?.id);

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], UNLIMITED);
    const m = tenant.merchant.id;
    const day = (n: number) => new Date(`2026-10-0${n}T00:00:00.000Z`);
    p = [
      await seedPayment(m, {}, day(1)),
      await seedPayment(m, { psp: 'adyen', declineCode: 'expired_card', declineCategory: 'hard_customer', declineSubcategory: 'expired' }, day(2)),
      await seedPaymentThrough(m, ['retry'], {}, day(3)),
      await seedPaymentThrough(m, ['pause'], { psp: 'paypal', declineCategory: 'unknown', declineSubcategory: 'unknown' }, day(4)),
      await seedPaymentThrough(m, ['recover'], {}, day(5)),
      await seedPayment(
        m,
        { psp: 'checkout', declineCode: 'stolen_card', declineCategory: 'terminal', declineSubcategory: 'fraud', retryAllowed: false },
        day(6),
      ),
    ];
    await stack.runtime.stream.drain();
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  it('lists every payment newest first, in the documented shape with B aliases', async () => {
    // Act
    const response = await list('');
    // Assess
    expect(response.status).toBe(200);
    expect(ListPaymentsResponse.safeParse(response.body).success).toBe(true);
    expect(response.body.data.map((payment) => payment.id)).toEqual(ids(5, 4, 3, 2, 1, 0));
    expect(response.body.pagination).toEqual({ total: 6, page: 1, per_page: 25, total_pages: 1 });
    for (const payment of response.body.data) {
      expect(payment.amount_cents).toBe(payment.amount);
      expect(payment.external_id).toBe(payment.provider_payment_id);
    }
  });

  it.each([
    ['pending', [1]],
    ['retrying', [2, 0]],
    ['paused', [3]],
    ['recovered', [4]],
    ['terminal', [5]],
    ['failed', [3, 2, 1, 0]],
    ['active', [2, 1, 0]],
  ])('filters status=%s (B aliases expanded to A statuses)', async (status, expected) => {
    // Act
    const response = await list(`?status=${status}`);
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data.map((payment) => payment.id)).toEqual(ids(...expected));
    expect(response.body.pagination.total).toBe(expected.length);
  });

  it.each([
    ['soft_retry', [4, 2, 0]],
    ['hard_customer', [1]],
    ['terminal', [5]],
    ['unknown', [3]],
  ])('filters decline_category=%s', async (category, expected) => {
    // Act
    const response = await list(`?decline_category=${category}`);
    // Assess
    expect(response.body.data.map((payment) => payment.id)).toEqual(ids(...expected));
    expect(response.body.pagination.total).toBe(expected.length);
  });

  it.each([
    ['stripe', [4, 2, 0]],
    ['adyen', [1]],
    ['paypal', [3]],
    ['checkout', [5]],
    ['gocardless', []],
  ])('filters psp=%s', async (psp, expected) => {
    // Act
    const response = await list(`?psp=${psp}`);
    // Assess
    expect(response.body.data.map((payment) => payment.id)).toEqual(ids(...expected));
    expect(response.body.pagination.total).toBe(expected.length);
  });

  it.each([
    ['status=failed&psp=stripe', [2, 0]],
    ['status=active&decline_category=hard_customer', [1]],
    ['decline_category=soft_retry&psp=stripe&status=recovered', [4]],
    ['status=failed&created_after=2026-10-02&created_before=2026-10-04', [2, 1]],
  ])('combines filters: %s', async (query, expected) => {
    // Act
    const response = await list(`?${query}`);
    // Assess
    expect(response.body.data.map((payment) => payment.id)).toEqual(ids(...expected));
    expect(response.body.pagination.total).toBe(expected.length);
  });

  it.each([
    ['a day: after is inclusive from 00:00Z', 'created_after=2026-10-02', [5, 4, 3, 2, 1]],
    ['a day: before is exclusive at 00:00Z', 'created_before=2026-10-04', [2, 1, 0]],
    ['days on both sides', 'created_after=2026-10-02&created_before=2026-10-04', [2, 1]],
    ['a timestamp: after is inclusive to the millisecond', 'created_after=2026-10-02T00:00:00.000Z', [5, 4, 3, 2, 1]],
    ['a timestamp one millisecond later', 'created_after=2026-10-02T00:00:00.001Z', [5, 4, 3, 2]],
    ['a timestamp with an offset', `created_before=${encodeURIComponent('2026-10-04T02:00:00+02:00')}`, [2, 1, 0]],
    ['a timestamp one millisecond past the boundary', 'created_before=2026-10-04T00:00:00.001Z', [3, 2, 1, 0]],
    ['a range before any payment', 'created_before=1990-01-01', []],
    ['a range after any payment', 'created_after=2999-06-01', []],
    ['a range from long ago', 'created_after=1970-01-01', [5, 4, 3, 2, 1, 0]],
  ])('filters the created range by %s', async (_name, query, expected) => {
    // Act
    const response = await list(`?${query}`);
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data.map((payment) => payment.id)).toEqual(ids(...expected));
    expect(response.body.pagination.total).toBe(expected.length);
  });

  it('pages with page and per_page', async () => {
    // Act
    const second = await list('?per_page=2&page=2');
    const last = await list('?per_page=4&page=2');
    const beyond = await list('?per_page=2&page=9');
    const widest = await list('?per_page=100');
    // Assess
    expect(second.body.data.map((payment) => payment.id)).toEqual(ids(3, 2));
    expect(second.body.pagination).toEqual({ total: 6, page: 2, per_page: 2, total_pages: 3 });
    expect(last.body.data.map((payment) => payment.id)).toEqual(ids(1, 0));
    expect(beyond.status).toBe(200);
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.pagination).toEqual({ total: 6, page: 9, per_page: 2, total_pages: 3 });
    expect(widest.body.pagination.per_page).toBe(100);
  });

  it('pages a filtered list merged from several status indexes', async () => {
    // Act
    const first = await list('?status=failed&per_page=3');
    const second = await list('?status=failed&per_page=3&page=2');
    // Assess
    expect(first.body.data.map((payment) => payment.id)).toEqual(ids(3, 2, 1));
    expect(second.body.data.map((payment) => payment.id)).toEqual(ids(0));
    expect(second.body.pagination).toEqual({ total: 4, page: 2, per_page: 3, total_pages: 2 });
  });

  it.each([
    ['status=bogus', 400, 'invalid_request', 'status'],
    ['status=FAILED', 400, 'invalid_request', 'status'],
    ['decline_category=SoftRetry', 400, 'invalid_request', 'decline_category'],
    ['psp=visa', 400, 'invalid_request', 'psp'],
    ['per_page=0', 422, 'validation_error', 'per_page'],
    ['per_page=101', 422, 'validation_error', 'per_page'],
    ['per_page=ten', 422, 'validation_error', 'per_page'],
    ['page=0', 422, 'validation_error', 'page'],
    ['page=1.5', 422, 'validation_error', 'page'],
    ['created_after=notadate', 422, 'validation_error', 'created_after'],
    ['created_after=2026-02-30', 422, 'validation_error', 'created_after'],
    ['created_after=2026-10-01T10:00:00', 422, 'validation_error', 'created_after'],
    ['created_before=', 422, 'validation_error', 'created_before'],
    ['created_after=2026-10-04&created_before=2026-10-02', 422, 'validation_error', 'created_before'],
    ['created_after=2026-10-04&created_before=2026-10-04T00:00:00Z', 422, 'validation_error', 'created_before'],
  ])('refuses %s with %i %s naming the parameter', async (query, status, code, param) => {
    // Act
    const response = await list(`?${query}`);
    // Assess
    expect(response.status).toBe(status);
    expect(response.body.error).toMatchObject({ code, param });
  });

  it('refuses a query parameter it does not know with 400 naming it, rather than listing everything', async () => {
    // Act
    const response = await list('?stauts=paused');
    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: { code: 'invalid_request', param: 'stauts' } });
    expect(response.body).not.toHaveProperty('data');
  });

  it('filters psp=ingest, the psp of payments ingested from a platform that is none of the 13 providers', async () => {
    // Prepare: a merchant of its own, with one payment ingested without a psp and one from stripe.
    const ingesting = await newTenant(['admin'], UNLIMITED);
    const ingest = (metadata: Record<string, string>) =>
      call<{ data: { payment_event_id: string } }>(`${stack.api_url}/ingest/payment-event`, {
        method: 'POST',
        key: ingesting.key,
        body: {
          event_type: 'payment_failed',
          amount_cents: 1999,
          currency: 'eur',
          customer_email: 'ingested@example.com',
          decline_code: 'insufficient_funds',
          metadata,
        },
      });
    const generic = await ingest({ payment_id: 'txn_generic_1' });
    await ingest({ payment_id: 'pi_from_stripe_1', psp: 'stripe' });
    await stack.runtime.stream.drain();
    // Act
    const all = await call<ListBody>(`${stack.api_url}/payments?psp=ingest`, { key: ingesting.key });
    const failed = await call<ListBody>(`${stack.api_url}/payments?psp=ingest&status=failed`, { key: ingesting.key });
    // Assess
    expect(all.status).toBe(200);
    expect(all.body.data.map((payment) => payment.id)).toEqual([generic.body.data.payment_event_id]);
    expect(all.body.pagination.total).toBe(1);
    expect(failed.body.data.map((payment) => payment.id)).toEqual([generic.body.data.payment_event_id]);
  });

  it("never lists another merchant's payments", async () => {
    // Prepare
    const stranger = await newTenant(['read:payments']);
    // Act
    const response = await list('?status=failed', stranger.key);
    // Assess
    expect(response.body.data).toEqual([]);
    expect(response.body.pagination.total).toBe(0);
  });
});
