/**
 * POST /api/internal/scoring/update-lookup over HTTP and DynamoDB Local: the shared cron secret
 * (Authorization: Bearer) admits the caller, anything else is 401 with nothing written; entries
 * are written in BatchWriteItem chunks and read back through the repository the lgbm tier uses;
 * bad bodies are 400/422 naming the field. The route has no merchant and no scopes, so there is no
 * scope or other-merchant case: the secret is its only credential. test/fixtures/cron-secret.ts is
 * imported first: it sets CRON_SECRET before the runtime reads its environment.
 */
import { CRON_SECRET, cronAuth } from '#test/fixtures/cron-secret';
import { UpdateScoreLookupResponse } from '#api/edge-internal/schemas';
import { lookupKeyOf } from '#core/scoring/lookup-key';
import { getPrecomputedScore } from '#data/score-lookup-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { originOf, startTestStack } from '#test/fixtures/local-stack';
import { newTenant } from '#test/fixtures/tenants';

interface Body {
  data: { received: number; written: number; keys: string[] };
  meta: Record<string, unknown>;
  error?: { code: string; message: string; param?: string; request_id: string };
}

const PATH = '/api/internal/scoring/update-lookup';
let sequence = 0;

/** One valid entry for a decline code of its own, so files and tests never share keys. */
function entry(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  sequence += 1;
  return {
    decline_code: `test_code_${sequence}_${Math.random().toString(36).slice(2, 8)}`,
    attempt_bucket: '1',
    amount_bucket: '10_50',
    currency: 'usd',
    score: 0.42,
    delay_hours: 36,
    confidence: 0.8,
    model_version: 'lgbm-test-1',
    ...overrides,
  };
}

const keyOf = (value: Record<string, unknown>): string =>
  lookupKeyOf({
    declineCode: value.decline_code as string,
    attemptBucket: value.attempt_bucket as '1',
    amountBucket: value.amount_bucket as '10_50',
    currency: value.currency as string,
  });

