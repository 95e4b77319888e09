/**
 * GET /api/v1/customers/{id}/payments over HTTP: the customer's payments only, newest first, each
 * status filter (A's and B's aliases), paging, lookup by provider customer id, scopes, tenant
 * isolation and bad input.
 */
import { listCustomerPaymentsSchemas } from '#api/customers/schemas';
import type { PaymentRecord } from '#core/payments';
import type { LocalStack } from '#lib/local/local-stack';
import { seedCustomerInEveryStatus, UNLIMITED } from '#test/fixtures/customers';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { expectOtherMerchantGets404, newTenant, type Tenant } from '#test/fixtures/tenants';

interface ListBody {
  data: Array<{
    id: string;
    status: string;
    amount: number;
    amount_cents: number;
    provider_payment_id: string | null;
    external_id: string | null;
    customer_id: string;
  }>;
  pagination: { total: number; page: number; per_page: number; total_pages: number };
  error?: { code: string; param?: string };
}

describe('GET /api/v1/customers/{id}/payments', () => {
  let stack: LocalStack;
  let tenant: Tenant;
  /** p[0] pending … p[4] terminal, a day apart; all of one customer. */
  let p: PaymentRecord[];
  let customerId: string;

  const list = (query: string, id = customerId, key = tenant.key) =>
    call<ListBody>(`${stack.api_url}/customers/${encodeURIComponent(id)}/payments${query}`, { key });
  const ids = (...indexes: number[]) => indexes.map((index) => p[index]?.id);

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], UNLIMITED);
    const m = tenant.merchant.id;
    p = await seedCustomerInEveryStatus(m, { email: 'pat@example.com', provider_customer_id: 'cus_PAT' }, 777);
    customerId = p[0]?.customer_id as string;
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  it("lists the customer's payments newest first, with A fields and B aliases", async () => {
    // Act
    const response = await list('');
    // Assess
    expect(response.status).toBe(200);
    expect(listCustomerPaymentsSchemas.responses[200].safeParse(response.body).success).toBe(true);
    expect(response.body.data.map((payment) => payment.id)).toEqual(ids(4, 3, 2, 1, 0));
    expect(response.body.pagination).toEqual({ total: 5, page: 1, per_page: 25, total_pages: 1 });
    for (const payment of response.body.data) {
      expect(payment.customer_id).toBe(customerId);
      expect(payment.amount_cents).toBe(payment.amount);
      expect(payment.external_id).toBe(payment.provider_payment_id);
    }
    expect(response.body.data[1]).toMatchObject({ id: p[3]?.id, status: 'recovered', amount: 777 });
  });

  it('lists the same payments when the customer is named by its provider customer id', async () => {
    // Act
    const response = await list('', 'cus_PAT');
    // Assess
    expect(response.body.data.map((payment) => payment.id)).toEqual(ids(4, 3, 2, 1, 0));
  });

  it.each([
    ['pending', [0]],
    ['retrying', [1]],
    ['paused', [2]],
    ['recovered', [3]],
    ['terminal', [4]],
    ['failed', [2, 1, 0]],
    ['active', [1, 0]],
  ])('filters status=%s (B aliases expanded to A statuses)', async (status, expected) => {
    // Act
    const response = await list(`?status=${status}`);
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data.map((payment) => payment.id)).toEqual(ids(...expected));
    expect(response.body.pagination.total).toBe(expected.length);
  });

  it('pages with page and per_page, with and without a filter', async () => {
    // Act
    const second = await list('?per_page=2&page=2');
    const beyond = await list('?per_page=2&page=4');
    const failedSecond = await list('?status=failed&per_page=2&page=2');
    // Assess
    expect(second.body.data.map((payment) => payment.id)).toEqual(ids(2, 1));
    expect(second.body.pagination).toEqual({ total: 5, page: 2, per_page: 2, total_pages: 3 });
    expect(beyond.body.data).toEqual([]);
    expect(failedSecond.body.data.map((payment) => payment.id)).toEqual(ids(0));
    expect(failedSecond.body.pagination).toEqual({ total: 3, page: 2, per_page: 2, total_pages: 2 });
  });

  it('answers 404 for an unknown customer, and to another merchant', async () => {
    // Act
    const unknown = await list('', 'cust_01JZZZZZZZZZZZZZZZZZZZZZZZ');
    // Assess
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.code).toBe('resource_not_found');
    await expectOtherMerchantGets404(`${stack.api_url}/customers/${customerId}/payments`);
  });

  it.each([
    ['status=lost', 400, 'invalid_request', 'status'],
    ['status=PENDING', 400, 'invalid_request', 'status'],
    ['per_page=101', 422, 'validation_error', 'per_page'],
    ['page=0', 422, 'validation_error', 'page'],
  ])('refuses %s with %i %s naming the parameter', async (query, status, code, param) => {
    // Act
    const response = await list(`?${query}`);
    // Assess
    expect(response.status).toBe(status);
    expect(response.body.error).toMatchObject({ code, param });
  });

  it('answers an id over 255 characters with 404 resource_not_found naming id, as no such id can exist', async () => {
    // Act
    const response = await list('', 'x'.repeat(256));
    // Assess
    expect(response.status).toBe(404);
    expect(response.body.error).toMatchObject({ code: 'resource_not_found', param: 'id' });
  });
});
