import type { z } from 'zod/mini';
import { API_NAMES, type AuthKind, type HttpMethod, type RouteDef } from '#api/route-types';
import {
  COMPONENTS,
  ERROR_RESPONSE_BY_STATUS,
  type ErrorResponseName,
  NONSTANDARD_SECURITY,
  RATE_LIMIT_HEADERS,
  REQUEST_ID_HEADER,
  ref,
  SERVERS,
} from './components';
import type {
  Components,
  Header,
  JsonSchema,
  OpenApiDocument,
  OperationObject,
  Parameter,
  PathItem,
  PathMethod,
  Reference,
  RequestBody,
  Response,
  SecurityRequirement,
  Server,
} from './types';
import { SchemaCollector } from './zod-schemas';

/** The version documented when none is given: SERVICE_VERSION's default. */
export const DEFAULT_SERVICE_VERSION = '0.1.0';

export interface BuildOptions {
  /** `info.version`; the service passes its SERVICE_VERSION. @default '0.1.0' */
  readonly version?: string;
}

/** Methods that create or modify, so take an Idempotency-Key and can conflict (DESIGN §1; PATCH as the idempotency layer treats it). */
const MODIFYING: ReadonlySet<HttpMethod> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const PATH_PARAM = /\{([^}]+)\}/g;
const HAS_PATH_PARAM = /\{[^}]+\}/;

const STATUS_TEXT: Readonly<Record<number, string>> = {
  101: 'Switching protocols: the WebSocket is open',
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No content',
  307: 'Temporary redirect',
};

const DESCRIPTION = `Failed-payment recovery service.

- **Hosts.** Three REST APIs: the merchant API (\`{base_url}\`, everything under \`/api/v1\`), the edge API (\`{edge_url}\`: cancel sessions, widget, white label, email domains) and the webhook API (\`{webhook_url}\`: provider webhooks, delivery callbacks). Each path names its server; \`GET /health\` answers on all three.
- **Envelope.** Success: \`{ data, meta: { timestamp, request_id, merchant_id? } }\`; offset lists add \`pagination\`, cursor lists add \`cursor\`. AI generation, AI ping, scoring and widget responses are unwrapped. Errors: \`{ error: { code, message, param?, request_id, retry_after? } }\`, one status per code.
- **Authentication.** API keys (\`rk_live_...\`) as \`Authorization: Bearer\` or \`X-API-Key\`; an operation's scopes list any one that grants it; \`admin\` implies every scope, \`write\` implies \`read\`. Credentials OpenAPI has no scheme for are described under \`x-nonstandard-security\`; every operation names its kind in \`x-auth\`.
- **Rate limits.** Per key, fixed one-minute window; every response after authentication carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\`, \`X-RateLimit-Reset\`.
- **Idempotency.** Send \`Idempotency-Key\` on POST, PUT, PATCH and DELETE; the first completed response is replayed for 24 h.
- **Not yet built.** Operations with \`x-implemented: false\` are in the route table but answer 501 \`not_implemented\` until built.`;

const pascal = (id: string): string => id.charAt(0).toUpperCase() + id.slice(1);

