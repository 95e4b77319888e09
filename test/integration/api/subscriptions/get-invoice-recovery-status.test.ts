import { getInvoiceRecoveryStatusSchemas } from '#api/subscriptions/schemas';
import type { PaymentRecord } from '#core/payments';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { seedPaymentThrough } from '#test/fixtures/payments';
import { keyWithScopes } from '#test/fixtures/recoveries';
import { expectOtherMerchantGets404, newTenant, type Tenant } from '#test/fixtures/tenants';

interface InvoiceBody {
  data: Record<string, unknown>;
  meta: { merchant_id: string };
  error?: { code: string; param?: string };
}

describe('GET /api/v1/invoices/{id}', () => {
  let stack: LocalStack;
  let tenant: Tenant;
  let retrying: PaymentRecord;
  let recovered: PaymentRecord;
  const url = (id: string): string => `${stack.api_url}/invoices/${encodeURIComponent(id)}`;

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], { read_per_minute: 100000, write_per_minute: 100000 });
    retrying = await seedPaymentThrough(tenant.merchant.id, ['retry'], {
      subscriptionId: 'sub_1',
      invoiceId: 'in_retrying',
      amount: 12900,
      psp: 'adyen',
      declineCode: '51',
      declineSubcategory: 'balance',
    });
    recovered = await seedPaymentThrough(tenant.merchant.id, ['retry', 'recover'], { invoiceId: 'in_recovered' });
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  it('returns the invoice recovery status with A fields and B aliases when the invoice has a failed payment', async () => {
    // Act
    const response = await call<InvoiceBody>(url('in_retrying'), { key: tenant.key });
    // Assess
    expect(response.status).toBe(200);
    expect(() => getInvoiceRecoveryStatusSchemas.responses[200].parse(response.body)).not.toThrow();
    expect(response.body.data).toEqual({
      invoice_id: 'in_retrying',
      payment_event_id: retrying.id,
      payment_id: retrying.id,
      recovery_id: retrying.recovery_id,
      subscription_id: 'sub_1',
      amount: 12900,
      amount_cents: 12900,
      currency: 'usd',
      status: 'retrying',
      decline_code: '51',
      decline_category: 'soft_retry',
      decline_subcategory: 'balance',
      psp: 'adyen',
      retry_count: 0,
      max_retries: 8,
      next_retry_at: retrying.next_retry_at,
      recovered_at: null,
      created_at: retrying.created_at,
      updated_at: retrying.updated_at,
    });
    expect(retrying.next_retry_at).not.toBeNull();
    expect(response.body.meta.merchant_id).toBe(tenant.merchant.id);
  });

  it('returns recovered_at when the invoice was recovered', async () => {
    // Act
    const response = await call<InvoiceBody>(url('in_recovered'), { key: tenant.key });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ status: 'recovered', recovered_at: recovered.recovered_at, next_retry_at: null, subscription_id: null });
  });

  it('answers 404 when the merchant has no failed payment for the invoice', async () => {
    // Act
    const response = await call<InvoiceBody>(url('in_unknown'), { key: tenant.key });
    // Assess
    expect(response.status).toBe(404);
    expect(response.body.error?.code).toBe('resource_not_found');
  });

  it("answers 404 when another merchant asks for this merchant's invoice", async () => {
    // Act and assess
    await expectOtherMerchantGets404(url('in_retrying'));
  });

  it('answers an id longer than 255 characters with 404 resource_not_found naming id, as no such id can exist', async () => {
    // Act
    const response = await call<InvoiceBody>(url(`in_${'9'.repeat(300)}`), { key: tenant.key });
    // Assess
    expect(response.status).toBe(404);
    expect(response.body.error).toMatchObject({ code: 'resource_not_found', param: 'id' });
  });

  it('refuses a key without read with 403', async () => {
    // Prepare
    const key = await keyWithScopes(tenant.merchant.id, ['write:campaigns']);
    // Act
    const response = await call<InvoiceBody>(url('in_retrying'), { key });
    // Assess
    expect(response.status).toBe(403);
    expect(response.body.error?.code).toBe('insufficient_scope');
  });
});
