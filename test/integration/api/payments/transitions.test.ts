/**
 * POST /api/v1/payments/{id}/retry, /pause and /resume over HTTP: every transition the status
 * machine allows through them and every one it refuses (409, nothing written), the response
 * bodies of both forms, ids of every kind, 404 for other merchants' payments, scopes, and
 * Idempotency-Key replays.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { PausePaymentResponse, ResumePaymentResponse, RetryPaymentResponse } from '../../../../functions/api/payments/schemas';
import { type PaymentRecord, paymentBodyOf } from '../../../../functions/core/payments';
import { createApiKey } from '../../../../functions/data/api-key-repository';
import { documentClient } from '../../../../functions/data/client';
import { paymentKeys } from '../../../../functions/data/keys';
import { getPayment } from '../../../../functions/data/payment-repository';
import { paymentTimeline } from '../../../../functions/data/payment-queries';
import type { NewFailedPayment } from '../../../../functions/data/payment-repository';
import type { LocalStack } from '../../../../lib/local/local-stack';
import { call } from '../../../fixtures/http';
import { startTestStack } from '../../../fixtures/local-stack';
import { type SeedStep, seedPayment, seedPaymentThrough } from '../../../fixtures/payments';
import { expectOtherMerchantGets404, newTenant, type Tenant, UNLIMITED } from '../../../fixtures/tenants';

const HARD: Partial<NewFailedPayment> = { declineCode: 'expired_card', declineCategory: 'hard_customer', declineSubcategory: 'expired' };
/** The next_retry_at seedPaymentThrough's `retry` step schedules. */
const SEEDED_RETRY_AT = '2026-12-01T10:00:00.000Z';

type Action = 'retry' | 'pause' | 'resume';
interface Body {
  ok?: boolean;
  data: Record<string, unknown>;
  error?: { code: string; message: string; param?: string };
}

