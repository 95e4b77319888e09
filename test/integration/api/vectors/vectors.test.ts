/**
 * The vectors routes over HTTP, A's and B's bodies: POST /vectors/embed-event, POST
 * /vectors/find-similar and GET /vectors/recommend-strategy/{payment_id} on the local stack (the
 * local vector store: exact cosine over DynamoDB Local). Happy paths, scopes, another merchant,
 * bad input with `param`.
 */
import { EmbedEventResponse, FindSimilarResponse, RecommendStrategyResponse } from '#api/vectors/schemas';
import { wilsonLowerBound } from '#core/vectors/recommend';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { seedPayment, seedPaymentThrough } from '#test/fixtures/payments';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

interface Match {
  id: string;
  score: number;
  metadata: { outcome: string; strategy: string; decline_code: string };
}
interface Body {
  data: Record<string, unknown> & { count?: number; matches?: Match[] };
  meta: { merchant_id?: string };
  error?: { code: string; param?: string; message: string };
}

const eventA = (id: string, overrides: Record<string, unknown> = {}) => ({
  id,
  decline_code: 'insufficient_funds',
  amount_cents: 4999,
  currency: 'usd',
  customer_segment: 'first_failure',
  recovery_strategy: 'retry',
  outcome: 'recovered',
  ...overrides,
});
const eventB = (id: string, overrides: Record<string, unknown> = {}) => ({
  id,
  decline_code: 'insufficient_funds',
  amount_cents: 4999,
  currency: 'usd',
  customer_segment: 'first_failure',
  recovery_outcome: 'terminal',
  ...overrides,
});
const query = { decline_code: 'insufficient_funds', amount_cents: 4999, currency: 'usd', customer_segment: 'first_failure' };