const AUTH_TEXT: Readonly<Record<RouteDef['auth'], (route: RouteDef) => string>> = {
  api_key: (route) => `Requires an API key with any one of the scopes ${route.scopes.map((scope) => `\`${scope}\``).join(', ')}.`,
  optional_api_key: () => 'Works without an API key; a key, when given, must be valid, and the response then describes its merchant.',
  public: () => 'Public: no credential.',
  session_token: () => 'Authenticated by the cancel-session token in the path (see `x-nonstandard-security.sessionToken`).',
  widget_hmac: () => 'Authenticated by an HMAC signature in the body (see `x-nonstandard-security.widgetHmac`), not by an API key.',
  provider_signature: () => "Authenticated by the provider's own signature (see `x-nonstandard-security.providerSignature`).",
  cron_secret: () => 'Internal, not part of the public API: shared secret `Authorization: Bearer <CRON_SECRET>`.',
  session_cookie: () => 'Session proxy, not part of the public API: needs the session cookie set by `POST /ws/auth/session`.',
};

const PATH_PARAM_TEXT: Readonly<Record<string, string>> = {
  token: 'The cancel-session token: the credential of this route.',
};

function security(route: RouteDef): SecurityRequirement[] {
  // Copies: the document is frozen, and the route table's scope lists are shared between rows.
  const keyed: SecurityRequirement[] = [{ bearerAuth: [...route.scopes] }, { apiKeyHeader: [...route.scopes] }];
  switch (route.auth) {
    case 'api_key':
      return keyed;
    case 'optional_api_key':
      return [...keyed, {}];
    case 'cron_secret':
      return [{ cronSecret: [] }];
    case 'session_cookie':
      return [{ sessionCookie: [] }];
    default:
      // Public, or a credential OpenAPI cannot express (x-auth and x-nonstandard-security say which).
      return [];
  }
}

/** Properties of an object schema as OpenAPI parameters. */
function objectParameters(schema: JsonSchema, location: 'path' | 'query', where: string): Parameter[] {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (schema.type !== 'object' || properties === undefined) throw new Error(`${where}: the ${location} schema must be a z.object`);
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => {
    const description = typeof property.description === 'string' ? property.description : undefined;
    return { name, in: location, required: location === 'path' || required.has(name), ...(description === undefined ? {} : { description }), schema: property };
  });
}

type Paging = 'offset' | 'cursor';

/** The shared paging parameters (`api/pipeline/paging.ts`), by the query fields that reveal them. */
const PAGING: Readonly<Record<Paging, { readonly fields: readonly string[]; readonly parameters: readonly Reference[]; readonly envelope: string }>> = {
  offset: { fields: ['page', 'per_page'], parameters: [ref('parameters', 'Page'), ref('parameters', 'PerPage')], envelope: 'OffsetPage' },
  cursor: { fields: ['cursor', 'limit'], parameters: [ref('parameters', 'Cursor'), ref('parameters', 'Limit')], envelope: 'CursorPage' },
};

/** A list pages by offset when its query has `page` and `per_page`, by cursor when it has `cursor` and `limit`. */
function pagingOf(query: readonly Parameter[]): Paging | undefined {
  const names = new Set(query.map((parameter) => parameter.name));
  return (Object.keys(PAGING) as Paging[]).find((paging) => PAGING[paging].fields.every((field) => names.has(field)));
}

interface RouteParameters {
  readonly parameters: Array<Parameter | Reference>;
  readonly paging: Paging | undefined;
}

function parametersOf(route: RouteDef, collector: SchemaCollector): RouteParameters {
  const where = `${route.method} ${route.path} (${route.operationId})`;
  const name = pascal(route.operationId);
  const schemas = route.schemas ?? {};
  const names = [...route.path.matchAll(PATH_PARAM)].map((match) => match[1] as string);

  const declared = new Map<string, Parameter>();
  if (schemas.params !== undefined) {
    for (const parameter of objectParameters(collector.resolve(collector.convert(schemas.params, 'input', `${name}Params`)), 'path', where)) {
      if (!names.includes(parameter.name)) throw new Error(`${where}: params schema has "${parameter.name}", which is not in the path`);
      declared.set(parameter.name, parameter);
    }
  }
  const path: Parameter[] = names.map(
    (param) =>
      declared.get(param) ?? {
        name: param,
        in: 'path',
        required: true,
        description: PATH_PARAM_TEXT[param] ?? `The \`${param}\` path segment.`,
        schema: { type: 'string' },
      },
  );

  const query =
    schemas.query === undefined ? [] : objectParameters(collector.resolve(collector.convert(schemas.query, 'input', `${name}Query`)), 'query', where);
  const paging = pagingOf(query);
  // A paged list references the shared paging parameters instead of repeating them.
  const own = paging === undefined ? query : query.filter((parameter) => !PAGING[paging].fields.includes(parameter.name));

  const idempotency = route.auth === 'api_key' && MODIFYING.has(route.method) ? [ref('parameters', 'IdempotencyKey')] : [];
  return { parameters: [...path, ...(paging === undefined ? [] : PAGING[paging].parameters), ...own, ...idempotency], paging };
}

/** Component-name suffixes of a body documented in several media types. */
const MEDIA_TYPE_NAMES: Readonly<Record<string, string>> = { 'application/json': 'Json', 'application/x-www-form-urlencoded': 'Form' };

/** A body the operation reads itself (signed, or read after its credential is checked), per media type. */
function documentedBodyOf(route: RouteDef, collector: SchemaCollector): RequestBody | undefined {
  const declared = route.schemas?.documentedBody;
  if (declared === undefined) return undefined;
  const { description, required = true, content } = typeof declared === 'function' ? declared(route) : declared;
  const entries = Object.entries(content);
  const name = (mediaType: string): string =>
    `${pascal(route.operationId)}Body${entries.length === 1 ? '' : (MEDIA_TYPE_NAMES[mediaType] ?? entries.findIndex(([type]) => type === mediaType))}`;
  return {
    description,
    required,
    content: Object.fromEntries(entries.map(([mediaType, schema]) => [mediaType, { schema: collector.convert(schema, 'input', name(mediaType)) }])),
  };
}

