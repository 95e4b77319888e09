import { getRecoverySchemas } from '#api/recoveries/schemas';
import type { PaymentRecord } from '#core/payments';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { seedPaymentThrough } from '#test/fixtures/payments';
import { keyWithScopes } from '#test/fixtures/recoveries';
import { expectOtherMerchantGets404, newTenant, type Tenant } from '#test/fixtures/tenants';

interface DetailBody {
  data: Record<string, unknown> & { state_history: Array<{ status: string; at: string; reason: string }> };
  meta: { merchant_id: string; timestamp: string };
  error?: { code: string; param?: string };
}

describe('GET /api/v1/recoveries/{id}', () => {
  let stack: LocalStack;
  let tenant: Tenant;
  let payment: PaymentRecord;

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], { read_per_minute: 100000, write_per_minute: 100000 });
    payment = await seedPaymentThrough(tenant.merchant.id, ['retry', 'pause'], {
      subscriptionId: 'sub_gold',
      invoiceId: 'in_100',
      declineSubcategory: 'limit',
      declineCode: 'card_velocity_exceeded',
    });
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  it('returns the recovery with state_history and decline_subcategory when called with its rec_ id', async () => {
    // Act
    const response = await call<DetailBody>(`${stack.api_url}/recoveries/${payment.recovery_id}`, { key: tenant.key });
    // Assess
    expect(response.status).toBe(200);
    expect(() => getRecoverySchemas.responses[200].parse(response.body)).not.toThrow();
    expect(response.body.data).toMatchObject({
      id: payment.recovery_id,
      payment_event_id: payment.id,
      payment_id: payment.id,
      status: 'paused',
      decline_code: 'card_velocity_exceeded',
      decline_category: 'soft_retry',
      decline_subcategory: 'limit',
      subscription_id: 'sub_gold',
      customer_id: payment.customer_id,
      amount: 4999,
      amount_cents: 4999,
      recovered_at: null,
    });
    // Recorded (pending), retry 1 planned at once (retrying), rescheduled (retrying), paused.
    expect(response.body.data.state_history.map((entry) => entry.status)).toEqual(['pending', 'retrying', 'retrying', 'paused']);
    expect(response.body.data.state_history[0]?.reason).toContain('card_velocity_exceeded');
    // B's campaign progress: null until campaigns exist (no step is invented).
    expect(response.body.data).toMatchObject({ current_step: null, total_steps: null });
    expect(response.body.meta.merchant_id).toBe(tenant.merchant.id);
  });

  it.each(['/api/v1/recoveries', '/api/v1/recoveries/{id}'])(
    'declares current_step and total_steps (integer or null) in the OpenAPI document for %s',
    async (path) => {
      // Act
      const doc = (await (await fetch(`${stack.api_url}/openapi.json`)).json()) as {
        paths: Record<
          string,
          { get: { responses: Record<string, { content: Record<string, { schema: { properties: { data: Record<string, unknown> } } }> }> } }
        >;
      };
      // Assess
      const data = doc.paths[path]?.get.responses['200']?.content['application/json']?.schema.properties.data as {
        properties?: Record<string, unknown>;
        items?: { properties?: Record<string, unknown> };
      };
      const properties = data.items?.properties ?? data.properties ?? {};
      for (const name of ['current_step', 'total_steps']) {
        // Nullable integers, however the generator spells them (`type: [integer, null]` or anyOf).
        expect(JSON.stringify(properties[name])).toMatch(/"integer"/);
        expect(JSON.stringify(properties[name])).toMatch(/"null"/);
      }
    },
  );

  it('returns the same recovery when called with its payment id pe_', async () => {
    // Act
    const byPayment = await call<DetailBody>(`${stack.api_url}/recoveries/${payment.id}`, { key: tenant.key });
    const byRecovery = await call<DetailBody>(`${stack.api_url}/recoveries/${payment.recovery_id}`, { key: tenant.key });
    // Assess
    expect(byPayment.status).toBe(200);
    expect(byPayment.body.data).toEqual(byRecovery.body.data);
  });

  it.each(['rec_01J0000000000000000000000Z', 'rec_unknown', 'pe_', 'ch_1'])('answers 404 when the id %s is not a recovery of the merchant', async (id) => {
    // Act
    const response = await call<DetailBody>(`${stack.api_url}/recoveries/${id}`, { key: tenant.key });
    // Assess
    expect(response.status).toBe(404);
    expect(response.body.error?.code).toBe('resource_not_found');
  });

  it("answers 404 when another merchant asks for this merchant's recovery", async () => {
    // Act and assess
    await expectOtherMerchantGets404(`${stack.api_url}/recoveries/${payment.recovery_id}`);
  });

  it('answers an id longer than 255 characters with 404 resource_not_found naming id, as no such id can exist', async () => {
    // Act
    const response = await call<DetailBody>(`${stack.api_url}/recoveries/rec_${'x'.repeat(300)}`, { key: tenant.key });
    // Assess
    expect(response.status).toBe(404);
    expect(response.body.error).toMatchObject({ code: 'resource_not_found', param: 'id' });
  });

  it('refuses a key without read with 403', async () => {
    // Prepare
    const key = await keyWithScopes(tenant.merchant.id, ['webhooks']);
    // Act
    const response = await call<DetailBody>(`${stack.api_url}/recoveries/${payment.recovery_id}`, { key });
    // Assess
    expect(response.status).toBe(403);
    expect(response.body.error?.code).toBe('insufficient_scope');
  });
});
