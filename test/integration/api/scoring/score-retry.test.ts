/**
 * POST /api/v1/scoring/retry over HTTP and DynamoDB Local: A's body with its three tiers (rules,
 * enhanced through the local deterministic AI model, lgbm from the table seeded by POST
 * /api/internal/scoring/update-lookup) answered unwrapped; B's body (payment_id + retry_count)
 * for one of the merchant's payments, answered in the envelope; scopes, other merchants' payments
 * (404) and bad input (400/422 naming the field). Expected scores come from the rules scorer run
 * in this process on the input the route should build, so the test checks the mapping, not
 * numbers copied from a run. test/fixtures/cron-secret.ts is imported first: it sets CRON_SECRET
 * before the runtime reads its environment.
 */
import { cronAuth } from '#test/fixtures/cron-secret';
import { ScoreRetryResponseA, ScoreRetryResponseB } from '#api/scoring/schemas';
import { LOCAL_MODEL_NAME } from '#adapters/ai/local-model';
import { amountBucketOf, lookupKeyOf } from '#core/scoring/lookup-key';
import { scoreRetryByRules } from '#core/scoring/rules';
import type { RetryScore, RetryScoreInput } from '#core/scoring/types';
import { ENHANCED_MODEL_VERSION } from '#core/scoring/scorer';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { originOf, startTestStack } from '#test/fixtures/local-stack';
import { seedPayment } from '#test/fixtures/payments';
import { expectOtherMerchantGets404, newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

type Score = {
  score: number;
  delay_hours: number;
  recommended_delay_hours: number;
  confidence: number;
  reasoning: string;
  model_version: string;
  source: string;
  fallback_from: string | null;
  fallback_reason: string | null;
  factors: Array<{ name: string; impact: string; weight: number }>;
};
type Body = Score & {
  data: Score & { payment_id: string };
  meta: { timestamp: string; request_id: string; merchant_id?: string };
  error?: { code: string; message: string; param?: string };
};

/** What the route answers for a rules result, in A's field names. */
const asA = (result: RetryScore) => ({
  score: result.score,
  delay_hours: result.delayHours,
  recommended_delay_hours: result.delayHours,
  confidence: result.confidence,
  reasoning: result.reasoning,
  model_version: result.modelVersion,
  source: result.source,
  fallback_from: result.fallbackFrom ?? null,
  fallback_reason: result.fallbackReason ?? null,
  factors: result.factors,
});

/** A's spec defaults, as the scorer's input. */
const defaults = (overrides: Partial<RetryScoreInput>): RetryScoreInput => ({
  declineCode: 'insufficient_funds',
  amountCents: 4999,
  currency: 'usd',
  attemptNumber: 1,
  hourOfDay: 12,
  ...overrides,
});

describe('POST /api/v1/scoring/retry', () => {
  let stack: LocalStack;
  let tenant: Tenant;

  const url = () => `${stack.api_url}/scoring/retry`;
  const post = (body: unknown, key: string = tenant.key) => call<Body>(url(), { method: 'POST', key, body });

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['write'], UNLIMITED);
  }, 30_000);

  afterAll(async () => {
    await stack.stop();
  });

  describe('A body', () => {
    it("answers model rules unwrapped with the rules tier's score, delay, factors and reasoning", async () => {
      // Prepare
      const body = {
        decline_code: 'insufficient_funds',
        amount_cents: 4999,
        decline_category: 'SoftRetry',
        attempt_number: 2,
        hour_of_day: 6,
        day_of_week: 1,
        currency: 'usd',
        card_brand: 'visa',
        card_last4: '4242',
        is_debit: true,
        customer_lifetime_value_cents: 120_000,
        previous_successful_payments: 14,
        subscription_months: 18,
        days_since_failure: 2,
        payday_proximity_days: 1,
        success_rate_90d: 0.92,
        anomaly_score: 0.05,
        model: 'rules',
      };
      // Act
      const response = await post(body);
      // Assess
      expect(response.status).toBe(200);
      expect(response.body).not.toHaveProperty('data');
      expect(ScoreRetryResponseA.safeParse(response.body).success).toBe(true);
      const expected = scoreRetryByRules(
        defaults({
          declineCategory: 'soft_retry',
          attemptNumber: 2,
          hourOfDay: 6,
          dayOfWeek: 1,
          cardBrand: 'visa',
          isDebit: true,
          customerLifetimeValueCents: 120_000,
          previousSuccessfulPayments: 14,
          subscriptionMonths: 18,
          daysSinceFailure: 2,
          paydayProximityDays: 1,
          successRate90d: 0.92,
          anomalyScore: 0.05,
        }),
      );
      expect(response.body).toEqual(asA(expected));
      expect(response.body.source).toBe('rules');
      expect(response.body.delay_hours).toBe(24);
      expect(response.body.factors.map((factor) => factor.name)).toEqual(
        expect.arrayContaining(['payday_proximity_days', 'success_rate_90d', 'is_debit', 'anomaly_score', 'attempt_number', 'hour_of_day']),
      );
      expect(response.headers.get('x-request-id')).toMatch(/.+/);
      expect(response.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    });

    it("applies A's defaults: attempt 1 at 12:00 in usd, model enhanced", async () => {
      // Act
      const response = await post({ decline_code: 'processing_error', amount_cents: 1500 });
      // Assess
      const rules = scoreRetryByRules(defaults({ declineCode: 'processing_error', amountCents: 1500 }));
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ source: 'enhanced', score: rules.score, delay_hours: rules.delayHours, fallback_from: null });
    });

    it('answers model enhanced through the AI port, whose local model says it is one', async () => {
      // Act
      const response = await post({ decline_code: 'card_velocity_exceeded', amount_cents: 9900, attempt_number: 2, model: 'enhanced' });
      // Assess
      const rules = scoreRetryByRules(defaults({ declineCode: 'card_velocity_exceeded', amountCents: 9900, attemptNumber: 2 }));
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        source: 'enhanced',
        model_version: `${ENHANCED_MODEL_VERSION}/${LOCAL_MODEL_NAME}`,
        score: rules.score,
        delay_hours: 72,
        recommended_delay_hours: 72,
        confidence: rules.confidence,
        factors: rules.factors,
        fallback_from: null,
      });
      expect(response.body.reasoning).toContain('Local deterministic model (no LLM)');
    });

    it('answers model lgbm with the score seeded through the internal update-lookup route', async () => {
      // Prepare
      const declineCode = `lgbm_seeded_${Math.random().toString(36).slice(2, 8)}`;
      const seed = await call(`${originOf(stack)}/api/internal/scoring/update-lookup`, {
        method: 'POST',
        headers: cronAuth(),
        body: {
          entries: [
            {
              decline_code: declineCode,
              attempt_bucket: '3',
              amount_bucket: amountBucketOf(25_000, 'eur'),
              currency: 'eur',
              score: 0.37,
              delay_hours: 30,
              confidence: 0.83,
              model_version: 'lgbm-2026-06',
              reasoning: 'Measured.',
            },
          ],
        },
      });
      // Act
      const response = await post({ decline_code: declineCode.toUpperCase(), amount_cents: 25_000, currency: 'EUR', attempt_number: 3, model: 'lgbm' });
      // Assess
      expect(seed.status).toBe(200);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        score: 0.37,
        delay_hours: 30,
        recommended_delay_hours: 30,
        confidence: 0.83,
        reasoning: 'Measured.',
        model_version: 'lgbm-2026-06',
        source: 'lgbm',
        fallback_from: null,
        fallback_reason: null,
        factors: [],
      });
    });

    it('falls back from lgbm to enhanced, saying so, when the table has no score for the key', async () => {
      // Prepare
      const declineCode = 'processing_error';
      const key = lookupKeyOf({ declineCode, attemptBucket: '4+', amountBucket: '1000_plus', currency: 'nzd' });
      // Act
      const response = await post({ decline_code: declineCode, amount_cents: 900_000, currency: 'nzd', attempt_number: 7, model: 'lgbm' });
      // Assess
      expect(key).toBe('processing_error#4+#1000_plus#nzd');
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ source: 'enhanced', fallback_from: 'lgbm', fallback_reason: 'lookup_miss', delay_hours: 24 });
    });

    it.each(['SoftRetry', 'soft_retry', 'SOFT_RETRY'])('accepts decline_category %s as soft_retry', async (form) => {
      // Act
      const response = await post({ decline_code: 'expired_card', amount_cents: 4999, decline_category: form, model: 'rules' });
      // Assess
      expect(response.status).toBe(200);
      expect(response.body).toEqual(asA(scoreRetryByRules(defaults({ declineCode: 'expired_card', declineCategory: 'soft_retry' }))));
      expect(response.body.score).toBeGreaterThan(0);
    });

    it.each([
      ['HardCustomer', 'not retried until the card is updated'],
      ['hard_customer', 'not retried until the card is updated'],
      ['Terminal', 'never retried'],
    ])('scores 0 for decline_category %s: %s', async (form, verdict) => {
      // Act
      const response = await post({ decline_code: 'insufficient_funds', amount_cents: 4999, decline_category: form });
      // Assess
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ score: 0, source: 'rules', fallback_from: 'enhanced', fallback_reason: 'do_not_retry' });
      expect(response.body.delay_hours).toBeGreaterThan(0);
      expect(response.body.reasoning).toContain(verdict);
    });

    it('accepts amount as an alias of amount_cents', async () => {
      // Act
      const response = await post({ decline_code: 'insufficient_funds', amount: 250_000, model: 'rules' });
      // Assess
      expect(response.status).toBe(200);
      expect(response.body.score).toBe(scoreRetryByRules(defaults({ amountCents: 250_000 })).score);
      expect(response.body.factors.map((factor) => factor.name)).toContain('amount_cents');
    });
  });

  describe('B body', () => {
    it("scores retry_count + 1 of the merchant's payment and answers in the envelope", async () => {
      // Prepare
      const payment = await seedPayment(tenant.merchant.id);
      // Act
      const response = await post({
        payment_id: payment.id,
        decline_code: 'insufficient_funds',
        amount_cents: payment.amount,
        currency: 'usd',
        retry_count: 2,
        model: 'rules',
      });
      // Assess
      expect(response.status).toBe(200);
      expect(ScoreRetryResponseB.safeParse(response.body).success).toBe(true);
      const expected = scoreRetryByRules(
        defaults({ amountCents: payment.amount, attemptNumber: 3, psp: 'stripe', declineCategory: 'soft_retry', declineSubcategory: 'balance' }),
      );
      expect(response.body.data).toEqual({ payment_id: payment.id, ...asA(expected) });
      expect(response.body.data.recommended_delay_hours).toBe(120);
      expect(response.body.meta).toMatchObject({ request_id: response.headers.get('x-request-id'), merchant_id: tenant.merchant.id });
    });

    it('finds the payment by its provider charge id and scores with the enhanced default', async () => {
      // Prepare
      const payment = await seedPayment(tenant.merchant.id, { providerPaymentId: `ch_score_${Math.random().toString(36).slice(2, 8)}` });
      // Act
      const response = await post({
        payment_id: payment.provider_payment_id,
        decline_code: 'insufficient_funds',
        amount_cents: 4999,
        currency: 'usd',
        retry_count: 0,
      });
      // Assess
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ payment_id: payment.id, source: 'enhanced', recommended_delay_hours: 24, delay_hours: 24 });
      expect(typeof response.body.data.reasoning).toBe('string');
      expect(typeof response.body.data.confidence).toBe('number');
    });

    it("uses the payment's stored hard_customer classification for its own decline code", async () => {
      // Prepare
      const payment = await seedPayment(tenant.merchant.id, {
        declineCode: 'card_declined',
        declineCategory: 'hard_customer',
        declineSubcategory: 'closed',
        retryAllowed: false,
      });
      // Act
      const response = await post({
        payment_id: payment.id,
        decline_code: 'card_declined',
        amount_cents: 4999,
        currency: 'usd',
        retry_count: 0,
        model: 'rules',
      });
      // Assess
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ score: 0 });
      expect(response.body.data.reasoning).toContain('hard_customer decline (closed): not retried until the card is updated');
    });

    it('answers 404 for a payment that does not exist', async () => {
      // Act
      const response = await post({ payment_id: 'pe_doesnotexist', decline_code: 'insufficient_funds', amount_cents: 4999, currency: 'usd', retry_count: 0 });
      // Assess
      expect(response.status).toBe(404);
      expect(response.body.error?.code).toBe('resource_not_found');
    });

    it("answers 404 to another merchant for this merchant's payment", async () => {
      // Prepare
      const payment = await seedPayment(tenant.merchant.id);
      // Act and assess
      await expectOtherMerchantGets404(url(), {
        method: 'POST',
        body: { payment_id: payment.id, decline_code: 'insufficient_funds', amount_cents: 4999, currency: 'usd', retry_count: 0 },
      });
    });
  });

  describe('scopes', () => {
    it('answers 401 without a key', async () => {
      // Act
      const response = await call<Body>(url(), { method: 'POST', body: { decline_code: 'insufficient_funds', amount_cents: 4999 } });
      // Assess
      expect(response.status).toBe(401);
      expect(response.body.error?.code).toBe('invalid_api_key');
    });
  });

  describe('bad input', () => {
    const A = { decline_code: 'insufficient_funds', amount_cents: 4999 };
    const B = { payment_id: 'pe_x', decline_code: 'insufficient_funds', amount_cents: 4999, currency: 'usd', retry_count: 1 };

    it.each([
      ['no decline_code', 400, 'decline_code', { amount_cents: 4999 }],
      ['no amount_cents', 400, 'amount_cents', { decline_code: 'insufficient_funds' }],
      ['B without a currency', 400, 'currency', { ...B, currency: undefined }],
      ['B without a retry_count', 400, 'retry_count', { ...B, retry_count: undefined }],
      ['B without a payment_id', 400, 'payment_id', { ...B, payment_id: undefined }],
      ['an empty decline_code', 422, 'decline_code', { ...A, decline_code: ' ' }],
      ['a fractional amount', 422, 'amount_cents', { ...A, amount_cents: 49.99 }],
      ['a negative amount', 422, 'amount_cents', { ...A, amount_cents: -1 }],
      ['amount disagreeing with amount_cents', 422, 'amount', { ...A, amount: 5000 }],
      ['an hour_of_day of 24', 422, 'hour_of_day', { ...A, hour_of_day: 24 }],
      ['a day_of_week of 7', 422, 'day_of_week', { ...A, day_of_week: 7 }],
      ['an attempt_number of 0', 422, 'attempt_number', { ...A, attempt_number: 0 }],
      ['a success_rate_90d above 1', 422, 'success_rate_90d', { ...A, success_rate_90d: 1.2 }],
      ['a negative anomaly_score', 422, 'anomaly_score', { ...A, anomaly_score: -0.1 }],
      ['an unknown model', 422, 'model', { ...A, model: 'gpt' }],
      ['an unknown decline_category', 422, 'decline_category', { ...A, decline_category: 'Soft' }],
      ['an unknown currency', 422, 'currency', { ...A, currency: 'xyz' }],
      ['a card_last4 of letters', 422, 'card_last4', { ...A, card_last4: 'abcd' }],
      ['a string is_debit', 422, 'is_debit', { ...A, is_debit: 'yes' }],
      ['a negative payday_proximity_days', 422, 'payday_proximity_days', { ...A, payday_proximity_days: -2 }],
      ['B with an attempt_number that is not retry_count + 1', 422, 'attempt_number', { ...B, attempt_number: 5 }],
    ] as const)('refuses %s with %i naming %s', async (_what, status, param, body) => {
      // Act
      const response = await post(body);
      // Assess
      expect(response.status).toBe(status);
      expect(response.body.error).toMatchObject({ code: status === 400 ? 'invalid_request' : 'validation_error', param });
    });

    it('refuses malformed JSON with 400', async () => {
      // Act
      const response = await call<Body>(url(), {
        method: 'POST',
        key: tenant.key,
        rawBody: '{"decline_code":',
        headers: { 'Content-Type': 'application/json' },
      });
      // Assess
      expect(response.status).toBe(400);
      expect(response.body.error?.code).toBe('invalid_request');
    });
  });
});
