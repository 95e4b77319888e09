import { getSubscriptionRecoveryStatusSchemas } from '#api/subscriptions/schemas';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { seedPaymentThrough } from '#test/fixtures/payments';
import { keyWithScopes } from '#test/fixtures/recoveries';
import { newTenant, type Tenant } from '#test/fixtures/tenants';

interface StatusBody {
  data: Record<string, unknown>;
  meta: { merchant_id: string };
  error?: { code: string; param?: string };
}

const ZEROS = {
  failed_invoice_count: 0,
  total_at_risk: 0,
  recovered_amount: 0,
  total_at_risk_by_currency: {},
  recovered_amount_by_currency: {},
  recovery_rate: 0,
  open_invoice_count: 0,
  recovered_invoice_count: 0,
  terminal_invoice_count: 0,
  currency: null,
};

describe('GET /api/v1/subscriptions/{id}', () => {
  let stack: LocalStack;
  let tenant: Tenant;
  const url = (id: string): string => `${stack.api_url}/subscriptions/${encodeURIComponent(id)}`;

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], { read_per_minute: 100000, write_per_minute: 100000 });
    const m = tenant.merchant.id;
    // sub_risk: one retrying (a soft decline, retry 1 planned at recording), one paused (both open), one recovered.
    await seedPaymentThrough(m, [], { subscriptionId: 'sub_risk', invoiceId: 'in_r1', amount: 1000 });
    await seedPaymentThrough(m, ['pause'], { subscriptionId: 'sub_risk', invoiceId: 'in_r2', amount: 2000 });
    await seedPaymentThrough(m, ['retry', 'recover'], { subscriptionId: 'sub_risk', invoiceId: 'in_r3', amount: 500 });
    // sub_saved: every failure recovered.
    await seedPaymentThrough(m, ['retry', 'recover'], { subscriptionId: 'sub_saved', invoiceId: 'in_s1', amount: 700, currency: 'eur' });
    await seedPaymentThrough(m, ['recover'], { subscriptionId: 'sub_saved', invoiceId: 'in_s2', amount: 300, currency: 'eur' });
    // sub_lost: one terminal, one recovered, nothing open.
    await seedPaymentThrough(m, ['terminate'], { subscriptionId: 'sub_lost', invoiceId: 'in_l1', amount: 900 });
    await seedPaymentThrough(m, ['recover'], { subscriptionId: 'sub_lost', invoiceId: 'in_l2', amount: 100 });
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  it('answers at_risk with open amounts, recovered amounts and rate when failed invoices are still open', async () => {
    // Act
    const response = await call<StatusBody>(url('sub_risk'), { key: tenant.key });
    // Assess
    expect(response.status).toBe(200);
    expect(() => getSubscriptionRecoveryStatusSchemas.responses[200].parse(response.body)).not.toThrow();
    expect(response.body.data).toEqual({
      subscription_id: 'sub_risk',
      status: 'at_risk',
      failed_invoice_count: 3,
      total_at_risk: 3000,
      recovered_amount: 500,
      total_at_risk_by_currency: { usd: 3000 },
      recovered_amount_by_currency: { usd: 500 },
      recovery_rate: 1 / 3,
      open_invoice_count: 2,
      recovered_invoice_count: 1,
      terminal_invoice_count: 0,
      currency: 'usd',
    });
    expect(response.body.meta.merchant_id).toBe(tenant.merchant.id);
  });

  it('answers recovered with rate 1 when every failed invoice was recovered', async () => {
    // Act
    const response = await call<StatusBody>(url('sub_saved'), { key: tenant.key });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      status: 'recovered',
      failed_invoice_count: 2,
      total_at_risk: 0,
      recovered_amount: 1000,
      recovery_rate: 1,
      currency: 'eur',
    });
  });

  it('answers at_risk with nothing at risk when nothing is open but a failed invoice ended terminal', async () => {
    // Act
    const response = await call<StatusBody>(url('sub_lost'), { key: tenant.key });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      status: 'at_risk',
      failed_invoice_count: 2,
      total_at_risk: 0,
      recovered_amount: 100,
      recovery_rate: 0.5,
      open_invoice_count: 0,
      terminal_invoice_count: 1,
    });
  });

  it('answers 200 unknown with zeros when the subscription has no failure data', async () => {
    // Act
    const response = await call<StatusBody>(url('sub_never_failed'), { key: tenant.key });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ subscription_id: 'sub_never_failed', status: 'unknown', ...ZEROS });
  });

  it("answers another merchant exactly as for a subscription without data, revealing nothing of this merchant's", async () => {
    // Prepare
    const stranger = await newTenant(['read']);
    // Act
    const response = await call<StatusBody>(url('sub_risk'), { key: stranger.key });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ subscription_id: 'sub_risk', status: 'unknown', ...ZEROS });
  });

  it('answers an id longer than 255 characters with 404 resource_not_found naming id, as no such id can exist', async () => {
    // Act
    const response = await call<StatusBody>(url(`sub_${'x'.repeat(300)}`), { key: tenant.key });
    // Assess
    expect(response.status).toBe(404);
    expect(response.body.error).toMatchObject({ code: 'resource_not_found', param: 'id' });
  });

  it('refuses a key without read with 403', async () => {
    // Prepare
    const key = await keyWithScopes(tenant.merchant.id, ['email']);
    // Act
    const response = await call<StatusBody>(url('sub_risk'), { key });
    // Assess
    expect(response.status).toBe(403);
    expect(response.body.error?.code).toBe('insufficient_scope');
  });
});
