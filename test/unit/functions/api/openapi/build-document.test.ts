import { z } from 'zod';
import { buildOpenApiDocument, DEFAULT_SERVICE_VERSION } from '#api/openapi/build-document';
import { withServerOrigins } from '#api/openapi/servers';
import { PSPS } from '#core/providers';
import { CURRENCIES } from '#core/money';
import type { OpenApiDocument, OperationObject, Parameter, PathMethod, Reference, Response } from '#api/openapi/types';
import type { RouteDef } from '#api/route-types';
import { routes } from '#api/routes';
import { routeRow } from '#test/fixtures/route-row';

const row = routeRow;

const operationOf = (document: OpenApiDocument, route: Pick<RouteDef, 'method' | 'path'>): OperationObject => {
  const operation = document.paths[route.path]?.[route.method.toLowerCase() as PathMethod];
  if (operation === undefined) throw new Error(`${route.method} ${route.path} is not in the document`);
  return operation;
};

const refOf = (value: Response | Reference | Parameter | undefined): string | undefined => (value !== undefined && '$ref' in value ? value.$ref : undefined);

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

  it("titles the document and versions it with SERVICE_VERSION's default or the given version", () => {
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

  it("serves each path from the server of its row's API, and /health from all three", () => {
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

  it("gives each operation the security of its auth kind, with the row's scopes on API keys", () => {
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
    expect(Object.keys(tooMany?.headers ?? {})).toEqual(
      expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'X-Request-Id']),
    );
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
      const declares404 = route.path.includes('{') || (route.schemas?.errorStatuses ?? []).includes(404);
      expect({ operationId: route.operationId, has404: statuses.includes('404') }).toEqual({ operationId: route.operationId, has404: declares404 });
      const declares409 = route.method !== 'GET' || (route.schemas?.errorStatuses ?? []).includes(409);
      expect({ operationId: route.operationId, has409: statuses.includes('409') }).toEqual({ operationId: route.operationId, has409: declares409 });
    }
  });

  it('builds every row of the route table: none answers 501', () => {
    // Assess
    expect(routes.filter((route) => route.schemas === undefined).map((route) => route.operationId)).toEqual([]);
    expect(document.components.responses.NotImplemented).toBeUndefined();
  });

  it('flags rows without schemas as not implemented, with 501 and a description that says so', () => {
    // Prepare: a table with a row not built yet (the route table has none left)
    const unbuilt = [row({ operationId: 'getUnbuiltThing', path: '/api/v1/unbuilt-things/{id}' })];
    const built = routes.filter((route) => route.schemas !== undefined);
    const withUnbuilt = buildOpenApiDocument([...routes, ...unbuilt]);
    // Assess
    expect(withUnbuilt.components.responses.NotImplemented).toBeDefined();
    for (const route of unbuilt) {
      const operation = operationOf(withUnbuilt, route);
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
      const path = (operationOf(document, route).parameters ?? []).filter(
        (parameter): parameter is Parameter => !('$ref' in parameter) && parameter.in === 'path',
      );
      expect(path.map((parameter) => parameter.name)).toEqual(names);
      for (const parameter of path) expect(parameter).toMatchObject({ required: true, schema: { type: 'string' } });
    }
  });

  it('adds the Idempotency-Key header to keyed operations that modify, and only to them', () => {
    // Assess
    for (const route of routes) {
      const refs = (operationOf(document, route).parameters ?? []).map(refOf);
      const expected = route.auth === 'api_key' && route.method !== 'GET';
      expect({ operationId: route.operationId, idempotent: refs.includes('#/components/parameters/IdempotencyKey') }).toEqual({
        operationId: route.operationId,
        idempotent: expected,
      });
    }
    expect(document.components.parameters.IdempotencyKey).toMatchObject({ name: 'Idempotency-Key', in: 'header' });
  });

  it('documents X-Request-Id on every response the document defines', () => {
    // Prepare
    const inline = routes
      .flatMap((route) => Object.values(operationOf(document, route).responses))
      .filter((response): response is Response => !('$ref' in response));
    const all = [...inline, ...Object.values(document.components.responses)];
    // Assess
    for (const response of all) expect(refOf(response.headers?.['X-Request-Id'] as Reference)).toBe('#/components/headers/XRequestId');
  });

  it('answers rows without response schemas with the generic success envelope and rows with them with their schema', () => {
    // Prepare
    const unbuiltRow = row({ operationId: 'getUnbuiltThing', path: '/api/v1/unbuilt-things/{id}' });
    const unbuilt = operationOf(buildOpenApiDocument([...routes, unbuiltRow]), unbuiltRow).responses[200] as Response;
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

  it("defines the error envelope with DESIGN's codes plus the session proxy's, the upstream's 502/504, 426, 503 and not_implemented, and Meta, Pagination and Cursor", () => {
    // Prepare
    const schemas = document.components.schemas as Record<string, { properties: Record<string, { properties: Record<string, { enum?: string[] }> }> }>;
    // Assess
    expect(schemas.ErrorEnvelope?.properties.error?.properties.code?.enum).toEqual([
      'invalid_request',
      'invalid_api_key',
      'invalid_signature',
      'invalid_token',
      'invalid_session',
      'insufficient_scope',
      'resource_not_found',
      'state_conflict',
      'validation_error',
      'rate_limit_exceeded',
      'internal_error',
      'upstream_error',
      'upstream_timeout',
      'upgrade_required',
      'service_unavailable',
      'not_implemented',
    ]);
    expect(Object.keys(schemas.ErrorEnvelope?.properties.error?.properties ?? {})).toEqual(['code', 'message', 'param', 'request_id', 'retry_after', 'reason']);
    expect(Object.keys(schemas.Pagination?.properties ?? {})).toEqual(['total', 'page', 'per_page', 'total_pages']);
    expect(Object.keys(schemas.Cursor?.properties ?? {})).toEqual(['next']);
    expect(Object.keys(schemas.Meta?.properties ?? {})).toEqual(['timestamp', 'request_id', 'merchant_id']);
  });

  it("defines offset and cursor paging parameters with DESIGN's defaults and maxima", () => {
    // Assess
    const { parameters } = document.components;
    expect(parameters.Page).toMatchObject({ name: 'page', in: 'query', schema: { default: 1, minimum: 1 } });
    expect(parameters.PerPage).toMatchObject({ name: 'per_page', in: 'query', schema: { default: 25, maximum: 100 } });
    expect(parameters.Cursor).toMatchObject({ name: 'cursor', in: 'query', schema: { type: 'string' } });
    expect(parameters.Limit).toMatchObject({ name: 'limit', in: 'query', schema: { default: 50, maximum: 200 } });
  });
});

const schemaOf = (document: OpenApiDocument, route: Pick<RouteDef, 'method' | 'path'>, mediaType = 'application/json'): Record<string, unknown> =>
  operationOf(document, route).requestBody?.content[mediaType]?.schema as Record<string, unknown>;

describe('buildOpenApiDocument: credentials, bodies and values the operations check themselves', () => {
  const document = buildOpenApiDocument(routes);
  const signed = routes.filter((route) => route.auth === 'provider_signature');
  const example = (name: string): { code?: string } | undefined =>
    (document.components.responses[name]?.content?.['application/json']?.example as { error?: { code?: string } } | undefined)?.error;

  it('declares 401 invalid_signature, without rate-limit headers, on the 14 provider webhooks and the 3 delivery callbacks', () => {
    // Assess
    expect(signed.map((route) => route.operationId)).toHaveLength(17);
    for (const route of signed) {
      expect({ operationId: route.operationId, unauthorized: refOf(operationOf(document, route).responses[401]) }).toEqual({
        operationId: route.operationId,
        unauthorized: '#/components/responses/InvalidSignature',
      });
    }
    expect(example('InvalidSignature')?.code).toBe('invalid_signature');
    expect(Object.keys(document.components.responses.InvalidSignature?.headers ?? {})).toEqual(['X-Request-Id']);
    expect(document.components.responses.InvalidSignature?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
  });

  it('declares 401 invalid_api_key for a missing or wrong cron secret on every cron-secret route', () => {
    // Prepare
    const cron = routes.filter((route) => route.auth === 'cron_secret');
    // Assess
    expect(cron.length).toBeGreaterThanOrEqual(6);
    for (const route of cron)
      expect({ operationId: route.operationId, unauthorized: refOf(operationOf(document, route).responses[401]) }).toEqual({
        operationId: route.operationId,
        unauthorized: '#/components/responses/InvalidCronSecret',
      });
    expect(example('InvalidCronSecret')?.code).toBe('invalid_api_key');
  });

  it('declares 404 on scoreRetry, whose B body names a payment', () => {
    // Act
    const operation = operationOf(document, { method: 'POST', path: '/api/v1/scoring/retry' });
    // Assess
    expect(refOf(operation.responses[404])).toBe('#/components/responses/ResourceNotFound');
  });

  it("documents each provider webhook's own body: its media types, its signature and a JSON schema where it is JSON", () => {
    // Prepare
    const webhooks = signed.filter((route) => route.group === 'provider-webhooks');
    const descriptions = new Set(webhooks.map((route) => operationOf(document, route).requestBody?.description));
    // Assess
    expect(webhooks).toHaveLength(PSPS.length + 1);
    expect(descriptions.size).toBe(webhooks.length);
    for (const route of webhooks) {
      const body = operationOf(document, route).requestBody;
      expect({ operationId: route.operationId, required: body?.required, types: Object.keys(body?.content ?? {}).length > 0 }).toEqual({
        operationId: route.operationId,
        required: true,
        types: true,
      });
      for (const media of Object.values(body?.content ?? {})) expect(media.schema).toMatchObject({ type: expect.anything() });
    }
    expect(Object.keys(operationOf(document, { method: 'POST', path: '/braintree/{merchant_id}' }).requestBody?.content ?? {})).toEqual([
      'application/x-www-form-urlencoded',
    ]);
    expect(Object.keys(operationOf(document, { method: 'POST', path: '/mollie/{merchant_id}' }).requestBody?.content ?? {})).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
    ]);
    expect(operationOf(document, { method: 'POST', path: '/stripe/{merchant_id}' }).requestBody?.description).toContain('Stripe-Signature');
    expect(operationOf(document, { method: 'POST', path: '/square/{merchant_id}/invoice' }).requestBody?.description).toContain('invoice subscription');
    expect(schemaOf(document, { method: 'POST', path: '/stripe/{merchant_id}' })).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['id', 'type', 'data']),
    });
  });

  it("documents the delivery callbacks' bodies (form for SMS status, JSON for email events) and the cron route's body", () => {
    // Assess
    expect(schemaOf(document, { method: 'POST', path: '/api/v1/messaging/status' }, 'application/x-www-form-urlencoded')).toMatchObject({
      required: expect.arrayContaining(['MessageSid', 'MessageStatus']),
    });
    expect(schemaOf(document, { method: 'POST', path: '/api/v1/messaging/email/status' })).toMatchObject({
      required: expect.arrayContaining(['signature', 'event-data']),
    });
    expect(schemaOf(document, { method: 'POST', path: '/api/v1/mailer/webhook' })).toMatchObject({ required: expect.arrayContaining(['type', 'data']) });
    expect(operationOf(document, { method: 'POST', path: '/api/v1/mailer/webhook' }).requestBody?.description).toContain('webhook-signature');
    expect(schemaOf(document, { method: 'POST', path: '/api/internal/scoring/update-lookup' })).toMatchObject({
      required: ['entries'],
      properties: { entries: { type: 'array', minItems: 1 } },
    });
  });

  it('requires amount or amount_cents (anyOf) and lists the 20 lowercase currencies on ingest and scoring bodies', () => {
    // Prepare
    const bodies = [
      schemaOf(document, { method: 'POST', path: '/api/v1/ingest/payment-event' }),
      schemaOf(document, { method: 'POST', path: '/api/v1/scoring/retry' }),
    ];
    // Assess
    expect(CURRENCIES).toHaveLength(20);
    for (const body of bodies) {
      expect(body.anyOf).toEqual([{ required: ['amount_cents'] }, { required: ['amount'] }]);
      expect(body.required ?? []).not.toContain('amount');
      expect((body.properties as Record<string, { enum?: unknown }>).currency?.enum).toEqual([...CURRENCIES]);
    }
    expect(bodies[0]?.required).toEqual(expect.arrayContaining(['event_type', 'currency', 'customer_email']));
  });

  it("gives the scoring body's defaulted fields their default keywords", () => {
    // Act
    const properties = schemaOf(document, { method: 'POST', path: '/api/v1/scoring/retry' }).properties as Record<string, { default?: unknown }>;
    // Assess
    expect({
      attempt_number: properties.attempt_number?.default,
      hour_of_day: properties.hour_of_day?.default,
      currency: properties.currency?.default,
      model: properties.model?.default,
    }).toEqual({
      attempt_number: 1,
      hour_of_day: 12,
      currency: 'usd',
      model: 'enhanced',
    });
  });
});

