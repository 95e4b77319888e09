/**
 * GET /api/v1/payments/{id} and GET /api/v1/payments/{id}/timeline over HTTP: by `pe_`, `rec_`
 * and provider charge id, the record's A fields with B's aliases, the timeline in both forms,
 * 404 for absent and other merchants' payments, scopes and bad input.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { PaymentData, PaymentResponse, PaymentTimelineResponse } from '#api/payments/schemas';
import { attemptIdempotencyKey } from '#core/payment-gateway';
import type { PaymentRecord } from '#core/payments';
import { createApiKey } from '#data/api-key-repository';
import { documentClient } from '#data/client';
import { paymentKeys } from '#data/keys';
import { getPayment } from '#data/payment-repository';
import { executeDueRetries } from '#jobs/execute-due-retries';
import { env } from '#shared/env';
import type { LocalStack } from '#lib/local/local-stack';
import { setProviderSecret } from '#data/provider-secret-repository';
import { call } from '#test/fixtures/http';
import { originOf, startTestStack } from '#test/fixtures/local-stack';
import { providerCases, stripeFailedFor } from '#test/fixtures/provider-webhooks';
import { seedPayment } from '#test/fixtures/payments';
import { expectOtherMerchantGets404, newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

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
        max_retries: 8,
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
  });

  describe("GET /payments/{id} by the provider's charge id of a payment recorded under its PaymentIntent (Stripe's latest_charge)", () => {
    const secret = providerCases.find((c) => c.psp === 'stripe')?.secret as string;
    /** A signed Stripe failure of PaymentIntent `pi`, whose charge is `ch` (latest_charge), as payment_intent.payment_failed or charge.failed. */
    const stripeFailure = (kind: 'intent' | 'charge', pi: string, ch: string, email: string) =>
      JSON.stringify({
        id: `evt_${kind}_${pi}`,
        object: 'event',
        api_version: '2024-06-20',
        created: Math.floor(Date.now() / 1000),
        type: kind === 'intent' ? 'payment_intent.payment_failed' : 'charge.failed',
        data: {
          object:
            kind === 'intent'
              ? {
                  id: pi,
                  object: 'payment_intent',
                  amount: 2500,
                  currency: 'usd',
                  latest_charge: ch,
                  status: 'requires_payment_method',
                  receipt_email: email,
                  last_payment_error: { code: 'card_declined', decline_code: 'insufficient_funds', type: 'card_error' },
                }
              : {
                  id: ch,
                  object: 'charge',
                  amount: 2500,
                  currency: 'usd',
                  payment_intent: pi,
                  receipt_email: email,
                  failure_code: 'card_declined',
                  outcome: { reason: 'insufficient_funds' },
                  status: 'failed',
                },
        },
      });
    const deliver = async (stripeTenant: Tenant, body: string) => {
      const delivery = stripeFailedFor(secret, body);
      const response = await call(`${originOf(stack)}/stripe/${stripeTenant.merchant.id}`, {
        method: 'POST',
        rawBody: delivery.body,
        headers: delivery.headers,
      });
      expect(response.status).toBe(200);
      await stack.runtime.queues.drain();
    };
    let stripeTenant: Tenant;

    beforeAll(async () => {
      stripeTenant = await newTenant(['admin'], UNLIMITED);
      await setProviderSecret(stripeTenant.merchant.id, 'stripe', secret);
    });

    it.each(['intent', 'charge'] as const)('finds the payment a %s event recorded by its ch_ id as by its pi_ id', async (kind) => {
      // Prepare
      const pi = `pi_3Charge${kind}Lookup01`;
      const ch = `ch_3Charge${kind}Lookup01`;
      await deliver(stripeTenant, stripeFailure(kind, pi, ch, `${kind}@example.com`));
      // Act
      const byIntent = await call<{ data: { id: string; provider_payment_id: string } }>(url(pi), { key: stripeTenant.key });
      const byCharge = await call<{ data: { id: string; provider_payment_id: string } }>(url(ch), { key: stripeTenant.key });
      // Assess
      expect(byIntent.status).toBe(200);
      expect(byIntent.body.data.provider_payment_id).toBe(pi);
      expect(byCharge.status).toBe(200);
      expect(byCharge.body).toEqual(expect.objectContaining({ data: byIntent.body.data }));
      expect((await call(url(ch), { key: tenant.key })).status).toBe(404);
    });

    it('finds the payment by the charge id a sibling event names after the PaymentIntent was recorded without it, and forgets it with the erased customer', async () => {
      // Prepare: the intent event names no charge; the charge event of the same failure follows.
      const pi = 'pi_3ChargeSiblingLookup01';
      const ch = 'ch_3ChargeSiblingLookup01';
      const intentOnly = JSON.parse(stripeFailure('intent', pi, ch, 'sibling@example.com')) as { data: { object: Record<string, unknown> } };
      delete intentOnly.data.object.latest_charge;
      await deliver(stripeTenant, JSON.stringify(intentOnly));
      const before = await call(url(ch), { key: stripeTenant.key });
      await deliver(stripeTenant, stripeFailure('charge', pi, ch, 'sibling@example.com'));
      // Act
      const byCharge = await call<{ data: { id: string; provider_payment_id: string; customer_id: string } }>(url(ch), { key: stripeTenant.key });
      const erased = await call(`${stack.api_url}/customers/${byCharge.body.data.customer_id}`, { method: 'DELETE', key: stripeTenant.key });
      // Assess
      expect(before.status).toBe(404);
      expect(byCharge.status).toBe(200);
      expect(byCharge.body.data.provider_payment_id).toBe(pi);
      expect(erased.status).toBe(200);
      expect((await call(url(ch), { key: stripeTenant.key })).status).toBe(404);
      const reference = await documentClient.send(
        new GetCommand({ TableName: env.TABLE_NAME, Key: paymentKeys.providerRef(stripeTenant.merchant.id, ch), ConsistentRead: true }),
      );
      expect(reference.Item).toBeUndefined();
    });
  });

  describe('GET /payments/{id}/timeline', () => {
    it('answers the events oldest first, with A detail text and B details, and B payment_id', async () => {
      // Prepare: recorded with retry 1 planned; retry 1 requested, attempted by the executor's run, declined and retry 2
      // planned; paused (retry 2 dropped); resumed (the retry planned again).
      const seeded = await seedPayment(tenant.merchant.id);
      expect((await call(url(seeded.id, '/retry'), { key: tenant.key, method: 'POST' })).status).toBe(202);
      await executeDueRetries({ now: new Date(), executionId: 'timeline-test' });
      const declined = (await getPayment(tenant.merchant.id, seeded.id)) as PaymentRecord;
      for (const action of ['pause', 'resume']) {
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
      // The spec's words (A's retry for an attempt and its decline, B's retry_scheduled), the recorded type in details.kind.
      expect(events.map((event) => event.type)).toEqual([
        'payment_failed',
        'retry_scheduled',
        'retry_scheduled',
        'retry',
        'retry',
        'retry_scheduled',
        'status_change',
        'status_change',
        'retry_scheduled',
      ]);
      expect(events.map((event) => event.details.kind)).toEqual([
        undefined,
        undefined,
        undefined,
        'retry_attempted',
        'retry_failed',
        undefined,
        undefined,
        undefined,
        undefined,
      ]);
      expect(events.map((event) => event.timestamp)).toEqual([...events.map((event) => event.timestamp)].sort());
      expect(events[0]).toMatchObject({
        detail: expect.stringContaining('insufficient_funds'),
        details: { decline_code: 'insufficient_funds', amount: 4999, currency: 'usd' },
      });
      expect(events[1]).toMatchObject({
        detail: expect.stringContaining('Retry 1 scheduled'),
        details: { retry_number: 1, scheduled_at: seeded.next_retry_at, reason: seeded.state_history[1]?.reason },
      });
      expect(events[2]).toMatchObject({
        detail: expect.stringContaining('Retry 1 requested through the API, due now'),
        details: { retry_number: 1, requested: true },
      });
      expect(events[3]).toMatchObject({
        detail: expect.stringContaining('Attempting retry 1 through the sandbox gateway'),
        details: { retry_number: 1, gateway: 'sandbox', idempotency_key: attemptIdempotencyKey(seeded.id, 1), resend: false },
      });
      expect(events[4]).toMatchObject({
        detail: expect.stringContaining('Retry 1 declined with insufficient_funds'),
        details: { retry_number: 1, decline_code: 'insufficient_funds', decline_category: 'soft_retry' },
      });
      expect(events[5]).toMatchObject({
        detail: expect.stringContaining('Retry 2 scheduled'),
        details: { retry_number: 2, scheduled_at: declined.next_retry_at },
      });
      expect(events[6]?.details).toEqual({ from: 'retrying', to: 'paused', reason: 'Paused through the API' });
      expect(events[7]?.details).toEqual({ from: 'paused', to: 'retrying', reason: 'Resumed through the API' });
      expect(events[8]).toMatchObject({
        detail: expect.stringContaining('Retry 2 scheduled'),
        details: { retry_number: 2, scheduled_at: stored.next_retry_at },
      });
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
