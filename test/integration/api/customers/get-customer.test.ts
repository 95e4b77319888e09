/**
 * GET /api/v1/customers/{id} over HTTP: by our `cust_…` id and by the provider customer id (B),
 * scopes, tenant isolation and bad input.
 */
import { getCustomerSchemas } from '#api/customers/schemas';
import type { PaymentRecord } from '#core/payments';
import type { LocalStack } from '#lib/local/local-stack';
import { seedCustomerPayment, UNLIMITED } from '#test/fixtures/customers';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { expectOtherMerchantGets404, newTenant, type Tenant } from '#test/fixtures/tenants';

interface Body {
  data: Record<string, unknown>;
  meta: { merchant_id: string };
  error?: { code: string; param?: string };
}

describe('GET /api/v1/customers/{id}', () => {
  let stack: LocalStack;
  let tenant: Tenant;
  let payment: PaymentRecord;

  const get = (id: string, key = tenant.key) => call<Body>(`${stack.api_url}/customers/${encodeURIComponent(id)}`, { key });

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], UNLIMITED);
    payment = await seedCustomerPayment(
      tenant.merchant.id,
      { email: 'ann@example.com', name: 'Ann Lee', provider_customer_id: 'cus_Ann/42 x' },
      { psp: 'adyen', amount: 1234 },
      new Date('2026-09-01T08:00:00.000Z'),
    );
    await seedCustomerPayment(tenant.merchant.id, { email: 'other@example.com', provider_customer_id: 'cus_other' });
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  it('answers the customer by its id with A fields and the B alias', async () => {
    // Act
    const response = await get(payment.customer_id);
    // Assess
    expect(response.status).toBe(200);
    expect(getCustomerSchemas.responses[200].safeParse(response.body).success).toBe(true);
    expect(response.body.data).toEqual({
      id: payment.customer_id,
      provider_customer_id: 'cus_Ann/42 x',
      email: 'ann@example.com',
      name: 'Ann Lee',
      psp: 'adyen',
      total_payments: 1,
      failed_payments: 1,
      recovered_payments: 0,
      currency: 'usd',
      lifetime_value_cents: 0,
      total_revenue_cents: 0,
      lifetime_value_by_currency: {},
      total_revenue_by_currency: {},
      timezone: null,
      phone: null,
      card_expiry: null,
      created_at: '2026-09-01T08:00:00.000Z',
    });
    expect(response.body.meta.merchant_id).toBe(tenant.merchant.id);
  });

  it('answers the same customer by its provider customer id (URL-encoded, with a slash and a space)', async () => {
    // Act
    const response = await get('cus_Ann/42 x');
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data.id).toBe(payment.customer_id);
  });

  it.each([
    ['an unknown cust_ id', 'cust_01JZZZZZZZZZZZZZZZZZZZZZZZ'],
    ['a malformed cust_ id', 'cust_nope'],
    ['an unknown provider id', 'cus_nobody'],
    ['a provider id in another case', 'CUS_ANN/42 X'],
    ["a payment's id", 'pe_01JZZZZZZZZZZZZZZZZZZZZZZZ'],
  ])('answers 404 resource_not_found for %s', async (_name, id) => {
    // Act
    const response = await get(id);
    // Assess
    expect(response.status).toBe(404);
    expect(response.body.error?.code).toBe('resource_not_found');
  });

  it('answers 404 to another merchant for its id and its provider id', async () => {
    // Act and assess
    await expectOtherMerchantGets404(`${stack.api_url}/customers/${payment.customer_id}`);
    await expectOtherMerchantGets404(`${stack.api_url}/customers/${encodeURIComponent('cus_Ann/42 x')}`);
  });

  it('answers an id over 255 characters with 404 resource_not_found naming id, as no such id can exist', async () => {
    // Act
    const response = await get('x'.repeat(256));
    // Assess
    expect(response.status).toBe(404);
    expect(response.body.error).toMatchObject({ code: 'resource_not_found', param: 'id' });
  });
});