function requestBodyOf(route: RouteDef, collector: SchemaCollector): RequestBody | undefined {
  const body = route.schemas?.body;
  if (body === undefined) return documentedBodyOf(route, collector);
  let optional: boolean;
  try {
    optional = body.safeParse(undefined).success;
  } catch {
    optional = false;
  }
  return { required: !optional, content: { 'application/json': { schema: collector.convert(body, 'input', `${pascal(route.operationId)}Body`) } } };
}

function successHeaders(route: RouteDef): Record<string, Reference> {
  const keyed = route.auth === 'api_key' || route.auth === 'optional_api_key';
  return {
    ...REQUEST_ID_HEADER,
    ...(keyed ? RATE_LIMIT_HEADERS : {}),
    ...(route.auth === 'api_key' && MODIFYING.has(route.method) ? { 'Idempotent-Replayed': ref('headers', 'IdempotentReplayed') } : {}),
  };
}

function successResponse(status: number, schema: z.ZodMiniType | undefined, route: RouteDef, paging: Paging | undefined, collector: SchemaCollector): Response {
  const headers: Record<string, Header | Reference> = successHeaders(route);
  const description = STATUS_TEXT[status] ?? `Status ${status}`;
  if (status === 204 || status === 101) return { description, headers };
  if (route.schemas?.htmlStatuses?.includes(status))
    return { description: `${description}: an HTML page.`, headers, content: { 'text/html': { schema: { type: 'string' } } } };
  const fileTypes = route.schemas?.fileResponses?.[status];
  if (fileTypes !== undefined) {
    // A JSON file is any JSON value; a file of another type is its text.
    const schemaOf = (type: string) => (type === 'application/json' ? {} : { type: 'string' as const });
    return { description: `${description}: the file.`, headers, content: Object.fromEntries(fileTypes.map((type) => [type, { schema: schemaOf(type) }])) };
  }
  if (schema === undefined) {
    const generic = paging === undefined ? 'SuccessEnvelope' : PAGING[paging].envelope;
    return { description: `${description}: the success envelope.`, headers, content: { 'application/json': { schema: ref('schemas', generic) } } };
  }
  return {
    description,
    headers,
    content: { 'application/json': { schema: collector.convert(schema, 'output', `${pascal(route.operationId)}Response${status}`) } },
  };
}

/**
 * The 401 of each auth kind that checks a credential: an API key (invalid_api_key), the cron
 * secret (invalid_api_key, cron-secret.ts) or a signature (invalid_signature). A session token is
 * looked up by the path, so a malformed one is a 400 and an unknown one a 404; the session
 * cookie's is invalid_session. A public row that declares a 401 takes a credential in its request
 * (the session proxy's JWT): invalid_token.
 */
const UNAUTHORIZED: Readonly<Partial<Record<AuthKind, ErrorResponseName>>> = {
  api_key: 'InvalidApiKey',
  optional_api_key: 'InvalidApiKey',
  cron_secret: 'InvalidCronSecret',
  provider_signature: 'InvalidSignature',
  widget_hmac: 'InvalidSignature',
  session_cookie: 'InvalidSession',
  public: 'InvalidToken',
};

/**
 * The error responses a row can answer with, by status: from its auth kind, path and method, plus
 * the statuses its schemas declare (a lookup by an id in the body: 404).
 */
function errorResponsesOf(route: RouteDef): Map<number, ErrorResponseName> {
  const where = `${route.method} ${route.path} (${route.operationId})`;
  const statuses = [400, 422, 500, ...(route.schemas?.errorStatuses ?? [])];
  if (UNAUTHORIZED[route.auth] !== undefined && route.auth !== 'public') statuses.push(401);
  if (route.auth === 'api_key') statuses.push(403, 429);
  if (route.auth === 'optional_api_key') statuses.push(429);
  if (HAS_PATH_PARAM.test(route.path)) statuses.push(404);
  if (MODIFYING.has(route.method)) statuses.push(409);
  if (route.schemas === undefined) statuses.push(501);
  const responses = new Map<number, ErrorResponseName>();
  for (const status of [...new Set(statuses)].sort((a, b) => a - b)) {
    const name = status === 401 ? UNAUTHORIZED[route.auth] : ERROR_RESPONSE_BY_STATUS[status];
    if (name === undefined) throw new Error(`${where}: no error response is defined for status ${status} (auth ${route.auth})`);
    responses.set(status, name);
  }
  return responses;
}

