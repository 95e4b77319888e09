/**
 * The request pipeline of every API-key route (functions/api/group-handler.ts), over real HTTP
 * and DynamoDB Local. Until the product's own POST routes exist, it runs a small route table of
 * its own through the same server and handler factory; its operations do real DynamoDB writes so
 * that executions can be counted.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { z } from 'zod';
import { createGroupHandler } from '#api/group-handler';
import { apiKeyAuth } from '#api/pipeline/api-key';
import { providerSignatureAuth } from '#api/pipeline/authenticator';
import { defineOperation } from '#api/operation';
import { type RouteDef, validateRoutes } from '#api/route-types';
import { ResourceNotFoundError } from '#core/errors';
import { createApiKey } from '#data/api-key-repository';
import { documentClient } from '#data/client';
import { cursorPagingQuery, offsetPagingQuery, queryCursorPage, queryOffsetPage } from '#api/pipeline/paging';
import { type LocalHttpServer, startLocalHttpServer } from '#lib/local/http-server';
import { awayFromMinuteBoundary, call } from '#test/fixtures/http';
import { expectOtherMerchantGets404, newTenant, type Tenant } from '#test/fixtures/tenants';

const TABLE = process.env.TABLE_NAME as string;
const schemas = {
  list: { query: z.object({ status: z.enum(['open', 'closed']).optional(), ...offsetPagingQuery }) },
  create: {
    body: z.object({
      name: z.string().min(1).max(20),
      count: z.number().int().min(0).max(10).default(0),
      nested: z.object({ color: z.enum(['red', 'blue']) }).optional(),
    }),
  },
  get: { params: z.object({ id: z.string().regex(/^thing_\d+$/) }) },
  fail: {},
  flaky: {},
  cursor: { query: z.object({ status: z.enum(['open', 'closed']).optional(), ...cursorPagingQuery }) },
  page: { query: z.object(offsetPagingQuery) },
};
const row = (operationId: string, method: RouteDef['method'], path: string, scopes: RouteDef['scopes'], s: RouteDef['schemas']): RouteDef => ({
  operationId,
  group: 'pipeline-test',
  api: 'merchant',
  method,
  path: `/api/v1/pipeline-test${path}`,
  auth: 'api_key',
  scopes,
  summary: operationId,
  ...(s ? { schemas: s } : {}),
});
const table: RouteDef[] = [
  row('listThings', 'GET', '/things', ['read', 'read:customers'], schemas.list),
  row('createThing', 'POST', '/things', ['write'], schemas.create),
  row('getThing', 'GET', '/things/{id}', ['read'], schemas.get),
  row('failThing', 'POST', '/fail', ['write'], schemas.fail),
  row('flakyThing', 'POST', '/flaky', ['write'], schemas.flaky),
  row('listThingsByCursor', 'GET', '/cursor-things', ['read'], schemas.cursor),
  row('pageThings', 'GET', '/things-page', ['read'], schemas.page),
  row('notBuiltThing', 'DELETE', '/things/{id}', ['write'], undefined),
];
validateRoutes(table);

/** Counts executions of an operation for a merchant with a real conditional-free ADD. */
async function countExecution(merchantId: string, name: string): Promise<number> {
  const { Attributes } = await documentClient.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: { PK: `M#${merchantId}`, SK: `TEST#${name}` },
      UpdateExpression: 'ADD executions :one',
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(Attributes?.executions);
}
async function executions(merchantId: string, name: string): Promise<number> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: TABLE, Key: { PK: `M#${merchantId}`, SK: `TEST#${name}` }, ConsistentRead: true }));
  return Number(Item?.executions ?? 0);
}

const thingsOf = (merchantId: string) => ({
  TableName: TABLE,
  KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
  ExpressionAttributeValues: { ':pk': `M#${merchantId}`, ':sk': 'THING#' },
});