describe('withServerOrigins', () => {
  const document = buildOpenApiDocument(routes);

  it("points each API's server at its given origin, on the document and on every path, and keeps the rest shared", () => {
    // Act
    const served = withServerOrigins(document, { merchant: 'https://abc.execute-api.eu-west-1.amazonaws.com/prod', webhook: 'https://hooks.example.com' });
    // Assess
    const defaults = (servers: readonly { variables?: Record<string, { default: string }> }[] | undefined) =>
      servers?.map((server) => Object.values(server.variables ?? {})[0]?.default);
    expect(defaults(served.servers)).toEqual(['https://abc.execute-api.eu-west-1.amazonaws.com/prod', 'http://localhost:3000', 'https://hooks.example.com']);
    expect(defaults(served.paths['/api/v1/payments']?.servers)).toEqual(['https://abc.execute-api.eu-west-1.amazonaws.com/prod']);
    expect(defaults(served.paths['/stripe/{merchant_id}']?.servers)).toEqual(['https://hooks.example.com']);
    expect(defaults(served.paths['/api/widget/init']?.servers)).toEqual(['http://localhost:3000']);
    expect(served.paths['/api/v1/payments']?.get).toBe(document.paths['/api/v1/payments']?.get);
    expect(served.components).toBe(document.components);
    expect(defaults(document.servers)).toEqual(['http://localhost:3000', 'http://localhost:3000', 'http://localhost:3000']);
  });
});