describe('POST /api/v1/payments/{id}/retry, /pause, /resume', () => {
  let stack: LocalStack;
  let tenant: Tenant;

  const url = (id: string, action: Action) => `${stack.api_url}/payments/${encodeURIComponent(id)}/${action}`;
  const post = (id: string, action: Action, options: { key?: string; headers?: Record<string, string> } = {}) =>
    call<Body>(url(id, action), { method: 'POST', key: options.key ?? tenant.key, ...(options.headers ? { headers: options.headers } : {}) });
  const stored = async (payment: PaymentRecord) => (await getPayment(tenant.merchant.id, payment.id)) as PaymentRecord;

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], UNLIMITED);
  });

  afterAll(async () => {
    await stack.stop();
  });

  describe('transitions the status machine allows', () => {
    it.each([
      ['retry', 'pending', [], {}, 'retrying', 1],
      ['retry', 'retrying', ['retry'], {}, 'retrying', 0],
      ['retry', 'a hard_customer decline once its card is updated', ['card_updated'], HARD, 'retrying', 1],
      ['pause', 'pending', [], {}, 'paused', 1],
      ['pause', 'retrying', ['retry'], {}, 'paused', 1],
      ['resume', 'paused from pending', ['pause'], {}, 'pending', 1],
      ['resume', 'paused from retrying', ['retry', 'pause'], {}, 'retrying', 1],
    ] as const)('%s moves %s to %s, with %i state_history entries more', async (action, _from, steps, overrides, to, newEntries) => {
      // Prepare
      const payment = await seedPaymentThrough(tenant.merchant.id, steps as readonly SeedStep[], overrides);
      // Act
      const response = await post(payment.id, action);
      // Assess
      expect(response.status).toBe(action === 'retry' ? 202 : 200);
      const after = await stored(payment);
      expect(after.status).toBe(to);
      expect(after.state_history).toHaveLength(payment.state_history.length + newEntries);
      if (newEntries === 1) expect(after.state_history.at(-1)).toMatchObject({ status: to, at: after.updated_at });
      const timeline = await paymentTimeline(tenant.merchant.id, payment);
      expect(timeline).toHaveLength(1 + steps.length + 1);
      const http = await call<Body>(`${stack.api_url}/payments/${payment.id}`, { key: tenant.key });
      expect(http.body.data.status).toBe(to);
    });

    it('answers a retry with 202 and one record of A and B fields', async () => {
      // Prepare
      const payment = await seedPayment(tenant.merchant.id);
      const before = Date.now();
      // Act
      const response = await post(payment.id, 'retry');
      // Assess
      expect(response.status).toBe(202);
      expect(RetryPaymentResponse.safeParse(response.body).success).toBe(true);
      const data = response.body.data as { next_retry_at: string; scheduled_at: string };
      expect(data).toEqual({
        payment_id: payment.id,
        status: 'retry_initiated',
        next_retry_at: data.scheduled_at,
        retry_scheduled: true,
        retry_number: 1,
        scheduled_at: expect.any(String),
      });
      expect(Date.parse(data.scheduled_at)).toBeGreaterThanOrEqual(before - 1);
      expect(Date.parse(data.scheduled_at)).toBeLessThanOrEqual(Date.now());
      expect((await stored(payment)).next_retry_at).toBe(data.scheduled_at);
      expect((await stored(payment)).state_history.at(-1)?.reason).toBe('Retry requested through the API');
    });

    it('numbers the retry after the attempts already made', async () => {
      // Prepare: the retry engine counts attempts; none exists yet, so set the count as it would.
      const payment = await seedPayment(tenant.merchant.id);
      await documentClient.send(new UpdateCommand({ TableName: process.env.TABLE_NAME, Key: paymentKeys.payment(tenant.merchant.id, paymentBodyOf(payment.id) as string), UpdateExpression: 'SET retry_count = :n', ExpressionAttributeValues: { ':n': 2 } }));
      // Act
      const response = await post(payment.id, 'retry');
      // Assess
      expect(response.body.data).toMatchObject({ retry_number: 3 });
    });

    it('answers a pause with A fields, B payment_id and ok', async () => {
      // Prepare
      const payment = await seedPaymentThrough(tenant.merchant.id, ['retry']);
      // Act
      const response = await post(payment.id, 'pause');
      // Assess
      expect(PausePaymentResponse.safeParse(response.body).success).toBe(true);
      const after = await stored(payment);
      expect(response.body).toMatchObject({ ok: true, data: { id: payment.id, payment_id: payment.id, status: 'paused', paused_at: after.paused_at, previous_status: 'retrying' } });
      expect(after.paused_at).toBe(after.updated_at);
    });

    it('answers a resume with A fields, B payment_id and ok, the status before the pause and the retry still scheduled', async () => {
      // Prepare
      const payment = await seedPaymentThrough(tenant.merchant.id, ['retry', 'pause']);
      // Act
      const response = await post(payment.id, 'resume');
      // Assess
      expect(ResumePaymentResponse.safeParse(response.body).success).toBe(true);
      const after = await stored(payment);
      expect(response.body).toEqual({
        ok: true,
        data: { id: payment.id, payment_id: payment.id, status: 'retrying', resumed_at: after.updated_at, next_retry_at: SEEDED_RETRY_AT },
        meta: expect.objectContaining({ merchant_id: tenant.merchant.id }),
      });
    });

    it('takes the recovery id and the provider charge id as well as the payment id', async () => {
      // Prepare
      const payment = await seedPayment(tenant.merchant.id, { providerPaymentId: 'pi_3PqRsTuV' });
      // Act
      const paused = await post('pi_3PqRsTuV', 'pause');
      const resumed = await post(payment.recovery_id, 'resume');
      const retried = await post('pi_3PqRsTuV', 'retry');
      // Assess
      expect([paused.status, resumed.status, retried.status]).toEqual([200, 200, 202]);
      expect([paused.body.data.id, resumed.body.data.id, retried.body.data.payment_id]).toEqual([payment.id, payment.id, payment.id]);
      expect((await stored(payment)).status).toBe('retrying');
    });
  });

  describe('transitions the status machine refuses', () => {
    it.each([
      ['retry', 'recovered', ['recover'], {}, /recovered/],
      ['retry', 'terminal', ['terminate'], {}, /terminal/],
      ['retry', 'terminal from a do-not-retry decline', [], { declineCategory: 'terminal', declineSubcategory: 'fraud', retryAllowed: false }, /terminal/],
      ['retry', 'paused', ['pause'], {}, /paused/],
      ['retry', 'at max_retries', [], { maxRetries: 0 }, /maximum of 0 retries/],
      ['retry', 'a hard_customer decline awaiting a card update', [], HARD, /hard_customer decline waits for a card update/],
      ['pause', 'paused', ['pause'], {}, /paused/],
      ['pause', 'recovered', ['recover'], {}, /recovered/],
      ['pause', 'terminal', ['terminate'], {}, /terminal/],
      ['resume', 'pending', [], {}, /pending/],
      ['resume', 'retrying', ['retry'], {}, /retrying/],
      ['resume', 'recovered', ['recover'], {}, /recovered/],
      ['resume', 'terminal', ['terminate'], {}, /terminal/],
    ] as const)('refuses %s of a payment %s with 409 state_conflict naming why, and writes nothing', async (action, _state, steps, overrides, why) => {
      // Prepare
      const payment = await seedPaymentThrough(tenant.merchant.id, steps as readonly SeedStep[], overrides);
      const before = await stored(payment);
      // Act
      const response = await post(payment.id, action);
      // Assess
      expect(response.status).toBe(409);
      expect(response.body.error?.code).toBe('state_conflict');
      expect(response.body.error?.message).toMatch(why);
      expect(await stored(payment)).toEqual(before);
      expect(await paymentTimeline(tenant.merchant.id, payment)).toHaveLength(1 + steps.length);
    });

    it('refuses a retry once the retry count reaches max_retries', async () => {
      // Prepare
      const payment = await seedPayment(tenant.merchant.id);
      await documentClient.send(new UpdateCommand({ TableName: process.env.TABLE_NAME, Key: paymentKeys.payment(tenant.merchant.id, paymentBodyOf(payment.id) as string), UpdateExpression: 'SET retry_count = max_retries' }));
      // Act
      const response = await post(payment.id, 'retry');
      // Assess
      expect(response.status).toBe(409);
      expect(response.body.error?.message).toMatch(/maximum of 4 retries/);
    });
  });

  describe('ids, tenants and scopes', () => {
    it.each(['retry', 'pause', 'resume'] as const)('answers %s of an unknown payment with 404', async (action) => {
      // Act
      const responses = await Promise.all(['pe_01JAAAAAAAAAAAAAAAAAAAAAAA', 'rec_01JAAAAAAAAAAAAAAAAAAAAAAA', 'ch_nobody', 'pe_1'].map((id) => post(id, action)));
      // Assess
      expect(responses.map((response) => [response.status, response.body.error?.code])).toEqual(Array(4).fill([404, 'resource_not_found']));
    });

    it.each([
      ['retry', []],
      ['pause', []],
      ['resume', ['pause']],
    ] as const)("answers %s of another merchant's payment with 404 and leaves it alone", async (action, steps) => {
      // Prepare
      const payment = await seedPaymentThrough(tenant.merchant.id, steps, { providerPaymentId: `ch_other_${action}` });
      const before = await stored(payment);
      // Act and assess
      await expectOtherMerchantGets404(url(payment.id, action), { method: 'POST' });
      await expectOtherMerchantGets404(url(`ch_other_${action}`, action), { method: 'POST' });
      expect(await stored(payment)).toEqual(before);
    });

    it.each([
      [['read'], 'retry', 403],
      [['read:payments'], 'pause', 403],
      [['write:customers'], 'pause', 403],
      [['write:payments'], 'pause', 200],
      [['write:payments'], 'retry', 202],
      [['write'], 'retry', 202],
    ] as const)('answers a key with scopes %j on %s with %i', async (scopes, action, status) => {
      // Prepare
      const payment = await seedPayment(tenant.merchant.id);
      const { key } = await createApiKey({ merchantId: tenant.merchant.id, scopes: [...scopes], mode: 'test' });
      // Act
      const response = await post(payment.id, action, { key });
      // Assess
      expect(response.status).toBe(status);
      if (status === 403) {
        expect(response.body.error?.code).toBe('insufficient_scope');
        expect((await stored(payment)).version).toBe(payment.version);
      }
    });
  });

  describe('Idempotency-Key', () => {
    it('replays a retry byte for byte without scheduling it twice', async () => {
      // Prepare
      const payment = await seedPayment(tenant.merchant.id);
      const headers = { 'Idempotency-Key': `retry-${payment.id}` };
      // Act
      const first = await post(payment.id, 'retry', { headers });
      const second = await post(payment.id, 'retry', { headers });
      // Assess
      expect(first.status).toBe(202);
      expect(second.status).toBe(202);
      expect(second.text).toBe(first.text);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const after = await stored(payment);
      expect(after.version).toBe(payment.version + 1);
      expect((await paymentTimeline(tenant.merchant.id, payment)).map((event) => event.type)).toEqual(['payment_failed', 'retry_scheduled']);
    });

    it('replays a refused retry as the same 409', async () => {
      // Prepare
      const payment = await seedPaymentThrough(tenant.merchant.id, ['recover']);
      const headers = { 'Idempotency-Key': `refused-${payment.id}` };
      // Act
      const first = await post(payment.id, 'retry', { headers });
      const second = await post(payment.id, 'retry', { headers });
      // Assess
      expect(first.status).toBe(409);
      expect(second.text).toBe(first.text);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
    });

    it('refuses the same key on another payment with 422 naming Idempotency-Key', async () => {
      // Prepare
      const one = await seedPayment(tenant.merchant.id);
      const other = await seedPayment(tenant.merchant.id);
      const headers = { 'Idempotency-Key': `shared-${one.id}` };
      await post(one.id, 'retry', { headers });
      // Act
      const response = await post(other.id, 'retry', { headers });
      // Assess
      expect(response.status).toBe(422);
      expect(response.body.error).toMatchObject({ code: 'validation_error', param: 'Idempotency-Key' });
      expect((await stored(other)).status).toBe('pending');
    });
  });
});
