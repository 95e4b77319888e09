/**
 * GET /api/v1/payments/{id} and GET /api/v1/payments/{id}/timeline over HTTP: by `pe_`, `rec_`
 * and provider charge id, the record's A fields with B's aliases, the timeline in both forms,
 * 404 for absent and other merchants' payments, scopes and bad input.
 */
import { PaymentData, PaymentResponse, PaymentTimelineResponse } from '../../../../functions/api/payments/schemas';
import { attemptIdempotencyKey } from '../../../../functions/core/payment-gateway';
import type { PaymentRecord } from '../../../../functions/core/payments';
import { createApiKey } from '../../../../functions/data/api-key-repository';
import { getPayment } from '../../../../functions/data/payment-repository';
import type { LocalStack } from '../../../../lib/local/local-stack';
import { call } from '../../../fixtures/http';
import { startTestStack } from '../../../fixtures/local-stack';
import { seedPayment } from '../../../fixtures/payments';
import { expectOtherMerchantGets404, newTenant, type Tenant, UNLIMITED } from '../../../fixtures/tenants';


interface TimelineBody {
  data: { payment_id: string; events: Array<{ type: string; timestamp: string; detail: string; details: Record<string, unknown> }> };
}

describe('GET /api/v1/payments/{id} and its timeline', () => {
  let stack: LocalStack;
  let tenant: Tenant;
  let payment: PaymentRecord;

  const url = (id: string, suffix = '') => `${stack.api_url}/payments/${encodeURIComponent(id)}${suffix}`;

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], UNLIMITED);
    payment = await seedPayment(tenant.merchant.id, {
      providerPaymentId: 'ch_3Nx9Lq2eZvKYlo2C',
      subscriptionId: 'sub_42',
      invoiceId: 'in_42',
      metadata: { plan: 'pro' },
    });
  }, 30_000);

  afterAll(async () => {
    await stack.stop();
  });

  describe('GET /payments/{id}', () => {
    it('answers the payment with A fields and B aliases, every documented field and no other', async () => {
      // Act
      const response = await call<{ data: Record<string, unknown>; meta: Record<string, unknown> }>(url(payment.id), { key: tenant.key });
      // Assess
      expect(response.status).toBe(200);
      expect(PaymentResponse.safeParse(response.body).success).toBe(true);
      expect(Object.keys(response.body.data).sort()).toEqual(Object.keys(PaymentData.shape).sort());
      expect(response.body.data).toMatchObject({
        id: payment.id,
        recovery_id: payment.recovery_id,
        provider_payment_id: 'ch_3Nx9Lq2eZvKYlo2C',
        external_id: 'ch_3Nx9Lq2eZvKYlo2C',
        amount: 4999,
        amount_cents: 4999,
        currency: 'usd',
        status: 'retrying',
        next_retry_at: payment.next_retry_at,
        decline_code: 'insufficient_funds',
        decline_category: 'soft_retry',
        psp: 'stripe',
        customer_id: payment.customer_id,
        retry_count: 0,
        max_retries: 4,
        subscription_id: 'sub_42',
        invoice_id: 'in_42',
        metadata: { plan: 'pro' },
      });
      expect(response.body.meta).toMatchObject({ merchant_id: tenant.merchant.id, request_id: response.headers.get('x-request-id') });
    });

    it.each([
      ['its recovery id', () => payment.recovery_id],
      ['the provider charge id', () => 'ch_3Nx9Lq2eZvKYlo2C'],
    ])('finds the payment by %s', async (_name, id) => {
      // Act
      const response = await call<{ data: { id: string } }>(url(id()), { key: tenant.key });
      // Assess
      expect(response.status).toBe(200);
      expect(response.body.data.id).toBe(payment.id);
    });

    it.each([
      ['an unknown payment id', 'pe_01JAAAAAAAAAAAAAAAAAAAAAAA'],
      ['an unknown recovery id', 'rec_01JAAAAAAAAAAAAAAAAAAAAAAA'],
      ['an unknown provider charge id', 'ch_nobody'],
      ['an id of no known shape', 'pe_1'],
      ['a customer id', 'cust_01JAAAAAAAAAAAAAAAAAAAAAAA'],
    ])('answers %s with 404 resource_not_found', async (_name, id) => {
      // Act
      const response = await call<{ error: { code: string } }>(url(id), { key: tenant.key });
      // Assess
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('resource_not_found');
    });

    it("answers another merchant's payment with 404, by each of its ids", async () => {
      // Act and assess
      await expectOtherMerchantGets404(url(payment.id));
      await expectOtherMerchantGets404(url(payment.recovery_id));
      await expectOtherMerchantGets404(url('ch_3Nx9Lq2eZvKYlo2C'));
    });

    it('answers an id longer than 200 characters with 404 resource_not_found naming id, as no such id can exist', async () => {
      // Act
      const response = await call<{ error: { code: string; param: string } }>(url('x'.repeat(201)), { key: tenant.key });
      // Assess
      expect(response.status).toBe(404);
      expect(response.body.error).toMatchObject({ code: 'resource_not_found', param: 'id' });
    });

    it.each([
      [['read:payments'], 200],
      [['write:payments'], 403],
      [['read:customers'], 403],
    ] as const)('answers a key of the merchant with scopes %j with %i', async (scopes, status) => {
      // Prepare
      const { key } = await createApiKey({ merchantId: tenant.merchant.id, scopes: [...scopes], mode: 'test' });
      // Act
      const response = await call(url(payment.id), { key });
      // Assess
      expect(response.status).toBe(status);
    });
  });

  describe('GET /payments/{id}/timeline', () => {
    it('answers the events oldest first, with A detail text and B details, and B payment_id', async () => {
      // Prepare: recorded with retry 1 planned; retry 1 attempted now declines and retry 2 is planned; paused; resumed.
      const seeded = await seedPayment(tenant.merchant.id);
      for (const action of ['retry', 'pause', 'resume']) {
        expect((await call(url(seeded.id, `/${action}`), { key: tenant.key, method: 'POST' })).status).toBeLessThan(300);
      }
      const stored = (await getPayment(tenant.merchant.id, seeded.id)) as PaymentRecord;
      // Act
      const response = await call<TimelineBody>(url(seeded.id, '/timeline'), { key: tenant.key });
      // Assess
      expect(response.status).toBe(200);
      expect(PaymentTimelineResponse.safeParse(response.body).success).toBe(true);
      expect(response.body.data.payment_id).toBe(seeded.id);
      const events = response.body.data.events;
      expect(events.map((event) => event.type)).toEqual(['payment_failed', 'retry_scheduled', 'retry_attempted', 'retry_failed', 'retry_scheduled', 'status_change', 'status_change']);
      expect(events.map((event) => event.timestamp)).toEqual([...events.map((event) => event.timestamp)].sort());
      expect(events[0]).toMatchObject({ detail: expect.stringContaining('insufficient_funds'), details: { decline_code: 'insufficient_funds', amount: 4999, currency: 'usd' } });
      expect(events[1]).toMatchObject({ detail: expect.stringContaining('Retry 1 scheduled'), details: { retry_number: 1, scheduled_at: seeded.next_retry_at, reason: seeded.state_history[1]?.reason } });
      expect(events[2]).toMatchObject({ detail: expect.stringContaining('Attempting retry 1 through the sandbox gateway'), details: { retry_number: 1, gateway: 'sandbox', idempotency_key: attemptIdempotencyKey(seeded.id, 1), resend: false } });
      expect(events[3]).toMatchObject({ detail: expect.stringContaining('Retry 1 declined with insufficient_funds'), details: { retry_number: 1, decline_code: 'insufficient_funds', decline_category: 'soft_retry' } });
      expect(events[4]).toMatchObject({ detail: expect.stringContaining('Retry 2 scheduled'), details: { retry_number: 2, scheduled_at: stored.next_retry_at } });
      expect(events[5]?.details).toEqual({ from: 'retrying', to: 'paused', reason: 'Paused through the API' });
      expect(events[6]?.details).toEqual({ from: 'paused', to: 'retrying', reason: 'Resumed through the API' });
    });

    it('finds the timeline by recovery id and provider charge id', async () => {
      // Act
      const byRecovery = await call<TimelineBody>(url(payment.recovery_id, '/timeline'), { key: tenant.key });
      const byCharge = await call<TimelineBody>(url('ch_3Nx9Lq2eZvKYlo2C', '/timeline'), { key: tenant.key });
      // Assess
      expect(byRecovery.body.data.payment_id).toBe(payment.id);
      expect(byCharge.body.data).toEqual(byRecovery.body.data);
    });

    it("answers an unknown payment and another merchant's payment with 404", async () => {
      // Act
      const unknown = await call(url('pe_01JAAAAAAAAAAAAAAAAAAAAAAA', '/timeline'), { key: tenant.key });
      // Assess
      expect(unknown.status).toBe(404);
      await expectOtherMerchantGets404(url(payment.id, '/timeline'));
      await expectOtherMerchantGets404(url('ch_3Nx9Lq2eZvKYlo2C', '/timeline'));
    });

    it('answers a read:payments key and refuses a write:payments key', async () => {
      // Prepare
      const reader = await createApiKey({ merchantId: tenant.merchant.id, scopes: ['read:payments'], mode: 'test' });
      const writer = await createApiKey({ merchantId: tenant.merchant.id, scopes: ['write:payments'], mode: 'test' });
      // Act
      const read = await call(url(payment.id, '/timeline'), { key: reader.key });
      const written = await call(url(payment.id, '/timeline'), { key: writer.key });
      // Assess
      expect(read.status).toBe(200);
      expect(written.status).toBe(403);
    });
  });
});