function responsesOf(route: RouteDef, paging: Paging | undefined, collector: SchemaCollector): Record<string, Response | Reference> {
  const own = route.schemas?.responses ?? {};
  const responses: Record<string, Response | Reference> = {};
  const ownStatuses = Object.keys(own).map(Number);
  for (const status of ownStatuses.length > 0 ? ownStatuses : [200]) responses[status] = successResponse(status, own[status], route, paging, collector);
  for (const [status, name] of errorResponsesOf(route)) {
    if (responses[status] === undefined) responses[status] = ref('responses', name);
  }
  return responses;
}

function operationOf(route: RouteDef, collector: SchemaCollector): OperationObject {
  const implemented = route.schemas !== undefined;
  const { parameters, paging } = parametersOf(route, collector);
  const requestBody = requestBodyOf(route, collector);
  const description = [
    AUTH_TEXT[route.auth](route),
    ...(implemented ? [] : ['**Not implemented yet:** this route answers 501 `not_implemented` until its operation is built.']),
  ].join('\n\n');
  return {
    operationId: route.operationId,
    summary: route.summary,
    description,
    tags: [route.group],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody === undefined ? {} : { requestBody }),
    responses: responsesOf(route, paging, collector),
    security: security(route),
    'x-implemented': implemented,
    'x-auth': route.auth,
  };
}

function serversOf(route: RouteDef): Server[] {
  return route.api === 'all' ? API_NAMES.map((api) => SERVERS[api]) : [SERVERS[route.api]];
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * The components with the two that only some tables use left out when no operation refers to
 * them: the generic success envelope (rows without a response schema) and the 501 response (rows
 * not built yet). A table whose rows are all built and all describe their answers has neither.
 */
function withoutUnusedFallbacks(components: Components, pathsJson: string): Components {
  const used = (kind: 'schemas' | 'responses', name: string) => pathsJson.includes(`"#/components/${kind}/${name}"`);
  const { SuccessEnvelope, ...schemas } = components.schemas;
  const { NotImplemented, ...responses } = components.responses;
  return {
    ...components,
    schemas: used('schemas', 'SuccessEnvelope') ? components.schemas : schemas,
    responses: used('responses', 'NotImplemented') ? components.responses : responses,
  };
}

function build(routes: readonly RouteDef[], version: string): OpenApiDocument {
  const collector = new SchemaCollector();
  const paths: Record<string, { servers: Server[]; api: RouteDef['api'] } & Partial<Record<PathMethod, OperationObject>>> = {};
  const groups = new Map<string, number>();
  for (const route of routes) {
    const item = (paths[route.path] ??= { servers: serversOf(route), api: route.api });
    if (item.api !== route.api) throw new Error(`${route.method} ${route.path}: the path is served by both the ${item.api} and the ${route.api} API`);
    item[route.method.toLowerCase() as PathMethod] = operationOf(route, collector);
    groups.set(route.group, (groups.get(route.group) ?? 0) + 1);
  }
  const converted = collector.schemas();
  for (const name of Object.keys(converted)) {
    if (name in COMPONENTS.schemas) throw new Error(`A zod schema's id "${name}" is the name of a fixed component; choose another id.`);
  }
  const documented = Object.fromEntries(Object.entries(paths).map(([path, { api: _api, ...item }]) => [path, item as PathItem]));
  return {
    openapi: '3.1.0',
    info: { title: 'Recovery service API', version, description: DESCRIPTION },
    servers: API_NAMES.map((api) => SERVERS[api]),
    tags: [...groups].map(([name, count]) => ({ name, description: `${count} operation${count === 1 ? '' : 's'} served by the \`${name}\` function.` })),
    paths: documented,
    components: withoutUnusedFallbacks({ ...COMPONENTS, schemas: { ...COMPONENTS.schemas, ...converted } }, JSON.stringify(documented)),
    'x-nonstandard-security': NONSTANDARD_SECURITY,
  };
}

const cache = new WeakMap<readonly RouteDef[], Map<string, OpenApiDocument>>();

/**
 * The OpenAPI 3.1 document of a route table: one operation per row, request and response
 * schemas from the row's zod schemas, and the error responses, security and headers DESIGN §1
 * gives each auth kind. Pure, so it is built once per table and version and then shared (frozen).
 *
 * @example
 * const document = buildOpenApiDocument(routes, { version: env.SERVICE_VERSION });
 */
export function buildOpenApiDocument(routes: readonly RouteDef[], options: BuildOptions = {}): OpenApiDocument {
  const version = options.version ?? DEFAULT_SERVICE_VERSION;
  let byVersion = cache.get(routes);
  if (byVersion === undefined) {
    byVersion = new Map();
    cache.set(routes, byVersion);
  }
  let document = byVersion.get(version);
  if (document === undefined) {
    document = deepFreeze(build(routes, version));
    byVersion.set(version, document);
  }
  return document;
}
