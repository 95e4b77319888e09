/**
 * GET /api/v1/decline-codes/categories and /decline-codes/{code} over HTTP: the taxonomy (which
 * takes precedence over a code lookup), case-insensitive lookups with provider variations, 404 for
 * unknown codes, and scopes.
 */
import { DeclineCodeResponse, ListDeclineCategoriesResponse } from '#api/decline-codes/schemas';
import { declineCodeCatalogue, getDeclineCodeVariations } from '#core/decline-codes/index';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

interface Variation {
  code: string;
  psp: string;
  category: string;
  subcategory: string;
  recommended_action: string;
  recovery_rate: number;
}

interface CategoryBody {
  data: Array<{ category: string; description: string; expected_recovery_rate: number; recommended_strategy: string; subcategories: string[] }>;
  error?: { code: string; param?: string };
}

interface CodeBody {
  data: { code: string; category?: string; subcategory?: string; recommended_strategy?: string; variations: Variation[] };
  error?: { code: string; param?: string };
}

describe('GET /api/v1/decline-codes/categories', () => {
  let stack: LocalStack;
  let tenant: Tenant;

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['read'], UNLIMITED);
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  it('returns the 4 categories whose subcategories cover every catalogue record', async () => {
    // Act
    const response = await call<CategoryBody>(`${stack.api_url}/decline-codes/categories`, { key: tenant.key });
    // Assess
    expect(response.status).toBe(200);
    expect(ListDeclineCategoriesResponse.safeParse(response.body).success).toBe(true);
    expect(response.body.data.map((record) => record.category)).toEqual(['soft_retry', 'hard_customer', 'terminal', 'unknown']);
    const soft = response.body.data.find((record) => record.category === 'soft_retry');
    expect(soft?.subcategories).toEqual(expect.arrayContaining(['balance', 'limit', 'processing_error']));
    const hard = response.body.data.find((record) => record.category === 'hard_customer');
    expect(hard?.subcategories).toEqual(expect.arrayContaining(['expired', 'stolen', 'closed']));
    const pairs = new Set(response.body.data.flatMap((record) => record.subcategories.map((subcategory) => `${record.category}/${subcategory}`)));
    for (const record of declineCodeCatalogue()) expect(pairs).toContain(`${record.category}/${record.subcategory}`);
    for (const record of response.body.data) {
      expect(record.expected_recovery_rate).toBeGreaterThanOrEqual(0);
      expect(record.expected_recovery_rate).toBeLessThanOrEqual(1);
      expect(record.description.length).toBeGreaterThan(0);
    }
  });

  it('answers the taxonomy, not a code lookup, when the path is the literal /categories', async () => {
    // Act
    const response = await call<CategoryBody & CodeBody>(`${stack.api_url}/decline-codes/categories`, { key: tenant.key });
    // Assess
    expect(response.status).toBe(200);
    expect(Array.isArray(response.body.data)).toBe(true);
    expect(DeclineCodeResponse.safeParse(response.body).success).toBe(false);
  });

  it('answers 403 insufficient_scope when the key has only the email scope', async () => {
    // Prepare
    const emailOnly = await newTenant(['email'], UNLIMITED);
    // Act
    const response = await call<CategoryBody>(`${stack.api_url}/decline-codes/categories`, { key: emailOnly.key });
    // Assess
    expect(response.status).toBe(403);
    expect(response.body.error?.code).toBe('insufficient_scope');
  });
});

describe('GET /api/v1/decline-codes/{code}', () => {
  let stack: LocalStack;
  let tenant: Tenant;

  const get = (code: string, key = tenant.key) => call<CodeBody>(`${stack.api_url}/decline-codes/${encodeURIComponent(code)}`, { key });
  const pspsOf = (body: CodeBody) => body.data.variations.map((variation) => variation.psp);

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['read'], UNLIMITED);
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  it('returns a code with its variations across providers and the shared category', async () => {
    // Act
    const response = await get('insufficient_funds');
    // Assess
    expect(response.status).toBe(200);
    expect(DeclineCodeResponse.safeParse(response.body).success).toBe(true);
    expect(pspsOf(response.body)).toEqual(['chargebee', 'gocardless', 'mollie', 'razorpay', 'recurly', 'square', 'stripe']);
    expect(response.body.data).toMatchObject({ code: 'insufficient_funds', category: 'soft_retry', subcategory: 'balance' });
    expect(response.body.data.recommended_strategy).toEqual(expect.any(String));
    expect(response.body.data.variations.find((variation) => variation.psp === 'square')?.code).toBe('INSUFFICIENT_FUNDS');
  });

  it('finds the same variations ignoring case', async () => {
    // Act
    const upper = await get('INSUFFICIENT_FUNDS');
    const mixed = await get('Insufficient_Funds');
    const lower = await get('insufficient_funds');
    // Assess
    expect(upper.status).toBe(200);
    expect(mixed.status).toBe(200);
    expect(upper.body.data).toEqual(lower.body.data);
    expect(mixed.body.data).toEqual(lower.body.data);
  });

  it('leaves category off the top level when providers disagree on it', async () => {
    // Act
    const response = await get('restricted_card');
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data.variations).toHaveLength(getDeclineCodeVariations('restricted_card').length);
    expect(new Set(response.body.data.variations.map((variation) => variation.category)).size).toBeGreaterThan(1);
    expect(response.body.data.category).toBeUndefined();
    expect(response.body.data.recommended_strategy).toBeUndefined();
  });

  it('looks up a code with dots after percent-decoding the path', async () => {
    // Act
    const response = await get('gateway.general.decline');
    // Assess
    expect(response.status).toBe(200);
    expect(pspsOf(response.body)).toEqual(['chargebee']);
    expect(response.body.data.category).toBe(response.body.data.variations[0]?.category);
  });

  it.each([['no_such_code'], ['catego ries'], ['%zz']])('answers 404 resource_not_found when no provider has %s', async (code) => {
    // Act
    const response = await get(code);
    // Assess
    expect(response.status).toBe(404);
    expect(response.body.error?.code).toBe('resource_not_found');
  });

  it('answers 403 insufficient_scope when the key has only the email scope, and 200 with read', async () => {
    // Prepare
    const emailOnly = await newTenant(['email'], UNLIMITED);
    // Act
    const refused = await get('insufficient_funds', emailOnly.key);
    const allowed = await get('insufficient_funds', tenant.key);
    // Assess
    expect(refused.status).toBe(403);
    expect(refused.body.error?.code).toBe('insufficient_scope');
    expect(allowed.status).toBe(200);
  });
});
