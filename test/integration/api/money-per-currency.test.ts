/**
 * Money totals over several payments are per currency (DESIGN §2c), over HTTP: a customer with
 * 2 × 2900 usd and 1 × 3000 jpy (the jpy one most recent) has its scalar totals in jpy (its
 * `currency`) and every currency's total in the `_by_currency` maps, never 8800; the same for a
 * subscription's total_at_risk and recovered_amount. Read through GET /customers/{id},
 * /customers/by-email/{email}, /customers (list) and /subscriptions/{id}.
 */
import { getCustomerByEmailSchemas, getCustomerSchemas, listCustomersSchemas } from '#api/customers/schemas';
import { getSubscriptionRecoveryStatusSchemas } from '#api/subscriptions/schemas';
import type { PaymentRecord } from '#core/payments';
import type { LocalStack } from '#lib/local/local-stack';
import { moveThrough, seedCustomerPayment, UNLIMITED } from '#test/fixtures/customers';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { newTenant, type Tenant } from '#test/fixtures/tenants';

type Data = Record<string, unknown>;

describe('money totals per currency', () => {
  let stack: LocalStack;
  let tenant: Tenant;
  /** Ann: 2 × 2900 usd, then 3000 jpy, all three recovered (subscription sub_ann). */
  let ann: PaymentRecord[];
  /** Ben: 2 × 2900 usd, then 3000 jpy, all three open (subscription sub_ben). */
  let ben: PaymentRecord[];

  const get = <T = Data>(path: string) => call<{ data: T }>(`${stack.api_url}${path}`, { key: tenant.key });
  const at = (day: number) => new Date(`2026-10-0${day}T09:00:00.000Z`);

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], UNLIMITED);
    const m = tenant.merchant.id;
    const seedThree = async (email: string, subscriptionId: string) => [
      await seedCustomerPayment(m, { email, name: email.split('@')[0] as string }, { amount: 2900, currency: 'usd', subscriptionId }, at(1)),
      await seedCustomerPayment(m, { email }, { amount: 2900, currency: 'usd', subscriptionId }, at(2)),
      await seedCustomerPayment(m, { email }, { amount: 3000, currency: 'jpy', subscriptionId }, at(3)),
    ];
    ann = await seedThree('ann@example.com', 'sub_ann');
    for (const payment of ann) await moveThrough(m, payment, ['recover']);
    ben = await seedThree('ben@example.com', 'sub_ben');
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  it('GET /customers/{id} gives the lifetime value in the currency of the most recent payment, and per currency', async () => {
    // Act
    const response = await get(`/customers/${ann[0]?.customer_id}`);
    // Assess
    expect(response.status).toBe(200);
    expect(getCustomerSchemas.responses[200].safeParse(response.body).success).toBe(true);
    expect(response.body.data).toMatchObject({
      currency: 'jpy',
      lifetime_value_cents: 3000,
      total_revenue_cents: 3000,
      lifetime_value_by_currency: { usd: 5800, jpy: 3000 },
      total_revenue_by_currency: { usd: 5800, jpy: 3000 },
      recovered_payments: 3,
    });
  });

  it('GET /customers/by-email/{email} gives recovery_stats.total_recovered_cents in the customer currency, and per currency', async () => {
    // Act
    const response = await get<Data & { recovery_stats: Data }>('/customers/by-email/ann%40example.com');
    // Assess
    expect(response.status).toBe(200);
    expect(getCustomerByEmailSchemas.responses[200].safeParse(response.body).success).toBe(true);
    expect(response.body.data).toMatchObject({ currency: 'jpy', lifetime_value_cents: 3000, lifetime_value_by_currency: { usd: 5800, jpy: 3000 } });
    expect(response.body.data.recovery_stats).toEqual({
      total_failed: 3,
      total_recovered: 3,
      recovery_rate: 1,
      total_recovered_cents: 3000,
      total_recovered_by_currency: { usd: 5800, jpy: 3000 },
    });
  });

  it('GET /customers lists each customer with its own currency and per-currency totals; a customer with nothing recovered has empty maps', async () => {
    // Act
    const response = await get<Data[]>('/customers');
    // Assess
    expect(response.status).toBe(200);
    expect(listCustomersSchemas.responses[200].safeParse(response.body).success).toBe(true);
    const byId = new Map(response.body.data.map((customer) => [customer.id, customer]));
    expect(byId.get(ann[0]?.customer_id)).toMatchObject({ currency: 'jpy', lifetime_value_cents: 3000, lifetime_value_by_currency: { usd: 5800, jpy: 3000 } });
    expect(byId.get(ben[0]?.customer_id)).toMatchObject({
      currency: 'jpy',
      lifetime_value_cents: 0,
      lifetime_value_by_currency: {},
      total_revenue_by_currency: {},
    });
  });

  it('GET /subscriptions/{id} gives the amount at risk in the currency of the most recent failed invoice, and per currency', async () => {
    // Act
    const response = await get('/subscriptions/sub_ben');
    // Assess
    expect(response.status).toBe(200);
    expect(getSubscriptionRecoveryStatusSchemas.responses[200].safeParse(response.body).success).toBe(true);
    expect(response.body.data).toMatchObject({
      status: 'at_risk',
      currency: 'jpy',
      total_at_risk: 3000,
      total_at_risk_by_currency: { usd: 5800, jpy: 3000 },
      recovered_amount: 0,
      recovered_amount_by_currency: {},
    });
  });

  it('GET /subscriptions/{id} gives the recovered amount in the currency of the most recent failed invoice, and per currency', async () => {
    // Act
    const response = await get('/subscriptions/sub_ann');
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      status: 'recovered',
      currency: 'jpy',
      total_at_risk: 0,
      total_at_risk_by_currency: {},
      recovered_amount: 3000,
      recovered_amount_by_currency: { usd: 5800, jpy: 3000 },
    });
  });

  it('declares the currency and the per-currency totals in the OpenAPI document', async () => {
    // Act
    const doc = (await (await fetch(`${stack.api_url}/openapi.json`)).json()) as OpenApi;
    // Assess
    const schemas = doc.components.schemas;
    expect(Object.keys(schemas.Customer?.properties ?? {})).toEqual(
      expect.arrayContaining(['currency', 'lifetime_value_by_currency', 'total_revenue_by_currency']),
    );
    expect(Object.keys(schemas.CustomerRecoveryStats?.properties ?? {})).toContain('total_recovered_by_currency');
    expect(schemas.Customer?.required).toEqual(expect.arrayContaining(['currency', 'lifetime_value_by_currency', 'total_revenue_by_currency']));
    const subscription = doc.paths['/api/v1/subscriptions/{id}']?.get.responses['200']?.content['application/json']?.schema.properties.data;
    expect(Object.keys(subscription?.properties ?? {})).toEqual(
      expect.arrayContaining(['currency', 'total_at_risk_by_currency', 'recovered_amount_by_currency']),
    );
  });
});

interface JsonSchema {
  properties?: Record<string, JsonSchema>;
  required?: string[];
}
interface OpenApi {
  components: { schemas: Record<string, JsonSchema> };
  paths: Record<string, { get: { responses: Record<string, { content: Record<string, { schema: JsonSchema & { properties: { data: JsonSchema } } }> }> } }>;
}
