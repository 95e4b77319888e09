import { listFailedInvoicesSchemas } from '#api/subscriptions/schemas';
import type { PaymentRecord } from '#core/payments';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { seedPaymentThrough } from '#test/fixtures/payments';
import { keyWithScopes } from '#test/fixtures/recoveries';
import { newTenant, type Tenant } from '#test/fixtures/tenants';

interface ListBody {
  data: Array<Record<string, unknown> & { invoice_id: string }>;
  pagination: { total: number; page: number; per_page: number; total_pages: number };
  error?: { code: string; param?: string };
}

describe('GET /api/v1/subscriptions/{id}/failed-invoices', () => {
  let stack: LocalStack;
  let tenant: Tenant;
  let invoices: PaymentRecord[];
  const url = (id: string, query = ''): string => `${stack.api_url}/subscriptions/${id}/failed-invoices${query}`;

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], { read_per_minute: 100000, write_per_minute: 100000 });
    const m = tenant.merchant.id;
    invoices = [];
    invoices.push(await seedPaymentThrough(m, [], { subscriptionId: 'sub_a', invoiceId: 'in_1', amount: 1000 }));
    invoices.push(
      await seedPaymentThrough(m, ['card_updated', 'retry'], {
        subscriptionId: 'sub_a',
        invoiceId: 'in_2',
        amount: 2000,
        declineCode: 'expired_card',
        declineCategory: 'hard_customer',
        declineSubcategory: 'expired',
      }),
    );
    // A failed charge of the subscription without an invoice id, and another subscription's invoice: neither is listed.
    await seedPaymentThrough(m, [], { subscriptionId: 'sub_a', invoiceId: null, amount: 3000 });
    await seedPaymentThrough(m, [], { subscriptionId: 'sub_b', invoiceId: 'in_b1' });
    invoices.push(await seedPaymentThrough(m, ['retry', 'recover'], { subscriptionId: 'sub_a', invoiceId: 'in_3', amount: 4000, currency: 'gbp' }));
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  it("lists the subscription's failed invoices newest first with their payment when called", async () => {
    // Act
    const response = await call<ListBody>(url('sub_a'), { key: tenant.key });
    // Assess
    expect(response.status).toBe(200);
    expect(() => listFailedInvoicesSchemas.responses[200].parse(response.body)).not.toThrow();
    expect(response.body.data.map((item) => item.invoice_id)).toEqual(['in_3', 'in_2', 'in_1']);
    const second = invoices[1] as PaymentRecord;
    expect(response.body.data[1]).toEqual({
      invoice_id: 'in_2',
      payment_event_id: second.id,
      payment_id: second.id,
      recovery_id: second.recovery_id,
      amount: 2000,
      amount_cents: 2000,
      currency: 'usd',
      decline_code: 'expired_card',
      decline_category: 'hard_customer',
      status: 'retrying',
      created_at: second.created_at,
    });
    expect(response.body.data[0]).toMatchObject({ status: 'recovered', currency: 'gbp' });
    expect(response.body.pagination).toEqual({ total: 3, page: 1, per_page: 25, total_pages: 1 });
  });

  it('pages with page and per_page when both are given', async () => {
    // Act
    const first = await call<ListBody>(url('sub_a', '?per_page=2'), { key: tenant.key });
    const second = await call<ListBody>(url('sub_a', '?per_page=2&page=2'), { key: tenant.key });
    // Assess
    expect(first.body.data.map((item) => item.invoice_id)).toEqual(['in_3', 'in_2']);
    expect(first.body.pagination).toEqual({ total: 3, page: 1, per_page: 2, total_pages: 2 });
    expect(second.body.data.map((item) => item.invoice_id)).toEqual(['in_1']);
  });

  it('answers an empty list when the subscription has no failure data', async () => {
    // Act
    const response = await call<ListBody>(url('sub_none'), { key: tenant.key });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ data: [], pagination: { total: 0, total_pages: 0 } });
  });

  it('answers another merchant an empty list, as for a subscription without data', async () => {
    // Prepare
    const stranger = await newTenant(['read']);
    // Act
    const response = await call<ListBody>(url('sub_a'), { key: stranger.key });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ data: [], pagination: { total: 0 } });
  });

  it.each([
    ['?per_page=0', 'per_page'],
    ['?per_page=101', 'per_page'],
    ['?page=-1', 'page'],
    ['?page=one', 'page'],
  ])('refuses %s with 422 naming the parameter', async (query, param) => {
    // Act
    const response = await call<ListBody>(url('sub_a', query), { key: tenant.key });
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: 'validation_error', param });
  });

  it('refuses a key without read with 403', async () => {
    // Prepare
    const key = await keyWithScopes(tenant.merchant.id, ['analytics']);
    // Act
    const response = await call<ListBody>(url('sub_a'), { key });
    // Assess
    expect(response.status).toBe(403);
    expect(response.body.error?.code).toBe('insufficient_scope');
  });
});
