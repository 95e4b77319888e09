import { z } from 'zod';
import { buildOpenApiDocument, DEFAULT_SERVICE_VERSION } from '../../../../../functions/api/openapi/build-document';
import type { OpenApiDocument, OperationObject, Parameter, PathMethod, Reference, Response } from '../../../../../functions/api/openapi/types';
import type { RouteDef } from '../../../../../functions/api/route-types';
import { routes } from '../../../../../functions/api/routes';
import { routeRow } from '../../../../fixtures/route-row';

const row = routeRow;

const operationOf = (document: OpenApiDocument, route: Pick<RouteDef, 'method' | 'path'>): OperationObject => {
  const operation = document.paths[route.path]?.[route.method.toLowerCase() as PathMethod];
  if (operation === undefined) throw new Error(`${route.method} ${route.path} is not in the document`);
  return operation;
};

const refOf = (value: Response | Reference | Parameter | undefined): string | undefined =>
  value !== undefined && '$ref' in value ? value.$ref : undefined;

/** Resolves a local JSON pointer (`#/components/...`) in the document. */
function resolve(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(key in node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function refsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string') found.push(inner);
      else refsIn(inner, found);
    }
  }
  return found;
}

describe('buildOpenApiDocument', () => {
  const document = buildOpenApiDocument(routes);

  it('documents every row of the route table as its path and method with its operationId', () => {
    // Prepare
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      (['get', 'post', 'put', 'delete', 'patch'] as const).flatMap((method) => {
        const operation = item[method];
        return operation === undefined ? [] : [`${method.toUpperCase()} ${path} ${operation.operationId}`];
      }),
    );
    // Assess
    expect(document.openapi).toBe('3.1.0');
    expect(documented.sort()).toEqual(routes.map((route) => `${route.method} ${route.path} ${route.operationId}`).sort());
    expect(routes.some((route) => route.operationId === 'getOpenApiDocument' && route.path === '/api/v1/openapi.json')).toBe(true);
  });

  it('titles the document and versions it with SERVICE_VERSION\'s default or the given version', () => {
    // Act
    const versioned = buildOpenApiDocument(routes, { version: '2.3.4' });
    // Assess
    expect(document.info).toMatchObject({ title: 'Recovery service API', version: DEFAULT_SERVICE_VERSION });
    expect(DEFAULT_SERVICE_VERSION).toBe('0.1.0');
    expect(versioned.info.version).toBe('2.3.4');
  });

  it('returns the same frozen document when built again from the same table and version', () => {
    // Act
    const again = buildOpenApiDocument(routes);
    // Assess
    expect(again).toBe(document);
    expect(Object.isFrozen(document.paths)).toBe(true);
  });

  it('serves each path from the server of its row\'s API, and /health from all three', () => {
    // Prepare
    const url = { merchant: '{base_url}', edge: '{edge_url}', webhook: '{webhook_url}' } as const;
    // Assess
    expect(document.servers.map((server) => server.url)).toEqual(['{base_url}', '{edge_url}', '{webhook_url}']);
    for (const route of routes) {
      const servers = document.paths[route.path]?.servers?.map((server) => server.url);
      expect({ path: route.path, servers }).toEqual({ path: route.path, servers: route.api === 'all' ? Object.values(url) : [url[route.api]] });
    }
    expect(document.servers[0]?.variables?.base_url?.default).toMatch(/^https?:\/\//);
  });

  it('gives each operation the security of its auth kind, with the row\'s scopes on API keys', () => {
    // Assess
    for (const route of routes) {
      const { security } = operationOf(document, route);
      const keyed = [{ bearerAuth: route.scopes }, { apiKeyHeader: route.scopes }];
      const expected = {
        api_key: keyed,
        optional_api_key: [...keyed, {}],
        public: [],
        cron_secret: [{ cronSecret: [] }],
        session_cookie: [{ sessionCookie: [] }],
        session_token: [],
        widget_hmac: [],
        provider_signature: [],
      }[route.auth];
      expect({ operationId: route.operationId, security }).toEqual({ operationId: route.operationId, security: expected });
    }
  });

  it('defines every security scheme an operation names', () => {
    // Prepare
    const named = new Set(routes.flatMap((route) => operationOf(document, route).security.flatMap((requirement) => Object.keys(requirement))));
    // Assess
    expect([...named].sort()).toEqual(['apiKeyHeader', 'bearerAuth', 'cronSecret', 'sessionCookie']);
    for (const scheme of named) expect(document.components.securitySchemes[scheme]).toBeDefined();
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.components.securitySchemes.apiKeyHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(document.components.securitySchemes.cronSecret?.description).toContain('Authorization: Bearer <CRON_SECRET>');
    expect(Object.keys(document['x-nonstandard-security']).sort()).toEqual(['providerSignature', 'sessionToken', 'widgetHmac']);
  });

  it('documents 401, 403 and 429 on keyed rows, with rate-limit headers and Retry-After on 429', () => {
    // Prepare
    const keyed = routes.filter((route) => route.auth === 'api_key');
    const tooMany = document.components.responses.RateLimitExceeded;
    // Assess
    expect(keyed.length).toBeGreaterThan(100);
    for (const route of keyed) {
      const { responses } = operationOf(document, route);
      expect([refOf(responses[401]), refOf(responses[403]), refOf(responses[429])]).toEqual([
        '#/components/responses/InvalidApiKey',
        '#/components/responses/InsufficientScope',
        '#/components/responses/RateLimitExceeded',
      ]);
    }
    expect(Object.keys(tooMany?.headers ?? {})).toEqual(expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'X-Request-Id']));
  });

  it('documents 401 and 429 but not 403 on optional-key rows, and none of them on public rows', () => {
    // Prepare
    const status = operationOf(document, { method: 'GET', path: '/api/v1/status' });
    const health = operationOf(document, { method: 'GET', path: '/health' });
    // Assess
    expect(Object.keys(status.responses)).toEqual(expect.arrayContaining(['401', '429']));
    expect(status.responses[403]).toBeUndefined();
    expect(Object.keys(health.responses).sort()).toEqual(['200', '400', '422', '500']);
  });

  it('documents 400, 422 and 500 on every row, 404 where the path has parameters and 409 where the method modifies', () => {
    // Assess
    for (const route of routes) {
      const statuses = Object.keys(operationOf(document, route).responses);
      expect(statuses).toEqual(expect.arrayContaining(['400', '422', '500']));
      expect({ operationId: route.operationId, has404: statuses.includes('404') }).toEqual({ operationId: route.operationId, has404: route.path.includes('{') });
      expect({ operationId: route.operationId, has409: statuses.includes('409') }).toEqual({ operationId: route.operationId, has409: route.method !== 'GET' });
    }
  });

  it('flags rows without schemas as not implemented, with 501 and a description that says so', () => {
    // Prepare
    const unbuilt = routes.filter((route) => route.schemas === undefined);
    const built = routes.filter((route) => route.schemas !== undefined);
    // Assess
    expect(unbuilt.length).toBeGreaterThan(0);
    for (const route of unbuilt) {
      const operation = operationOf(document, route);
      expect(operation['x-implemented']).toBe(false);
      expect(refOf(operation.responses[501])).toBe('#/components/responses/NotImplemented');
      expect(operation.description).toContain('501 `not_implemented`');
    }
    for (const route of built) {
      const operation = operationOf(document, route);
      expect(operation['x-implemented']).toBe(true);
      expect(operation.responses[501]).toBeUndefined();
    }
  });

  it('documents every {param} of a path as a required string path parameter', () => {
    // Assess
    for (const route of routes) {
      const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
      const path = (operationOf(document, route).parameters ?? []).filter((parameter): parameter is Parameter => !('$ref' in parameter) && parameter.in === 'path');
      expect(path.map((parameter) => parameter.name)).toEqual(names);
      for (const parameter of path) expect(parameter).toMatchObject({ required: true, schema: { type: 'string' } });
    }
  });

  it('adds the Idempotency-Key header to keyed operations that modify, and only to them', () => {
    // Assess
    for (const route of routes) {
      const refs = (operationOf(document, route).parameters ?? []).map(refOf);
      const expected = route.auth === 'api_key' && route.method !== 'GET';
      expect({ operationId: route.operationId, idempotent: refs.includes('#/components/parameters/IdempotencyKey') }).toEqual({ operationId: route.operationId, idempotent: expected });
    }
    expect(document.components.parameters.IdempotencyKey).toMatchObject({ name: 'Idempotency-Key', in: 'header' });
  });

  it('documents X-Request-Id on every response the document defines', () => {
    // Prepare
    const inline = routes.flatMap((route) => Object.values(operationOf(document, route).responses)).filter((response): response is Response => !('$ref' in response));
    const all = [...inline, ...Object.values(document.components.responses)];
    // Assess
    for (const response of all) expect(refOf(response.headers?.['X-Request-Id'] as Reference)).toBe('#/components/headers/XRequestId');
  });

  it('answers rows without response schemas with the generic success envelope and rows with them with their schema', () => {
    // Prepare
    const unbuilt = operationOf(document, routes.find((route) => route.method === 'GET' && route.schemas === undefined) as RouteDef).responses[200] as Response;
    const health = operationOf(document, { method: 'GET', path: '/health' }).responses[200] as Response;
    // Assess
    expect(unbuilt.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/SuccessEnvelope' });
    expect(health.content?.['application/json']?.schema).toMatchObject({ type: 'object', properties: { status: { const: 'ok' } }, required: ['status'] });
  });

  it('resolves every $ref in the document to a component that exists', () => {
    // Prepare
    const refs = new Set(refsIn(document));
    // Assess
    expect(refs.size).toBeGreaterThan(10);
    for (const ref of refs) expect({ ref, resolved: resolve(document, ref) !== undefined }).toEqual({ ref, resolved: true });
  });

  it('defines the error envelope with DESIGN\'s codes plus not_implemented, and Meta, Pagination and Cursor', () => {
    // Prepare
    const schemas = document.components.schemas as Record<string, { properties: Record<string, { properties: Record<string, { enum?: string[] }> }> }>;
    // Assess
    expect(schemas.ErrorEnvelope?.properties.error?.properties.code?.enum).toEqual([
      'invalid_request',
      'invalid_api_key',
      'insufficient_scope',
      'resource_not_found',
      'state_conflict',
      'validation_error',
      'rate_limit_exceeded',
      'internal_error',
      'not_implemented',
    ]);
    expect(Object.keys(schemas.ErrorEnvelope?.properties.error?.properties ?? {})).toEqual(['code', 'message', 'param', 'request_id', 'retry_after']);
    expect(Object.keys(schemas.Pagination?.properties ?? {})).toEqual(['total', 'page', 'per_page', 'total_pages']);
    expect(Object.keys(schemas.Cursor?.properties ?? {})).toEqual(['next']);
    expect(Object.keys(schemas.Meta?.properties ?? {})).toEqual(['timestamp', 'request_id', 'merchant_id']);
  });

  it('defines offset and cursor paging parameters with DESIGN\'s defaults and maxima', () => {
    // Assess
    const { parameters } = document.components;
    expect(parameters.Page).toMatchObject({ name: 'page', in: 'query', schema: { default: 1, minimum: 1 } });
    expect(parameters.PerPage).toMatchObject({ name: 'per_page', in: 'query', schema: { default: 25, maximum: 100 } });
    expect(parameters.Cursor).toMatchObject({ name: 'cursor', in: 'query', schema: { type: 'string' } });
    expect(parameters.Limit).toMatchObject({ name: 'limit', in: 'query', schema: { default: 50, maximum: 200 } });
  });
});