describe('POST /api/internal/scoring/update-lookup', () => {
  let stack: LocalStack;
  const post = (body: unknown, headers: Record<string, string> = cronAuth()) => call<Body>(`${originOf(stack)}${PATH}`, { method: 'POST', body, headers });

  beforeAll(async () => {
    stack = await startTestStack();
  }, 30_000);

  afterAll(async () => {
    await stack.stop();
  });

  describe('with the cron secret', () => {
    it('writes 60 entries (three BatchWriteItem chunks) and answers the counts and keys', async () => {
      // Prepare
      const entries = Array.from({ length: 60 }, (_unused, index) =>
        entry({ score: Math.round((index / 60) * 1000) / 1000, attempt_bucket: (['1', '2', '3', '4+'] as const)[index % 4] }),
      );
      // Act
      const response = await post({ entries });
      // Assess
      expect(response.status).toBe(200);
      expect(UpdateScoreLookupResponse.safeParse(response.body).success).toBe(true);
      expect(response.body.data).toEqual({ received: 60, written: 60, keys: entries.map(keyOf) });
      expect(response.headers.get('x-request-id')).toBe(response.body.meta.request_id);
      const stored = await Promise.all(entries.map((value) => getPrecomputedScore(keyOf(value))));
      expect(stored.map((score) => score?.score)).toEqual(entries.map((value) => value.score));
      expect(stored[7]).toEqual({
        key: keyOf(entries[7] as Record<string, unknown>),
        score: entries[7]?.score,
        delayHours: 36,
        confidence: 0.8,
        modelVersion: 'lgbm-test-1',
      });
    });

    it('normalises the key parts: code case and separators, currency case', async () => {
      // Prepare
      const value = entry({
        currency: 'EUR',
        attempt_bucket: '4+',
        amount_bucket: '1000_plus',
        reasoning: 'Measured over 2025.',
        factors: [{ name: 'decline_code', impact: 'negative', weight: 0.4 }],
      });
      value.decline_code = `Card Declined ${sequence}`;
      // Act
      const response = await post({ entries: [value] });
      // Assess
      expect(response.body.data.keys).toEqual([`card_declined_${sequence}#4+#1000_plus#eur`]);
      expect(await getPrecomputedScore(`card_declined_${sequence}#4+#1000_plus#eur`)).toMatchObject({
        reasoning: 'Measured over 2025.',
        factors: [{ name: 'decline_code', impact: 'negative', weight: 0.4 }],
      });
    });

    it('keeps the last of two entries for one key, and replaces what a key held before', async () => {
      // Prepare
      const first = entry({ score: 0.1 });
      await post({ entries: [first] });
      // Act
      const response = await post({ entries: [{ ...first, score: 0.2 }, entry(), { ...first, score: 0.3, model_version: 'lgbm-test-2' }] });
      // Assess
      expect(response.status).toBe(200);
      expect(response.body.data.received).toBe(3);
      expect(response.body.data.written).toBe(2);
      expect(response.body.data.keys[0]).toBe(keyOf(first));
      expect(await getPrecomputedScore(keyOf(first))).toMatchObject({ score: 0.3, modelVersion: 'lgbm-test-2' });
    });

    it('accepts the bearer scheme in any case', async () => {
      // Prepare
      const value = entry();
      // Act
      const response = await post({ entries: [value] }, { Authorization: `bearer ${CRON_SECRET}` });
      // Assess
      expect(response.status).toBe(200);
      expect(await getPrecomputedScore(keyOf(value))).toBeDefined();
    });
  });

  describe('without the cron secret', () => {
    it.each([
      ['no Authorization header', {}],
      ['a wrong secret', cronAuth('cron-secret-for-tests-0123456789abcdeX')],
      ['a prefix of the secret', cronAuth(CRON_SECRET.slice(0, -1))],
      ['the secret without the Bearer scheme', { Authorization: CRON_SECRET }],
      ['the secret in another header', { 'X-Cron-Secret': CRON_SECRET }],
    ])('refuses %s with 401 invalid_api_key and writes nothing', async (_what, headers) => {
      // Prepare
      const value = entry();
      // Act
      const response = await post({ entries: [value] }, headers);
      // Assess
      expect(response.status).toBe(401);
      expect(response.body.error).toEqual({
        code: 'invalid_api_key',
        message: expect.stringContaining('cron secret'),
        request_id: response.headers.get('x-request-id'),
      });
      expect(await getPrecomputedScore(keyOf(value))).toBeUndefined();
    });

    it("refuses a merchant's admin API key with 401", async () => {
      // Prepare
      const tenant = await newTenant(['admin']);
      const value = entry();
      // Act
      const response = await post({ entries: [value] }, { Authorization: `Bearer ${tenant.key}` });
      // Assess
      expect(response.status).toBe(401);
      expect(await getPrecomputedScore(keyOf(value))).toBeUndefined();
    });

    it('checks the secret before the body: a bad body without the secret is 401, not 400', async () => {
      // Act
      const response = await call<Body>(`${originOf(stack)}${PATH}`, {
        method: 'POST',
        rawBody: '{"entries": [',
        headers: { 'Content-Type': 'application/json' },
      });
      // Assess
      expect(response.status).toBe(401);
    });
  });

  describe('bad input', () => {
    it.each([
      ['no entries field', 400, 'entries', {}],
      ['an entry without a decline code', 400, 'entries.0.decline_code', { entries: [{ ...entry(), decline_code: undefined }] }],
      ['an entry without a score', 400, 'entries.1.score', { entries: [entry(), { ...entry(), score: undefined }] }],
      ['no entry at all', 422, 'entries', { entries: [] }],
      ['more than 500 entries', 422, 'entries', { entries: Array.from({ length: 501 }, () => entry()) }],
      ['a score above 1', 422, 'entries.0.score', { entries: [entry({ score: 1.5 })] }],
      ['a delay of 0 hours', 422, 'entries.0.delay_hours', { entries: [entry({ delay_hours: 0 })] }],
      ['a delay beyond 30 days', 422, 'entries.0.delay_hours', { entries: [entry({ delay_hours: 721 })] }],
      ['a confidence below 0', 422, 'entries.0.confidence', { entries: [entry({ confidence: -0.1 })] }],
      ['an unknown attempt bucket', 422, 'entries.0.attempt_bucket', { entries: [entry({ attempt_bucket: '5' })] }],
      ['an unknown amount bucket', 422, 'entries.0.amount_bucket', { entries: [entry({ amount_bucket: 'huge' })] }],
      ['an unknown currency', 422, 'entries.0.currency', { entries: [entry({ currency: 'xyz' })] }],
      ['an empty model version', 422, 'entries.0.model_version', { entries: [entry({ model_version: ' ' })] }],
      ['a factor with an unknown impact', 422, 'entries.0.factors.0.impact', { entries: [entry({ factors: [{ name: 'x', impact: 'neutral', weight: 1 }] })] }],
    ] as const)('refuses %s with %i naming %s, writing nothing', async (_what, status, param, body) => {
      // Act
      const response = await post(body);
      // Assess
      expect(response.status).toBe(status);
      expect(response.body.error).toMatchObject({ code: status === 400 ? 'invalid_request' : 'validation_error', param });
      for (const value of ((body as { entries?: Record<string, unknown>[] }).entries ?? []).slice(0, 3)) {
        if (typeof value.decline_code === 'string') expect(await getPrecomputedScore(keyOf(value))).toBeUndefined();
      }
    });

    it('refuses malformed JSON with 400', async () => {
      // Act
      const response = await call<Body>(`${originOf(stack)}${PATH}`, {
        method: 'POST',
        rawBody: '{"entries": [',
        headers: { ...cronAuth(), 'Content-Type': 'application/json' },
      });
      // Assess
      expect(response.status).toBe(400);
      expect(response.body.error?.code).toBe('invalid_request');
    });
  });
});