const handler = createGroupHandler(
  table,
  {
    listThings: defineOperation({ auth: 'api_key', schemas: schemas.list }, async ({ query, requestId }) => ({
      body: { data: { query }, meta: { request_id: requestId } },
    })),
    createThing: defineOperation({ auth: 'api_key', schemas: schemas.create }, async ({ body, principal }) => {
      const merchantId = principal.merchantId;
      const n = await countExecution(merchantId, 'create');
      await new Promise((done) => setTimeout(done, 150));
      await documentClient.send(
        new UpdateCommand({
          TableName: TABLE,
          Key: { PK: `M#${merchantId}`, SK: `THING#thing_${n}` },
          UpdateExpression: 'SET #body = :body',
          ExpressionAttributeNames: { '#body': 'body' },
          ExpressionAttributeValues: { ':body': body },
        }),
      );
      return { statusCode: 201, body: { data: { id: `thing_${n}`, ...body } } };
    }),
    getThing: defineOperation({ auth: 'api_key', schemas: schemas.get }, async ({ params, principal }) => {
      const { Item } = await documentClient.send(new GetCommand({ TableName: TABLE, Key: { PK: `M#${principal.merchantId}`, SK: `THING#${params.id}` } }));
      if (Item === undefined) throw new ResourceNotFoundError(`No thing ${params.id}.`);
      return { body: { data: { id: params.id, ...(Item.body as object) } } };
    }),
    failThing: defineOperation({ auth: 'api_key', schemas: schemas.fail }, async () => {
      throw new Error('connection to 10.1.2.3 failed with secret sk_live_abc');
    }),
    listThingsByCursor: defineOperation({ auth: 'api_key', schemas: schemas.cursor }, async ({ query, principal }) => {
      const page = await queryCursorPage(thingsOf(principal.merchantId), {
        merchantId: principal.merchantId,
        list: 'things',
        query,
        cursor: query.cursor,
        limit: query.limit,
      });
      return { body: { data: page.items.map((item) => item.SK), cursor: page.cursor } };
    }),
    pageThings: defineOperation({ auth: 'api_key', schemas: schemas.page }, async ({ query, principal }) => {
      const total = await executions(principal.merchantId, 'create');
      const page = await queryOffsetPage(thingsOf(principal.merchantId), query.page, query.per_page, total);
      return { body: { data: page.items.map((item) => item.SK), pagination: page.pagination } };
    }),
    flakyThing: defineOperation({ auth: 'api_key', schemas: schemas.flaky }, async ({ principal }) => {
      const n = await countExecution(principal.merchantId, 'flaky');
      if (n === 1) throw new Error('first attempt fails');
      return { statusCode: 201, body: { data: { attempt: n } } };
    }),
  },
  apiKeyAuth,
);