describe('buildOpenApiDocument with a row\'s zod schemas', () => {
  it('documents path, query and body from the schemas when given', () => {
    // Prepare
    const table = [
      row({
        method: 'POST',
        path: '/api/v1/things/{id}/notes',
        operationId: 'addNote',
        scopes: ['write'],
        schemas: {
          params: z.object({ id: z.string().regex(/^th_/).describe('The thing id.') }),
          query: z.object({ dry_run: z.enum(['true', 'false']).optional(), source: z.string() }),
          body: z.object({ text: z.string().min(1), pinned: z.boolean().default(false) }),
          responses: { 201: z.object({ data: z.object({ id: z.string() }) }) },
        },
      }),
    ];
    // Act
    const operation = operationOf(buildOpenApiDocument(table), table[0] as RouteDef);
    // Assess
    expect(operation.parameters).toEqual([
      { name: 'id', in: 'path', required: true, description: 'The thing id.', schema: expect.objectContaining({ type: 'string', pattern: '^th_' }) },
      { name: 'dry_run', in: 'query', required: false, schema: { type: 'string', enum: ['true', 'false'] } },
      { name: 'source', in: 'query', required: true, schema: { type: 'string' } },
      { $ref: '#/components/parameters/IdempotencyKey' },
    ]);
    expect(operation.requestBody).toEqual({
      required: true,
      content: { 'application/json': { schema: { type: 'object', properties: { text: { type: 'string', minLength: 1 }, pinned: { type: 'boolean', default: false } }, required: ['text'] } } },
    });
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['201']));
    expect(operation.responses[200]).toBeUndefined();
    expect((operation.responses[201] as Response).content?.['application/json']?.schema).toMatchObject({ properties: { data: { properties: { id: { type: 'string' } } } } });
  });

  it('marks a body that accepts nothing as optional', () => {
    // Prepare
    const table = [row({ method: 'POST', path: '/api/v1/things', operationId: 'createThing', schemas: { body: z.object({ name: z.string() }).optional() } })];
    // Act
    const operation = operationOf(buildOpenApiDocument(table), table[0] as RouteDef);
    // Assess
    expect(operation.requestBody?.required).toBe(false);
  });

  it('references the offset paging parameters and page envelope instead of the query\'s own when the query has page and per_page', () => {
    // Prepare
    const table = [
      row({
        path: '/api/v1/things',
        operationId: 'listThings',
        schemas: { query: z.object({ status: z.string().optional(), page: z.coerce.number().int().min(1).default(1), per_page: z.coerce.number().int().min(1).max(100).default(25) }) },
      }),
    ];
    // Act
    const operation = operationOf(buildOpenApiDocument(table), table[0] as RouteDef);
    // Assess
    expect(operation.parameters?.map((parameter) => refOf(parameter) ?? (parameter as Parameter).name)).toEqual([
      '#/components/parameters/Page',
      '#/components/parameters/PerPage',
      'status',
    ]);
    expect((operation.responses[200] as Response).content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/OffsetPage' });
  });

  it('references the cursor paging parameters and page envelope when the query has cursor and limit', () => {
    // Prepare
    const query = z.object({ cursor: z.string().min(1).optional(), limit: z.coerce.number().int().min(1).max(200).default(50) });
    const table = [row({ path: '/api/v1/things', operationId: 'listThings', schemas: { query } })];
    // Act
    const operation = operationOf(buildOpenApiDocument(table), table[0] as RouteDef);
    // Assess
    expect(operation.parameters?.map(refOf)).toEqual(['#/components/parameters/Cursor', '#/components/parameters/Limit']);
    expect((operation.responses[200] as Response).content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/CursorPage' });
  });

  it('shares a schema given an id as one component referenced by every operation that uses it', () => {
    // Prepare
    const Thing = z.object({ id: z.string(), name: z.string() }).meta({ id: 'Thing' });
    const table = [
      row({ operationId: 'getThing', schemas: { responses: { 200: z.object({ data: Thing }) } } }),
      row({ method: 'PUT', operationId: 'replaceThing', scopes: ['write'], schemas: { body: Thing, responses: { 200: z.object({ data: Thing }) } } }),
    ];
    // Act
    const document = buildOpenApiDocument(table);
    // Assess
    const read = (operationOf(document, table[0] as RouteDef).responses[200] as Response).content?.['application/json']?.schema;
    expect(read).toMatchObject({ properties: { data: { $ref: '#/components/schemas/Thing' } } });
    expect(operationOf(document, table[1] as RouteDef).requestBody?.content['application/json']?.schema).toEqual({ $ref: '#/components/schemas/ThingInput' });
    expect(document.components.schemas.Thing).toMatchObject({ properties: { id: { type: 'string' } }, additionalProperties: false });
    expect(document.components.schemas.ThingInput).toMatchObject({ properties: { name: { type: 'string' } } });
  });

  it('refuses a params schema that names a parameter the path does not have', () => {
    // Prepare
    const table = [row({ schemas: { params: z.object({ thing_id: z.string() }) } })];
    // Act
    const build = () => buildOpenApiDocument(table);
    // Assess
    expect(build).toThrow(/params schema has "thing_id", which is not in the path/);
  });

  it('refuses a schema id that would replace one of the fixed components', () => {
    // Prepare
    const table = [row({ schemas: { responses: { 200: z.object({ meta: z.object({ page: z.number() }).meta({ id: 'Meta' }) }) } } })];
    // Act
    const build = () => buildOpenApiDocument(table);
    // Assess
    expect(build).toThrow(/id "Meta" is the name of a fixed component/);
  });

  it('refuses one path served by two APIs, since servers are given per path', () => {
    // Prepare
    const table = [row(), row({ method: 'DELETE', operationId: 'deleteThing', api: 'edge' })];
    // Act
    const build = () => buildOpenApiDocument(table);
    // Assess
    expect(build).toThrow(/served by both the merchant and the edge API/);
  });
});
