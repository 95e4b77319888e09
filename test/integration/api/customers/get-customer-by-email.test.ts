/**
 * GET /api/v1/customers/by-email/{email} over HTTP (B): the customer and its recovery_stats, the
 * email URL-encoded ('+' and '@' included) and compared case-insensitively; scopes, tenant
 * isolation and bad input.
 */
import { getCustomerByEmailSchemas } from '#api/customers/schemas';
import type { LocalStack } from '#lib/local/local-stack';
import { moveThrough, seedCustomerPayment, UNLIMITED } from '#test/fixtures/customers';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { expectOtherMerchantGets404, newTenant, type Tenant } from '#test/fixtures/tenants';

interface Body {
  data: Record<string, unknown> & { recovery_stats: Record<string, number> };
  meta: { merchant_id: string; request_id: string };
  error?: { code: string; param?: string };
}

describe('GET /api/v1/customers/by-email/{email}', () => {
  let stack: LocalStack;
  let tenant: Tenant;
  let customerId: string;
  const EMAIL = 'jane.doe+billing@example.com';

  const byEmail = (encoded: string, key = tenant.key) => call<Body>(`${stack.api_url}/customers/by-email/${encoded}`, { key });

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], UNLIMITED);
    const m = tenant.merchant.id;
    const first = await seedCustomerPayment(m, { email: 'Jane.Doe+Billing@Example.com', name: 'Jane Doe', provider_customer_id: 'cus_JANE' }, { amount: 3000 });
    await moveThrough(m, first, ['retry', 'recover']);
    await seedCustomerPayment(m, { email: EMAIL }, { amount: 1000 });
    const third = await seedCustomerPayment(m, { email: EMAIL }, { amount: 500 });
    await moveThrough(m, third, ['terminate']);
    await seedCustomerPayment(m, { email: EMAIL }, { amount: 700 });
    customerId = first.customer_id;
    await seedCustomerPayment(m, { email: 'someone.else@example.com' });
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  it('finds the customer with its recovery_stats when the email is fully URL-encoded', async () => {
    // Act
    const response = await byEmail(encodeURIComponent(EMAIL));
    // Assess
    expect(response.status).toBe(200);
    expect(getCustomerByEmailSchemas.responses[200].safeParse(response.body).success).toBe(true);
    expect(response.body.data).toEqual({
      id: customerId,
      provider_customer_id: 'cus_JANE',
      email: EMAIL,
      name: 'Jane Doe',
      psp: 'stripe',
      total_payments: 4,
      failed_payments: 4,
      recovered_payments: 1,
      currency: 'usd',
      lifetime_value_cents: 3000,
      total_revenue_cents: 3000,
      lifetime_value_by_currency: { usd: 3000 },
      total_revenue_by_currency: { usd: 3000 },
      timezone: null,
      phone: null,
      card_expiry: null,
      created_at: expect.any(String),
      recovery_stats: { total_failed: 4, total_recovered: 1, recovery_rate: 0.25, total_recovered_cents: 3000, total_recovered_by_currency: { usd: 3000 } },
    });
    expect(response.body.meta.merchant_id).toBe(tenant.merchant.id);
  });

  it.each([
    ["'+' and '@' percent-encoded", 'jane.doe%2Bbilling%40example.com'],
    ["'@' encoded, '+' literal", 'jane.doe+billing%40example.com'],
    ["'+' encoded, '@' literal", 'jane.doe%2Bbilling@example.com'],
    ['another case', encodeURIComponent('JANE.DOE+Billing@EXAMPLE.COM')],
  ])('finds the same customer when the email is written with %s', async (_form, encoded) => {
    // Act
    const response = await byEmail(encoded);
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data.id).toBe(customerId);
  });

  it('answers 404 for an email no customer has, even one differing only by the plus part', async () => {
    // Act
    const unknown = await byEmail(encodeURIComponent('nobody@example.com'));
    const withoutTag = await byEmail(encodeURIComponent('jane.doe@example.com'));
    // Assess
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.code).toBe('resource_not_found');
    expect(withoutTag.status).toBe(404);
  });

  it("answers 404 to another merchant for this merchant's customer's email", async () => {
    // Act and assess
    await expectOtherMerchantGets404(`${stack.api_url}/customers/by-email/${encodeURIComponent(EMAIL)}`);
  });

  it.each([
    ['not an email', 'not-an-email'],
    ['two @', encodeURIComponent('a@b@c')],
    ['a space', encodeURIComponent('jane doe@example.com')],
    ['too long', encodeURIComponent(`${'a'.repeat(320)}@example.com`)],
  ])('answers %s with 404 resource_not_found naming email, as no customer can have it', async (_name, encoded) => {
    // Act
    const response = await byEmail(encoded);
    // Assess
    expect(response.status).toBe(404);
    expect(response.body.error).toMatchObject({ code: 'resource_not_found', param: 'email' });
  });

  it('refuses broken percent-encoding with 400 invalid_request naming email', async () => {
    // Act
    const response = await byEmail('jane%E0%A4%40example.com');
    // Assess
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'invalid_request', param: 'email' });
  });
});