describe('the request pipeline', () => {
  let server: LocalHttpServer;
  let base: string;
  let tenant: Tenant;

  beforeAll(async () => {
    server = await startLocalHttpServer({ routes: table, loadHandler: async () => handler, port: 0 });
    base = `${server.url}/api/v1/pipeline-test`;
    tenant = await newTenant(['admin']);
  });

  afterAll(async () => {
    await server.close();
  });

  describe('authentication and scopes', () => {
    it('refuses a missing key with 401 invalid_api_key, X-Request-Id and no rate-limit headers', async () => {
      // Act
      const response = await call<{ error: Record<string, unknown> }>(`${base}/things`);
      // Assess
      expect(response.status).toBe(401);
      expect(response.body.error).toMatchObject({ code: 'invalid_api_key', request_id: response.headers.get('x-request-id') });
      expect(response.headers.get('x-ratelimit-limit')).toBeNull();
    });

    it.each([
      ['a malformed key', { Authorization: 'Bearer not-a-key' }],
      ['an unknown key', { Authorization: `Bearer rk_live_${'A'.repeat(43)}` }],
      ['a Basic credential', { Authorization: 'Basic dXNlcjpwYXNz' }],
      ['an empty X-API-Key', { 'X-API-Key': '' }],
    ])('refuses %s with 401', async (_name, headers) => {
      // Act
      const response = await call<{ error: { code: string } }>(`${base}/things`, { headers });
      // Assess
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('invalid_api_key');
    });

    it('refuses an expired key with 401', async () => {
      // Prepare
      const { key } = await createApiKey({ merchantId: tenant.merchant.id, scopes: ['read'], mode: 'test', expiresInSeconds: 1 });
      await new Promise((done) => setTimeout(done, 1100));
      // Act
      const response = await call<{ error: { code: string; message: string } }>(`${base}/things`, { key });
      // Assess
      expect(response.status).toBe(401);
      expect(response.body.error.message).toMatch(/expired/);
    });

    it.each([
      [['read'], 'POST', 403],
      [['read:payments'], 'GET', 403],
      [['read:customers'], 'GET', 200],
      [['write'], 'GET', 200],
      [['write'], 'POST', 201],
      [['admin'], 'POST', 201],
      [['analytics'], 'GET', 403],
    ] as const)('with scopes %j answers %s with %i', async (scopes, method, status) => {
      // Prepare
      const { key } = await createApiKey({ merchantId: tenant.merchant.id, scopes: [...scopes], mode: 'test' });
      // Act
      const response = await call<{ error?: { code: string; message: string } }>(`${base}/things`, {
        key,
        method,
        ...(method === 'POST' ? { body: { name: 'x' } } : {}),
      });
      // Assess
      expect(response.status).toBe(status);
      if (status === 403) {
        expect(response.body.error?.code).toBe('insufficient_scope');
        expect(response.body.error?.message).toMatch(method === 'POST' ? /write/ : /read/);
      }
    });

    it('counts a 403 against the key and gives it the rate-limit headers, like every response after authentication', async () => {
      // Prepare
      const { key } = await createApiKey({ merchantId: tenant.merchant.id, scopes: ['read'], mode: 'test' });
      // Act
      const first = await call<{ error: { code: string } }>(`${base}/things`, { key, method: 'POST', body: { name: 'x' } });
      const second = await call<{ error: { code: string } }>(`${base}/things`, { key, method: 'POST', body: { name: 'x' } });
      // Assess
      expect([first.status, second.status]).toEqual([403, 403]);
      expect(first.body.error.code).toBe('insufficient_scope');
      expect(first.headers.get('x-ratelimit-limit')).toBe('100');
      expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(Number(first.headers.get('x-ratelimit-remaining')) - 1);
    });

    it('refuses Authorization and X-API-Key naming two different keys with 400, and accepts both naming the same key', async () => {
      // Prepare
      const other = await createApiKey({ merchantId: tenant.merchant.id, scopes: ['read'], mode: 'test' });
      // Act
      const conflicting = await call<{ error: { code: string; param?: string } }>(`${base}/things`, {
        headers: { Authorization: `Bearer ${tenant.key}`, 'X-API-Key': other.key },
      });
      const agreeing = await call(`${base}/things`, { headers: { Authorization: `Bearer ${tenant.key}`, 'X-API-Key': tenant.key } });
      // Assess
      expect(conflicting.status).toBe(400);
      expect(conflicting.body.error).toMatchObject({ code: 'invalid_request', param: 'X-API-Key' });
      expect(agreeing.status).toBe(200);
    });

    it('takes the tenant from the key, whatever the body or path says', async () => {
      // Prepare
      const created = await call<{ data: { id: string } }>(`${base}/things`, {
        key: tenant.key,
        method: 'POST',
        body: { name: 'mine', merchant_id: 'merch_someone_else' },
      });
      // Act and assess
      await expectOtherMerchantGets404(`${base}/things/${created.body.data.id}`);
      expect((await call(`${base}/things/${created.body.data.id}`, { key: tenant.key })).status).toBe(200);
    });
  });

  describe('validation', () => {
    it.each([
      ['malformed JSON', 400, 'invalid_request', undefined, { rawBody: '{"name":', headers: { 'Content-Type': 'application/json' } }],
      ['a JSON array body', 400, 'invalid_request', undefined, { body: [1, 2] }],
      ['a missing required field', 400, 'invalid_request', 'name', { body: { count: 1 } }],
      ['no body at all', 400, 'invalid_request', 'name', {}],
      ['a value too long', 422, 'validation_error', 'name', { body: { name: 'x'.repeat(21) } }],
      ['a value of the wrong type', 422, 'validation_error', 'count', { body: { name: 'x', count: 'three' } }],
      ['a nested bad value', 422, 'validation_error', 'nested.color', { body: { name: 'x', nested: { color: 'green' } } }],
      ['a body over 256 KB', 400, 'invalid_request', undefined, { body: { name: 'x', pad: 'y'.repeat(300 * 1024) } }],
    ] as const)('answers %s with %i %s', async (_name, status, code, param, options) => {
      // Act
      const response = await call<{ error: { code: string; param?: string } }>(`${base}/things`, { key: tenant.key, method: 'POST', ...(options as object) });
      // Assess
      expect(response.status).toBe(status);
      expect(response.body.error.code).toBe(code);
      expect(response.body.error.param).toBe(param);
    });

    it.each([
      ['an unknown filter value', '?status=bogus', 400, 'invalid_request', 'status'],
      ['per_page over 100', '?per_page=500', 422, 'validation_error', 'per_page'],
      ['a page that is not a number', '?page=two', 422, 'validation_error', 'page'],
    ])('answers %s in the query with %i %s', async (_name, query, status, code, param) => {
      // Act
      const response = await call<{ error: { code: string; param?: string } }>(`${base}/things${query}`, { key: tenant.key });
      // Assess
      expect(response.status).toBe(status);
      expect(response.body.error).toMatchObject({ code, param });
    });

    it('applies paging defaults and keeps valid filters', async () => {
      // Act
      const response = await call<{ data: { query: unknown } }>(`${base}/things?status=open`, { key: tenant.key });
      // Assess
      expect(response.body.data.query).toEqual({ status: 'open', page: 1, per_page: 25 });
    });

    it('drops unknown body fields instead of storing them', async () => {
      // Act
      const created = await call<{ data: Record<string, unknown> }>(`${base}/things`, {
        key: tenant.key,
        method: 'POST',
        body: { name: 'kept', sneaky: 'dropped' },
      });
      const read = await call<{ data: Record<string, unknown> }>(`${base}/things/${created.body.data.id as string}`, { key: tenant.key });
      // Assess
      expect(created.body.data).toEqual({ id: expect.any(String), name: 'kept', count: 0 });
      expect(read.body.data).not.toHaveProperty('sneaky');
    });

    it('answers a path parameter outside its pattern with 404 resource_not_found naming it', async () => {
      // Act
      const response = await call<{ error: { code: string; param: string } }>(`${base}/things/nope`, { key: tenant.key });
      // Assess
      expect(response.status).toBe(404);
      expect(response.body.error).toMatchObject({ code: 'resource_not_found', param: 'id' });
    });

    it.each([
      ['10 KB long', 'thing_'.padEnd(10 * 1024, '1')],
      ['321 bytes long', `thing_${'1'.repeat(315)}`],
      ['ending in a space', 'thing_1 '],
      ['holding a tab', 'thing_1\t2'],
      ['holding a control character', 'thing_1\u0000'],
      ['holding a line break', 'thing_1\n'],
    ])('answers an id %s with 404 before the operation reads it, whatever the row schema allows', async (_name, id) => {
      // Act
      const response = await call<{ error: { code: string; param: string } }>(`${base}/things/${encodeURIComponent(id)}`, { key: tenant.key });
      // Assess
      expect(response.status).toBe(404);
      expect(response.body.error).toMatchObject({ code: 'resource_not_found', param: 'id' });
    });

    it('refuses broken percent-encoding in a path parameter with 400', async () => {
      // Act
      const response = await call<{ error: { code: string; param: string } }>(`${base}/things/thing_%E0%A4`, { key: tenant.key });
      // Assess
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'invalid_request', param: 'id' });
    });

    it.each([
      ['a misspelt filter', '/things?stauts=open', 'stauts'],
      ['an unknown name beside known ones', '/things?status=open&page=1&sort=desc', 'sort'],
      ['any name on a row without a query schema', '/things/thing_1?expand=all', 'expand'],
      ['a cursor on an offset list', '/things-page?cursor=abc', 'cursor'],
    ])('refuses %s with 400 invalid_request naming it', async (_name, path, param) => {
      // Act
      const response = await call<{ error: { code: string; param: string; message: string } }>(`${base}${path}`, { key: tenant.key });
      // Assess
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'invalid_request', param });
      expect(response.body.error.message).toContain(param);
    });

    it.each([
      ['10,000 levels deep in a field', `{"name":"x","nested":${'['.repeat(10_000)}${']'.repeat(10_000)}}`, 'nested'],
      ['10,000 levels of objects', `{"name":"x","nested":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`, 'nested'],
      ['100,000 levels deep', `{"nested":${'['.repeat(100_000)}${']'.repeat(100_000)}}`, 'nested'],
      ['a __proto__ key', '{"name":"x","nested":{"__proto__":{"color":"red"}}}', 'nested.__proto__'],
      ['a top-level __proto__ key', '{"__proto__":{"name":"x"}}', '__proto__'],
    ])('refuses a body nesting %s with 400 invalid_request and writes nothing', async (_name, rawBody, param) => {
      // Prepare
      const owner = await newTenant(['admin']);
      // Act
      const response = await call<{ error: { code: string; param?: string } }>(`${base}/things`, {
        key: owner.key,
        method: 'POST',
        rawBody,
        headers: { 'Content-Type': 'application/json' },
      });
      // Assess
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_request');
      expect(response.body.error.param).toBe(param);
      expect(await executions(owner.merchant.id, 'create')).toBe(0);
    });
  });

  describe('errors', () => {
    it('answers an unexpected failure with 500 internal_error that leaks nothing', async () => {
      // Act
      const response = await call<{ error: Record<string, unknown> }>(`${base}/fail`, { key: tenant.key, method: 'POST' });
      // Assess
      expect(response.status).toBe(500);
      expect(response.body.error).toEqual({
        code: 'internal_error',
        message: 'An unexpected error occurred.',
        request_id: response.headers.get('x-request-id'),
      });
      expect(response.text).not.toMatch(/10\.1\.2\.3|sk_live|connection/);
    });

    it('answers a row without an operation with 501 not_implemented after authenticating', async () => {
      // Act
      const anonymous = await call(`${base}/things/thing_1`, { method: 'DELETE' });
      const keyed = await call<{ error: { code: string } }>(`${base}/things/thing_1`, { method: 'DELETE', key: tenant.key });
      // Assess
      expect(anonymous.status).toBe(401);
      expect(keyed.status).toBe(501);
      expect(keyed.body.error.code).toBe('not_implemented');
    });
  });

  describe('rate limits', () => {
    it('sends the rate-limit headers on successes and on errors after authentication', async () => {
      // Prepare
      const own = await newTenant(['admin']);
      await awayFromMinuteBoundary();
      // Act
      const ok = await call(`${base}/things`, { key: own.key });
      const invalid = await call(`${base}/things?status=bogus`, { key: own.key });
      // Assess
      expect(ok.headers.get('x-ratelimit-limit')).toBe('100');
      expect(ok.headers.get('x-ratelimit-remaining')).toBe('99');
      expect(invalid.headers.get('x-ratelimit-remaining')).toBe('98');
      const reset = Number(ok.headers.get('x-ratelimit-reset'));
      expect(reset % 60).toBe(0);
      expect(reset).toBeGreaterThan(Date.now() / 1000);
    }, 30_000);

    it('passes exactly the limit of 150 parallel requests against a limit of 100', async () => {
      // Prepare
      const own = await newTenant(['read']);
      await awayFromMinuteBoundary();
      // Act
      const responses = await Promise.all(
        Array.from({ length: 150 }, () => call<{ error?: { code: string; retry_after: number } }>(`${base}/things`, { key: own.key })),
      );
      // Assess
      const passed = responses.filter((r) => r.status === 200);
      const limited = responses.filter((r) => r.status === 429);
      expect(passed).toHaveLength(100);
      expect(limited).toHaveLength(50);
      const sample = limited[0];
      expect(sample?.body.error?.code).toBe('rate_limit_exceeded');
      expect(sample?.body.error?.retry_after).toBeGreaterThan(0);
      expect(sample?.headers.get('retry-after')).toBe(String(sample?.body.error?.retry_after));
      expect(sample?.headers.get('x-ratelimit-remaining')).toBe('0');
    }, 30_000);

    it('keeps reads and writes in separate buckets with the merchant own limits', async () => {
      // Prepare
      const own = await newTenant(['admin'], { read_per_minute: 200, write_per_minute: 3 });
      await awayFromMinuteBoundary();
      // Act
      const writes = [];
      for (let i = 0; i < 4; i += 1) writes.push(await call(`${base}/things`, { key: own.key, method: 'POST', body: { name: `w${i}` } }));
      const read = await call(`${base}/things`, { key: own.key });
      // Assess
      expect(writes.map((r) => r.status)).toEqual([201, 201, 201, 429]);
      expect(writes[0]?.headers.get('x-ratelimit-limit')).toBe('3');
      expect(read.status).toBe(200);
      expect(read.headers.get('x-ratelimit-limit')).toBe('200');
    }, 30_000);
  });

  describe('idempotency', () => {
    it('replays the first response byte for byte without running the operation again', async () => {
      // Prepare
      const own = await newTenant(['admin']);
      const headers = { 'Idempotency-Key': 'order-1' };
      // Act
      const first = await call(`${base}/things`, { key: own.key, method: 'POST', body: { name: 'once' }, headers });
      const second = await call(`${base}/things`, { key: own.key, method: 'POST', body: { name: 'once' }, headers });
      // Assess
      expect(first.status).toBe(201);
      expect(second.status).toBe(201);
      expect(second.text).toBe(first.text);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
      expect(await executions(own.merchant.id, 'create')).toBe(1);
    });

    it('refuses the same key with a different body with 422 naming Idempotency-Key', async () => {
      // Prepare
      const own = await newTenant(['admin']);
      const headers = { 'Idempotency-Key': 'order-2' };
      await call(`${base}/things`, { key: own.key, method: 'POST', body: { name: 'a' }, headers });
      // Act
      const response = await call<{ error: { code: string; param: string } }>(`${base}/things`, { key: own.key, method: 'POST', body: { name: 'b' }, headers });
      // Assess
      expect(response.status).toBe(422);
      expect(response.body.error).toMatchObject({ code: 'validation_error', param: 'Idempotency-Key' });
    });

    it('runs the operation exactly once for 20 parallel requests with one key', async () => {
      // Prepare
      const own = await newTenant(['admin'], { read_per_minute: 100, write_per_minute: 100 });
      await awayFromMinuteBoundary();
      const headers = { 'Idempotency-Key': 'burst-1' };
      // Act
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => call(`${base}/things`, { key: own.key, method: 'POST', body: { name: 'burst' }, headers })),
      );
      // Assess
      expect(await executions(own.merchant.id, 'create')).toBe(1);
      const statuses = responses.map((r) => r.status);
      expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
      expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
      const conflict = responses.find((r) => r.status === 409);
      if (conflict !== undefined) expect((conflict.body as { error: { code: string } }).error.code).toBe('state_conflict');
      const replay = await call(`${base}/things`, { key: own.key, method: 'POST', body: { name: 'burst' }, headers });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
    }, 30_000);

    it('does not store a 5xx, so a retry with the same key runs again', async () => {
      // Prepare
      const own = await newTenant(['admin']);
      const headers = { 'Idempotency-Key': 'flaky-1' };
      // Act
      const first = await call(`${base}/flaky`, { key: own.key, method: 'POST', headers });
      const second = await call<{ data: { attempt: number } }>(`${base}/flaky`, { key: own.key, method: 'POST', headers });
      // Assess
      expect(first.status).toBe(500);
      expect(second.status).toBe(201);
      expect(second.body.data.attempt).toBe(2);
      expect(second.headers.get('idempotent-replayed')).toBeNull();
    });

    it('stores a 4xx result and replays it', async () => {
      // Prepare
      const own = await newTenant(['admin']);
      const headers = { 'Idempotency-Key': 'bad-1' };
      // Act
      const first = await call(`${base}/things`, { key: own.key, method: 'POST', body: { name: '' }, headers });
      const second = await call(`${base}/things`, { key: own.key, method: 'POST', body: { name: '' }, headers });
      // Assess
      expect(first.status).toBe(422);
      expect(second.text).toBe(first.text);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
    });

    it('keeps keys per merchant', async () => {
      // Prepare
      const a = await newTenant(['admin']);
      const b = await newTenant(['admin']);
      const headers = { 'Idempotency-Key': 'shared-key' };
      // Act
      await call(`${base}/things`, { key: a.key, method: 'POST', body: { name: 'a' }, headers });
      const other = await call(`${base}/things`, { key: b.key, method: 'POST', body: { name: 'b' }, headers });
      // Assess
      expect(other.status).toBe(201);
      expect(other.headers.get('idempotent-replayed')).toBeNull();
    });

    it('refuses an Idempotency-Key longer than 255 characters with 400', async () => {
      // Act
      const response = await call<{ error: { param: string } }>(`${base}/things`, {
        key: tenant.key,
        method: 'POST',
        body: { name: 'x' },
        headers: { 'Idempotency-Key': 'k'.repeat(256) },
      });
      // Assess
      expect(response.status).toBe(400);
      expect(response.body.error.param).toBe('Idempotency-Key');
    });
  });

  describe('paging', () => {
    let owner: Tenant;
    beforeAll(async () => {
      owner = await newTenant(['admin'], { read_per_minute: 1000, write_per_minute: 1000 });
      for (let i = 0; i < 7; i += 1) await call(`${base}/things`, { key: owner.key, method: 'POST', body: { name: `t${i}` } });
    }, 30_000);

    it('walks a cursor-paged list to its end without repeats', async () => {
      // Act
      const seen: string[] = [];
      let next: string | null = null;
      let pages = 0;
      do {
        const query: string = next === null ? '?limit=3' : `?limit=3&cursor=${encodeURIComponent(next)}`;
        const page: { body: { data: string[]; cursor: { next: string | null } } } = await call(`${base}/cursor-things${query}`, { key: owner.key });
        seen.push(...page.body.data);
        next = page.body.cursor.next;
        pages += 1;
      } while (next !== null && pages < 10);
      // Assess
      expect(seen).toHaveLength(7);
      expect(new Set(seen).size).toBe(7);
      expect(pages).toBe(3);
    });

    it('refuses an altered cursor and another merchant cursor with 400 naming cursor', async () => {
      // Prepare
      const first = await call<{ cursor: { next: string } }>(`${base}/cursor-things?limit=2`, { key: owner.key });
      const cursor = first.body.cursor.next;
      const [payload, signature] = cursor.split('.');
      const forged = `${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload as string, 'base64url').toString()), m: tenant.merchant.id })).toString('base64url')}.${signature}`;
      // Act
      const altered = await call<{ error: { code: string; param: string } }>(`${base}/cursor-things?cursor=${encodeURIComponent(`${cursor}x`)}`, {
        key: owner.key,
      });
      const stolen = await call<{ error: { code: string; param: string } }>(`${base}/cursor-things?cursor=${encodeURIComponent(cursor)}`, { key: tenant.key });
      const forgedAnswer = await call<{ error: { code: string; param: string } }>(`${base}/cursor-things?cursor=${encodeURIComponent(forged)}`, {
        key: tenant.key,
      });
      const garbage = await call<{ error: { code: string; param: string } }>(`${base}/cursor-things?cursor=not-a-cursor`, { key: owner.key });
      // Assess
      for (const response of [altered, stolen, forgedAnswer, garbage]) {
        expect(response.status).toBe(400);
        expect(response.body.error).toMatchObject({ code: 'invalid_request', param: 'cursor' });
      }
    });

    it('refuses a cursor reused with other filters with 400 naming cursor, and keeps it for its own filters with another limit', async () => {
      // Prepare
      const first = await call<{ cursor: { next: string } }>(`${base}/cursor-things?limit=2&status=open`, { key: owner.key });
      const cursor = encodeURIComponent(first.body.cursor.next);
      // Act
      const otherValue = await call<{ error: { code: string; param: string } }>(`${base}/cursor-things?status=closed&cursor=${cursor}`, { key: owner.key });
      const dropped = await call<{ error: { code: string; param: string } }>(`${base}/cursor-things?cursor=${cursor}`, { key: owner.key });
      const same = await call<{ data: string[] }>(`${base}/cursor-things?status=open&limit=3&cursor=${cursor}`, { key: owner.key });
      // Assess
      for (const response of [otherValue, dropped]) {
        expect(response.status).toBe(400);
        expect(response.body.error).toMatchObject({ code: 'invalid_request', param: 'cursor' });
      }
      expect(same.status).toBe(200);
      expect(same.body.data).toHaveLength(3);
    });

    it('pages an offset list with the pagination block', async () => {
      // Act
      const second = await call<{ data: string[]; pagination: unknown }>(`${base}/things-page?page=2&per_page=3`, { key: owner.key });
      const last = await call<{ data: string[]; pagination: unknown }>(`${base}/things-page?page=3&per_page=3`, { key: owner.key });
      const beyond = await call<{ data: string[]; pagination: unknown }>(`${base}/things-page?page=9&per_page=3`, { key: owner.key });
      // Assess
      expect(second.body.data).toHaveLength(3);
      expect(second.body.pagination).toEqual({ total: 7, page: 2, per_page: 3, total_pages: 3 });
      expect(last.body.data).toHaveLength(1);
      expect(beyond.body.data).toEqual([]);
    });
  });
});

