import { readFileSync, statSync } from 'node:fs';
import type { LocalStack } from '#lib/local/local-stack';
import { routes } from '#api/routes';
import { createApiKey, revokeApiKey } from '#data/api-key-repository';
import { createMerchant } from '#data/merchant-repository';
import { originOf, startTestStack } from '#test/fixtures/local-stack';

describe('the local stack over HTTP', () => {
  let stack: LocalStack;
  let origin: string;

  beforeAll(async () => {
    stack = await startTestStack();
    origin = originOf(stack);
  });

  afterAll(async () => {
    await stack.stop();
  });

  it('answers GET /health without a key', async () => {
    // Act
    const response = await fetch(`${origin}/health`);
    // Assess
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers GET /api/v1/status without a key as unauthenticated', async () => {
    // Act
    const response = await fetch(`${stack.api_url}/status`);
    const body = (await response.json()) as { data: Record<string, unknown>; meta: Record<string, unknown> };
    // Assess
    expect(response.status).toBe(200);
    expect(body.data).toMatchObject({ connected: false, authenticated: false, merchant_id: null, status: 'ok', auth_strategy: 'none' });
    expect(body.meta.request_id).toBe(response.headers.get('x-request-id'));
  });

  it('answers GET /api/v1/status with the demo key with the merchant in A and B fields', async () => {
    // Act
    const response = await fetch(`${stack.api_url}/status`, { headers: { Authorization: `Bearer ${stack.api_key}` } });
    const body = (await response.json()) as { data: Record<string, unknown>; meta: Record<string, unknown> };
    // Assess
    expect(response.status).toBe(200);
    expect(body.data).toMatchObject({
      connected: true,
      merchant_id: stack.merchant_id,
      merchant_name: 'Demo Merchant',
      plan_tier: 'engine',
      auth_strategy: 'api_key',
      status: 'ok',
      version: expect.any(String),
      authenticated: true,
    });
    expect(body.meta.merchant_id).toBe(stack.merchant_id);
    expect(Date.parse(body.data.timestamp as string)).not.toBeNaN();
  });

  it('accepts the key in X-API-Key as form B does', async () => {
    // Act
    const response = await fetch(`${stack.api_url}/status`, { headers: { 'X-API-Key': stack.api_key } });
    // Assess
    expect(((await response.json()) as { data: { merchant_id: string } }).data.merchant_id).toBe(stack.merchant_id);
  });

  it('refuses an unknown key on /status with 401 invalid_api_key rather than ignoring it', async () => {
    // Act
    const response = await fetch(`${stack.api_url}/status`, { headers: { Authorization: `Bearer rk_test_${'x'.repeat(43)}` } });
    const body = (await response.json()) as { error: Record<string, unknown> };
    // Assess
    expect(response.status).toBe(401);
    expect(body.error).toMatchObject({ code: 'invalid_api_key', request_id: response.headers.get('x-request-id') });
  });

  it('refuses a revoked key with 401', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Revoked Co' });
    const { key, record } = await createApiKey({ merchantId: merchant.id, scopes: ['read'], mode: 'test' });
    await revokeApiKey(record.id);
    // Act
    const response = await fetch(`${stack.api_url}/status`, { headers: { Authorization: `Bearer ${key}` } });
    // Assess
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/revoked/);
  });

  it('refuses a key without the route scope with 403 insufficient_scope', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Read Only Co' });
    const { key } = await createApiKey({ merchantId: merchant.id, scopes: ['read'], mode: 'test' });
    // Act
    const response = await fetch(`${stack.api_url}/payments/pe_1/retry`, { method: 'POST', headers: { Authorization: `Bearer ${key}` } });
    // Assess
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('insufficient_scope');
  });

  it('answers an unknown path and a wrong method with 404 in the error envelope', async () => {
    // Act
    const unknown = await fetch(`${origin}/api/v1/nothing`);
    const wrongMethod = await fetch(`${origin}/health`, { method: 'DELETE' });
    // Assess
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('resource_not_found');
    expect(wrongMethod.status).toBe(404);
  });

  it('reaches a built handler for every row of the route table (no 404, no 501, and no 5xx but 503 from an optional part left unconfigured)', async () => {
    // Prepare
    const sample = (path: string): string => path.replace(/\{[^}]+\}/g, 'x_1');
    // Act
    const statuses = await Promise.all(
      routes.map(async (route) => {
        const response = await fetch(`${origin}${sample(route.path)}`, { method: route.method, headers: { Authorization: `Bearer ${stack.api_key}` } });
        const body = (await response.json().catch(() => ({}))) as { error?: { code?: string; message?: string } };
        const message = body.error?.message ?? '';
        return { operationId: route.operationId, status: response.status, code: body.error?.code, message };
      }),
    );
    // Assess: a built operation may answer 404 for the sample id; only the router's own 404 means the row was not reached.
    // Every row is built (pipeline.test.ts shows a row without an operation answering 501).
    // The session proxy without IDP_* set answers 503 service_unavailable from its handler: reached, by design (DESIGN §3, optional parts).
    const unconfigured = (status: number, code: string | undefined) => status === 503 && code === 'service_unavailable';
    const broken = statuses.filter(
      ({ status, code, message }) => (status === 404 && message.startsWith('No route')) || (status >= 500 && !unconfigured(status, code)),
    );
    expect(broken).toEqual([]);
  }, 30_000);

  it('writes the stack file with the URL, endpoint, merchant, key, default gateway, edge origin, unsubscribe key and CRM state key, readable only by its owner', () => {
    // Act
    const file = JSON.parse(readFileSync(stack.stackFilePath as string, 'utf8')) as Record<string, string>;
    // Assess
    expect(file).toEqual({
      api_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/),
      dynamodb_endpoint: process.env.DYNAMODB_ENDPOINT,
      merchant_id: stack.merchant_id,
      api_key: stack.api_key,
      table_name: process.env.TABLE_NAME,
      default_payment_gateway: 'sandbox',
      // For scripts run against the stack: links to this server, signed with its unsubscribe key.
      edge_url: file.api_url?.replace(/\/api\/v1$/, ''),
      unsubscribe_signing_secret: process.env.UNSUBSCRIBE_SIGNING_SECRET,
      // For `admin crm authorize-url`: installation URLs whose state this server's callbacks accept.
      crm_state_signing_secret: process.env.CRM_STATE_SIGNING_SECRET,
      // The CLI seals widget secrets with the stack's own secret-box key.
      secret_box_key: process.env.SECRET_BOX_KEY,
    });
    expect(file.crm_state_signing_secret).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(stack.stackFilePath as string).mode & 0o777).toBe(0o600);
  }, 60_000);
});