describe("buildOpenApiDocument with a row's zod schemas", () => {
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
      content: {
        'application/json': {
          schema: { type: 'object', properties: { text: { type: 'string', minLength: 1 }, pinned: { type: 'boolean', default: false } }, required: ['text'] },
        },
      },
    });
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['201']));
    expect(operation.responses[200]).toBeUndefined();
    expect((operation.responses[201] as Response).content?.['application/json']?.schema).toMatchObject({
      properties: { data: { properties: { id: { type: 'string' } } } },
    });
  });

  it('marks a body that accepts nothing as optional', () => {
    // Prepare
    const table = [row({ method: 'POST', path: '/api/v1/things', operationId: 'createThing', schemas: { body: z.object({ name: z.string() }).optional() } })];
    // Act
    const operation = operationOf(buildOpenApiDocument(table), table[0] as RouteDef);
    // Assess
    expect(operation.requestBody?.required).toBe(false);
  });

  it("references the offset paging parameters and page envelope instead of the query's own when the query has page and per_page", () => {
    // Prepare
    const table = [
      row({
        path: '/api/v1/things',
        operationId: 'listThings',
        schemas: {
          query: z.object({
            status: z.string().optional(),
            page: z.coerce.number().int().min(1).default(1),
            per_page: z.coerce.number().int().min(1).max(100).default(25),
          }),
        },
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

  it('documents a body the operation reads itself, per row when given as a function, and the extra error statuses a row declares', () => {
    // Prepare
    const documentedBody = (route: RouteDef) => ({
      description: `Signed body of ${route.operationId}.`,
      content: { 'application/x-www-form-urlencoded': z.object({ token: z.string() }) },
    });
    const table = [
      row({
        method: 'POST',
        path: '/api/v1/hooks/a',
        operationId: 'receiveA',
        auth: 'provider_signature',
        scopes: [],
        schemas: { documentedBody, errorStatuses: [404] },
      }),
      row({ method: 'POST', path: '/api/v1/hooks/b', operationId: 'receiveB', auth: 'provider_signature', scopes: [], schemas: { documentedBody } }),
    ];
    // Act
    const document = buildOpenApiDocument(table);
    // Assess
    const [a, b] = table.map((route) => operationOf(document, route));
    expect(a?.requestBody).toEqual({
      description: 'Signed body of receiveA.',
      required: true,
      content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { token: { type: 'string' } }, required: ['token'] } } },
    });
    expect(b?.requestBody?.description).toBe('Signed body of receiveB.');
    expect(refOf(a?.responses[404])).toBe('#/components/responses/ResourceNotFound');
    expect(b?.responses[404]).toBeUndefined();
  });

  it('refuses an error status that has no error response', () => {
    // Prepare
    const table = [row({ schemas: { errorStatuses: [418] } })];
    // Act
    const build = () => buildOpenApiDocument(table);
    // Assess
    expect(build).toThrow(/no error response is defined for status 418/);
  });
});
