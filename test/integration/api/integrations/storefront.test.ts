/**
 * POST /api/v1/integrations/storefront/register over real HTTP and DynamoDB Local: create (201),
 * idempotent re-register (200, nothing changed), update (200, the old domain released), one shop
 * domain per merchant (409), strict domain validation (422/400 with param), admin scope.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '#data/client';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

interface Body {
  data: { shop_domain: string; created_at: string; updated_at: string };
  meta: { merchant_id?: string };
  error?: { code: string; param?: string };
}

describe('POST /api/v1/integrations/storefront/register', () => {
  let stack: LocalStack;
  let seq = 0;

  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const register = (tenant: Tenant, body: unknown) =>
    call<Body>(`${stack.api_url}/integrations/storefront/register`, { method: 'POST', key: tenant.key, body });
  /** A shop domain no other test registered. */
  const freshDomain = (): string => `shop-${process.pid}-${Date.now().toString(36)}-${(seq += 1)}.myshopify.com`;
  const ownerOf = async (domain: string): Promise<unknown> =>
    (await documentClient.send(new GetCommand({ TableName: process.env.TABLE_NAME as string, Key: { PK: `SHOPDOMAIN#${domain}`, SK: 'SHOPDOMAIN' } }))).Item
      ?.merchant_id;

  it('creates the association (201), and answers the same one (200) when the domain is registered again', async () => {
    // Prepare
    const tenant = await newTenant(['admin'], UNLIMITED);
    const domain = freshDomain();
    // Act
    const created = await register(tenant, { shop_domain: domain });
    const again = await register(tenant, { shop_domain: domain.toUpperCase() });
    // Assess
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({ shop_domain: domain, created_at: expect.any(String), updated_at: created.body.data.created_at });
    expect(created.body.meta.merchant_id).toBe(tenant.merchant.id);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(created.body.data);
    expect(await ownerOf(domain)).toBe(tenant.merchant.id);
  });

  it('replaces the domain (200), keeping created_at, and releases the old one for other merchants', async () => {
    // Prepare
    const tenant = await newTenant(['admin'], UNLIMITED);
    const other = await newTenant(['admin'], UNLIMITED);
    const [before, after] = [freshDomain(), freshDomain()];
    const created = await register(tenant, { shop_domain: before });
    // Act
    const updated = await register(tenant, { shop_domain: after });
    const taken = await register(other, { shop_domain: before });
    // Assess
    expect(updated.status).toBe(200);
    expect(updated.body.data).toEqual({ shop_domain: after, created_at: created.body.data.created_at, updated_at: expect.any(String) });
    expect(taken.status).toBe(201);
    expect({ before: await ownerOf(before), after: await ownerOf(after) }).toEqual({ before: other.merchant.id, after: tenant.merchant.id });
  });

  it("answers 409 with param shop_domain for another merchant's domain, and changes nothing", async () => {
    // Prepare
    const owner = await newTenant(['admin'], UNLIMITED);
    const intruder = await newTenant(['admin'], UNLIMITED);
    const domain = freshDomain();
    const own = freshDomain();
    await register(owner, { shop_domain: domain });
    await register(intruder, { shop_domain: own });
    // Act
    const response = await register(intruder, { shop_domain: domain });
    // Assess
    expect({ status: response.status, code: response.body.error?.code, param: response.body.error?.param }).toEqual({
      status: 409,
      code: 'state_conflict',
      param: 'shop_domain',
    });
    expect({ domain: await ownerOf(domain), own: await ownerOf(own) }).toEqual({ domain: owner.merchant.id, own: intruder.merchant.id });
    expect((await register(intruder, { shop_domain: own })).body.data.shop_domain).toBe(own);
  });

  it.each([
    ['https://acme.myshopify.com'],
    ['acme.myshopify.com/admin'],
    ['acme.myshopify.com:8443'],
    ['admin:secret@acme.myshopify.com'],
    ['localhost'],
    ['10.0.0.1'],
    ['shop.internal'],
    [''],
    [`${'a'.repeat(250)}.com`],
  ])('answers 422 with param shop_domain for %j', async (shopDomain) => {
    // Prepare
    const tenant = await newTenant(['admin']);
    // Act
    const response = await register(tenant, { shop_domain: shopDomain });
    // Assess
    expect({ status: response.status, code: response.body.error?.code, param: response.body.error?.param }).toEqual({
      status: 422,
      code: 'validation_error',
      param: 'shop_domain',
    });
  });

  it('answers 400 with param shop_domain when it is missing', async () => {
    // Prepare
    const tenant = await newTenant(['admin']);
    // Act
    const response = await register(tenant, {});
    // Assess
    expect({ status: response.status, code: response.body.error?.code, param: response.body.error?.param }).toEqual({
      status: 400,
      code: 'invalid_request',
      param: 'shop_domain',
    });
  });

  it('needs the admin scope', async () => {
    // Prepare
    const tenant = await newTenant(['read', 'write']);
    // Act
    const response = await register(tenant, { shop_domain: freshDomain() });
    // Assess
    expect({ status: response.status, code: response.body.error?.code }).toEqual({ status: 403, code: 'insufficient_scope' });
  });
});