describe('createGroupHandler', () => {
  it('refuses, when the group loads, an operation defined with another auth kind than its row', () => {
    // Prepare
    const listThings = defineOperation({ auth: 'public', schemas: schemas.list }, async () => ({ body: {} }));
    // Act and assess
    expect(() => createGroupHandler(table, { listThings }, apiKeyAuth)).toThrow(/auth kind \(api_key\)/);
  });

  it("refuses, when the group loads, a row whose auth kind's authenticator the group was not given", () => {
    // Act and assess: a group of api_key rows given only the provider-signature authenticator
    expect(() => createGroupHandler(table, {}, providerSignatureAuth)).toThrow(/listThings needs the api_key authenticator/);
  });

  it('answers 501 for a signed row whose operation, and so its verifier, is not built', async () => {
    // Prepare
    const signedRow: RouteDef = {
      ...(table[0] as RouteDef),
      operationId: 'receiveThing',
      method: 'POST',
      path: '/api/v1/pipeline-test/signed',
      auth: 'provider_signature',
      scopes: [],
    };
    const signedHandler = createGroupHandler([signedRow], {}, providerSignatureAuth);
    const server = await startLocalHttpServer({ routes: [signedRow], loadHandler: async () => signedHandler, port: 0 });
    try {
      // Act
      const response = await call<{ error: { code: string } }>(`${server.url}/api/v1/pipeline-test/signed`, { method: 'POST', body: {} });
      // Assess
      expect(response.status).toBe(501);
      expect(response.body.error.code).toBe('not_implemented');
    } finally {
      await server.close();
    }
  });
});