describe('/api/v1/vectors', () => {
  let stack: LocalStack;
  let tenant: Tenant;

  const embed = (key: string, body: unknown) => call<Body>(`${stack.api_url}/vectors/embed-event`, { method: 'POST', key, body });
  const similar = (key: string, body: unknown) => call<Body>(`${stack.api_url}/vectors/find-similar`, { method: 'POST', key, body });
  const recommend = (key: string, paymentId: string) => call<Body>(`${stack.api_url}/vectors/recommend-strategy/${encodeURIComponent(paymentId)}`, { key });

  beforeAll(async () => {
    stack = await startTestStack();
  }, 60_000);

  beforeEach(async () => {
    tenant = await newTenant(['admin'], UNLIMITED);
  });

  afterAll(async () => {
    await stack.stop();
  });

  describe('POST /vectors/embed-event', () => {
    it("embeds A's body and find-similar finds it with its outcome, strategy and decline code", async () => {
      // Act
      const response = await embed(tenant.key, eventA('pe_a1'));
      const found = await similar(tenant.key, query);

      // Assess
      expect(response.status).toBe(200);
      expect(EmbedEventResponse.safeParse(response.body).success).toBe(true);
      expect(response.body.data).toEqual({ embedded: true, id: 'pe_a1', merchant_id: tenant.merchant.id });
      expect(found.body.data.matches).toEqual([
        { id: 'pe_a1', score: expect.any(Number), metadata: { outcome: 'recovered', strategy: 'retry', decline_code: 'insufficient_funds' } },
      ]);
      // Every field the query names matches; the stored strategy, which a query has not, keeps it under 1.
      expect(found.body.data.matches?.[0]?.score).toBeGreaterThan(0.95);
      expect(found.body.data.matches?.[0]?.score).toBeLessThan(1);
    });

    it("embeds B's body: terminal is stored as failed, with strategy none", async () => {
      // Act
      const response = await embed(tenant.key, eventB('inv_b1', { currency: 'EUR', decline_code: 'Expired_Card' }));
      const found = await similar(tenant.key, { ...query, decline_code: 'expired_card', currency: 'eur' });

      // Assess
      expect(response.status).toBe(200);
      expect(found.body.data.matches?.[0]?.metadata).toEqual({ outcome: 'failed', strategy: 'none', decline_code: 'expired_card' });
    });

    it('replaces the vector of an id embedded again', async () => {
      // Prepare
      await embed(tenant.key, eventA('pe_again', { outcome: 'pending' }));

      // Act
      await embed(tenant.key, eventA('pe_again', { outcome: 'failed', recovery_strategy: 'campaign_email' }));
      const found = await similar(tenant.key, query);

      // Assess
      expect(found.body.data.count).toBe(1);
      expect(found.body.data.matches?.[0]?.metadata).toMatchObject({ outcome: 'failed', strategy: 'campaign_email' });
    });

    it.each([
      [['write'], 200],
      [['write:vectors'], 200],
      [['admin'], 200],
      [['read'], 403],
      [['read:vectors'], 403],
      [['write:payments'], 403],
    ] as const)('answers a key with scopes %j with %i', async (scopes, status) => {
      // Prepare
      const { key } = await newTenant([...scopes], UNLIMITED);

      // Act
      const response = await embed(key, eventA('pe_scope'));

      // Assess
      expect(response.status).toBe(status);
      if (status === 403) expect(response.body.error?.code).toBe('insufficient_scope');
    });

    it.each([
      ['no outcome of either form', 400, 'outcome', { ...eventA('x'), outcome: undefined }],
      ['an outcome outside its set', 422, 'outcome', eventA('x', { outcome: 'maybe' })],
      ["B's outcome outside its set", 422, 'recovery_outcome', eventB('x', { recovery_outcome: 'failed' })],
      ['outcomes of both forms that disagree', 422, 'recovery_outcome', eventA('x', { recovery_outcome: 'terminal' })],
      ["A's outcome without a strategy", 400, 'recovery_strategy', { ...eventA('x'), recovery_strategy: undefined }],
      ['a strategy outside its set', 422, 'recovery_strategy', eventA('x', { recovery_strategy: 'pray' })],
      ['a decline code not in the catalogue', 422, 'decline_code', eventA('x', { decline_code: 'no_such_code' })],
      ['a currency that is not 3 letters', 422, 'currency', eventA('x', { currency: 'usdd' })],
      ['an unsupported currency', 422, 'currency', eventA('x', { currency: 'xyz' })],
      ['a negative amount', 422, 'amount_cents', eventA('x', { amount_cents: -1 })],
      ['amount and amount_cents that disagree', 422, 'amount', eventA('x', { amount: 1 })],
      ['no amount', 400, 'amount_cents', { ...eventA('x'), amount_cents: undefined }],
      ['a 10 KB id', 422, 'id', eventA('x'.repeat(10_240))],
      ['a 10 KB customer id', 422, 'customer_id', eventA('x', { customer_id: 'c'.repeat(10_240) })],
      ['a segment with spaces', 422, 'customer_segment', eventA('x', { customer_segment: 'big spender' })],
      ['an unknown provider', 422, 'psp', eventA('x', { psp: 'acme' })],
    ])('refuses %s (%i, param %s), storing nothing', async (_case, status, param, body) => {
      // Act
      const response = await embed(tenant.key, body);
      const found = await similar(tenant.key, query);

      // Assess
      expect({ status: response.status, param: response.body.error?.param }).toEqual({ status, param });
      expect(found.body.data.count).toBe(0);
    });

    it('treats a `__proto__` key as data, never as a prototype', async () => {
      // Act
      const response = await call<Body>(`${stack.api_url}/vectors/embed-event`, {
        method: 'POST',
        key: tenant.key,
        rawBody: JSON.stringify(eventA('pe_proto')).replace('{', '{"__proto__":{"outcome":"failed"},'),
        headers: { 'Content-Type': 'application/json' },
      });

      // Assess
      expect(response.status).toBeLessThan(500);
      if (response.status === 200) {
        const found = await similar(tenant.key, query);
        expect(found.body.data.matches?.[0]?.metadata.outcome).toBe('recovered');
      }
    });
  });

  describe('POST /vectors/find-similar', () => {
    it('ranks by cosine similarity: the same code and a close amount first, another code last', async () => {
      // Prepare
      await embed(tenant.key, eventA('other_code', { decline_code: 'stolen_card', outcome: 'failed', recovery_strategy: 'none' }));
      await embed(tenant.key, eventA('far_amount', { amount_cents: 4_999_000 }));
      await embed(tenant.key, eventA('close', { amount_cents: 5200 }));

      // Act
      const response = await similar(tenant.key, { ...query, top_k: 3 });

      // Assess
      expect(response.status).toBe(200);
      expect(FindSimilarResponse.safeParse(response.body).success).toBe(true);
      expect(response.body.meta.merchant_id).toBe(tenant.merchant.id);
      expect(response.body.data.count).toBe(3);
      expect(response.body.data.matches?.map((match) => match.id)).toEqual(['close', 'far_amount', 'other_code']);
      const scores = response.body.data.matches?.map((match) => match.score) ?? [];
      expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    });

    it("defaults top_k to 10 with A's customer_segment and to 5 without it (B)", async () => {
      // Prepare
      for (let i = 0; i < 12; i += 1) await embed(tenant.key, eventA(`pe_${i}`, { amount_cents: 1000 + i * 100 }));

      // Act
      const a = await similar(tenant.key, query);
      const b = await similar(tenant.key, { ...query, customer_segment: undefined });
      const fifty = await similar(tenant.key, { ...query, top_k: 50 });

      // Assess
      expect([a.body.data.count, b.body.data.count, fifty.body.data.count]).toEqual([10, 5, 12]);
    });

    it('filters by outcome', async () => {
      // Prepare
      await embed(tenant.key, eventA('won'));
      await embed(tenant.key, eventA('lost', { outcome: 'failed' }));

      // Act
      const response = await similar(tenant.key, { ...query, outcome: 'failed' });

      // Assess
      expect(response.body.data.matches?.map((match) => match.id)).toEqual(['lost']);
    });

    it("never answers another merchant's vectors", async () => {
      // Prepare
      await embed(tenant.key, eventA('pe_private'));
      const stranger = await newTenant(['read'], UNLIMITED);

      // Act
      const response = await similar(stranger.key, query);

      // Assess
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({ count: 0, matches: [] });
    });

    it.each([
      [['read'], 200],
      [['read:vectors'], 200],
      [['write'], 200],
      [['write:vectors'], 403],
      [['read:payments'], 403],
    ] as const)('answers a key with scopes %j with %i', async (scopes, status) => {
      // Prepare
      const { key } = await newTenant([...scopes], UNLIMITED);

      // Act
      const response = await similar(key, query);

      // Assess
      expect(response.status).toBe(status);
    });

    it.each([
      ['top_k 0', 422, 'top_k', { ...query, top_k: 0 }],
      ['top_k 51', 422, 'top_k', { ...query, top_k: 51 }],
      ['a fractional top_k', 422, 'top_k', { ...query, top_k: 2.5 }],
      ['a currency that is not 3 letters', 422, 'currency', { ...query, currency: 'us' }],
      ['no currency', 400, 'currency', { ...query, currency: undefined }],
      ['no decline code', 400, 'decline_code', { ...query, decline_code: undefined }],
      ['a 10 KB decline code', 422, 'decline_code', { ...query, decline_code: 'x'.repeat(10_240) }],
      ['an unknown outcome filter', 422, 'outcome', { ...query, outcome: 'won' }],
      ['a string amount', 422, 'amount_cents', { ...query, amount_cents: '4999' }],
    ])('refuses %s (%i, param %s)', async (_case, status, param, body) => {
      // Act
      const response = await similar(tenant.key, body);

      // Assess
      expect({ status: response.status, code: response.body.error?.code, param: response.body.error?.param }).toEqual({
        status,
        code: status === 400 ? 'invalid_request' : 'validation_error',
        param,
      });
    });
  });

  describe('auto-embedding', () => {
    it("finds a payment recovered through the service, embedded by the stack's own processor", async () => {
      // Prepare
      const recovered = await seedPaymentThrough(tenant.merchant.id, ['recover']);
      const open = await seedPayment(tenant.merchant.id);

      // Act
      await stack.runtime.stream.drain();
      const found = await similar(tenant.key, { ...query, customer_segment: undefined, psp: 'stripe' });
      const advice = await recommend(tenant.key, open.id);

      // Assess
      expect(found.body.data.matches?.map((match) => [match.id, match.metadata.outcome])).toEqual([[recovered.id, 'recovered']]);
      expect(advice.body.data).toMatchObject({ recommended_strategy: 'provider', similar_outcomes: { recovered: 1, failed: 0, total: 1 } });
    });
  });

  describe('GET /vectors/recommend-strategy/{payment_id}', () => {
    it("recommends what recovered most of the payment's neighbours, with a Wilson lower bound as confidence", async () => {
      // Prepare
      const payment = await seedPayment(tenant.merchant.id);
      const neighbours = [
        ...Array.from({ length: 6 }, (_, i) => eventA(`card_${i}`, { recovery_strategy: 'card_update', outcome: i < 5 ? 'recovered' : 'failed' })),
        ...Array.from({ length: 4 }, (_, i) => eventA(`retry_${i}`, { recovery_strategy: 'retry', outcome: i < 2 ? 'recovered' : 'failed' })),
        eventA('open_1', { outcome: 'pending' }),
      ];
      for (const event of neighbours) await embed(tenant.key, event);

      // Act
      const byPaymentId = await recommend(tenant.key, payment.id);
      const byRecoveryId = await recommend(tenant.key, payment.recovery_id);

      // Assess
      expect(byPaymentId.status).toBe(200);
      expect(RecommendStrategyResponse.safeParse(byPaymentId.body).success).toBe(true);
      expect(byPaymentId.body.data).toMatchObject({
        payment_id: payment.id,
        recommended_strategy: 'card_update',
        confidence: Math.round(wilsonLowerBound(5, 6) * 10_000) / 10_000,
        similar_outcomes: { recovered: 7, failed: 3, pending: 1, total: 11 },
        strategies: [
          { strategy: 'card_update', recovered: 5, failed: 1, recovery_rate: 0.8333 },
          { strategy: 'retry', recovered: 2, failed: 2, recovery_rate: 0.5 },
        ],
      });
      expect(byRecoveryId.body.data).toEqual(byPaymentId.body.data);
    });

    it('answers no recommendation and confidence 0 when no neighbour was recovered', async () => {
      // Prepare
      const payment = await seedPayment(tenant.merchant.id);
      await embed(tenant.key, eventA('lost', { outcome: 'failed' }));

      // Act
      const response = await recommend(tenant.key, payment.id);

      // Assess
      expect(response.body.data).toMatchObject({
        recommended_strategy: null,
        confidence: 0,
        similar_outcomes: { recovered: 0, failed: 1, pending: 0, total: 1 },
      });
    });

    it("answers another merchant's payment, an unknown one and a 10 KB id with 404", async () => {
      // Prepare
      const payment = await seedPayment(tenant.merchant.id);
      const stranger = await newTenant(['admin'], UNLIMITED);

      // Act
      const answers = await Promise.all([
        recommend(stranger.key, payment.id),
        recommend(tenant.key, 'pe_01JUNKNOWN0000000000000000'),
        recommend(tenant.key, 'p'.repeat(10_240)),
      ]);

      // Assess
      expect(answers.map((answer) => [answer.status, answer.body.error?.code])).toEqual([
        [404, 'resource_not_found'],
        [404, 'resource_not_found'],
        [404, 'resource_not_found'],
      ]);
    });

    it.each([
      [['read'], 200],
      [['read:vectors'], 200],
      [['write:vectors'], 403],
      [['read:payments'], 403],
    ] as const)('answers a key with scopes %j with %i', async (scopes, status) => {
      // Prepare
      const payment = await seedPayment(tenant.merchant.id);
      const { createApiKey } = await import('#data/api-key-repository');
      const { key } = await createApiKey({ merchantId: tenant.merchant.id, scopes: [...scopes], mode: 'test' });

      // Act
      const response = await recommend(key, payment.id);

      // Assess
      expect(response.status).toBe(status);
    });
  });
});
