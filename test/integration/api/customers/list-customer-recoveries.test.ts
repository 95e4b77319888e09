/**
 * GET /api/v1/customers/{id}/recoveries over HTTP: the customer's recoveries (A fields, B
 * aliases), each status filter (A's and B's `active`), paging, scopes, tenant isolation and bad
 * input.
 */
import { listCustomerRecoveriesSchemas } from '#api/customers/schemas';
import type { PaymentRecord } from '#core/payments';
import type { LocalStack } from '#lib/local/local-stack';
import { seedCustomerInEveryStatus, UNLIMITED } from '#test/fixtures/customers';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { expectOtherMerchantGets404, newTenant, type Tenant } from '#test/fixtures/tenants';

interface ListBody {
  data: Array<{
    id: string;
    payment_event_id: string;
    payment_id: string;
    status: string;
    amount: number;
    amount_cents: number;
    customer_id: string;
    recovered_at: string | null;
  }>;
  pagination: { total: number; page: number; per_page: number; total_pages: number };
  error?: { code: string; param?: string };
}

describe('GET /api/v1/customers/{id}/recoveries', () => {
  let stack: LocalStack;
  let tenant: Tenant;
  /** p[0] pending … p[4] terminal, a day apart; all of one customer. */
  let p: PaymentRecord[];
  let customerId: string;

  const list = (query: string, id = customerId, key = tenant.key) =>
    call<ListBody>(`${stack.api_url}/customers/${encodeURIComponent(id)}/recoveries${query}`, { key });
  const recoveryIds = (...indexes: number[]) => indexes.map((index) => p[index]?.recovery_id);

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], UNLIMITED);
    const m = tenant.merchant.id;
    p = await seedCustomerInEveryStatus(m, { email: 'rita@example.com', provider_customer_id: 'cus_RITA' }, 888);
    customerId = p[0]?.customer_id as string;
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  it("lists the customer's recoveries newest first, with A fields and B aliases", async () => {
    // Act
    const response = await list('');
    // Assess
    expect(response.status).toBe(200);
    expect(listCustomerRecoveriesSchemas.responses[200].safeParse(response.body).success).toBe(true);
    expect(response.body.data.map((recovery) => recovery.id)).toEqual(recoveryIds(4, 3, 2, 1, 0));
    expect(response.body.pagination).toEqual({ total: 5, page: 1, per_page: 25, total_pages: 1 });
    for (const [index, recovery] of response.body.data.entries()) {
      const payment = p[4 - index] as PaymentRecord;
      expect(recovery).toMatchObject({ payment_event_id: payment.id, payment_id: payment.id, customer_id: customerId });
      expect(recovery.amount_cents).toBe(recovery.amount);
    }
    expect(response.body.data[1]).toMatchObject({ status: 'recovered', amount: 888, recovered_at: expect.any(String) });
  });

  it.each([
    ['pending', [0]],
    ['retrying', [1]],
    ['paused', [2]],
    ['recovered', [3]],
    ['terminal', [4]],
    ['active', [1, 0]],
  ])('filters status=%s', async (status, expected) => {
    // Act
    const response = await list(`?status=${status}`);
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data.map((recovery) => recovery.id)).toEqual(recoveryIds(...expected));
    expect(response.body.pagination.total).toBe(expected.length);
  });

  it('pages with page and per_page', async () => {
    // Act
    const second = await list('?per_page=3&page=2');
    // Assess
    expect(second.body.data.map((recovery) => recovery.id)).toEqual(recoveryIds(1, 0));
    expect(second.body.pagination).toEqual({ total: 5, page: 2, per_page: 3, total_pages: 2 });
  });

  it('lists the same recoveries when the customer is named by its provider customer id', async () => {
    // Act
    const response = await list('?status=active', 'cus_RITA');
    // Assess
    expect(response.body.data.map((recovery) => recovery.id)).toEqual(recoveryIds(1, 0));
  });

  it('answers 404 for an unknown customer, and to another merchant', async () => {
    // Act
    const unknown = await list('', 'cus_nobody');
    // Assess
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.code).toBe('resource_not_found');
    await expectOtherMerchantGets404(`${stack.api_url}/customers/${customerId}/recoveries`);
  });

  it.each([
    ['status=failed', 400, 'invalid_request', 'status'],
    ['status=bogus', 400, 'invalid_request', 'status'],
    ['per_page=0', 422, 'validation_error', 'per_page'],
    ['page=x', 422, 'validation_error', 'page'],
  ])('refuses %s with %i %s naming the parameter', async (query, status, code, param) => {
    // Act
    const response = await list(`?${query}`);
    // Assess
    expect(response.status).toBe(status);
    expect(response.body.error).toMatchObject({ code, param });
  });
});
