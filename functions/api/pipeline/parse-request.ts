import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { z } from 'zod/mini';
import type { RouteDef } from '#api/route-types';
import { InvalidRequestError, ResourceNotFoundError, ValidationError } from '#core/errors';
import { isPossibleId } from '#core/ids';

/** Bodies above this are refused before they are parsed (spec: size not shown; Stripe-like bound). */
export const MAX_BODY_BYTES = 256 * 1024;

/** JSON bodies nesting deeper than this (objects and arrays) are refused before validation. */
export const MAX_BODY_DEPTH = 32;

/** Object keys refused anywhere in a JSON body: assigned to an object, they replace its prototype. */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__']);

export interface ParsedInput {
  readonly params: unknown;
  readonly query: unknown;
  readonly body: unknown;
}

type Location = 'params' | 'query' | 'body';

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * DESIGN's split: a missing required field, or a filter value outside its allowed set, is a
 * malformed request (400 invalid_request); a present field with a bad value (range, format,
 * type, enum in a body) is 422 validation_error. `param` names the field, dotted for nested.
 */
function refuse(location: Location, input: unknown, error: z.core.$ZodError): never {
  const issue = error.issues[0];
  if (issue === undefined) throw new InvalidRequestError('The request is invalid.');
  // A strict object's unknown field (Stripe's "Received unknown parameter"): malformed, `param` names the field.
  if (issue.code === 'unrecognized_keys') {
    const field = [...issue.path.map(String), issue.keys[0] ?? ''].join('.').slice(0, 200);
    throw new InvalidRequestError(`Unknown field: ${field}.`, { param: field });
  }
  const param = issue.path.map(String).join('.') || undefined;
  const present = valueAt(input, issue.path) !== undefined;
  const options = param === undefined ? {} : { param };
  // Whatever zod calls it (invalid_type, or invalid_value for an enum), an absent field is missing.
  if (!present) {
    throw new InvalidRequestError(`Missing required ${location === 'query' ? 'query parameter' : 'field'}: ${param ?? 'body'}.`, options);
  }
  const what = param === undefined ? `The ${location === 'body' ? 'body' : location}` : `${location === 'query' ? 'Query parameter' : 'Field'} ${param}`;
  if (location === 'query' && issue.code === 'invalid_value') {
    throw new InvalidRequestError(`${what} has a value outside its allowed set: ${issue.message}`, options);
  }
  throw new ValidationError(`${what} is invalid: ${issue.message}`, options);
}

const noSuchResource = (name: string): ResourceNotFoundError => new ResourceNotFoundError(`No resource has this ${name}.`, { param: name });

/**
 * The path parameters, percent-decoded, each held to the shared id rule (core/ids.ts
 * `isPossibleId`: length in bytes and alphabet) before anything reads them: a value outside it
 * names nothing that can exist, so it is 404 `resource_not_found` (`param` names it), never a
 * lookup. Broken percent-encoding is a malformed request (400). Every route gets this, whatever
 * its schemas (but a hosted page whose row asks for its `rawPathParameters`); authenticators and
 * operations that read path parameters take them from here.
 */
export function decodePathParameters(event: APIGatewayProxyEvent): Record<string, string> {
  const decoded: Record<string, string> = {};
  for (const [name, raw] of Object.entries(event.pathParameters ?? {})) {
    if (raw === undefined) continue;
    let value: string;
    try {
      // REST APIs pass path parameters still percent-encoded.
      value = decodeURIComponent(raw);
    } catch {
      throw new InvalidRequestError(`Path parameter ${name} is not valid percent-encoding.`, { param: name });
    }
    if (!isPossibleId(value)) throw noSuchResource(name);
    decoded[name] = value;
  }
  return decoded;
}

/** A parameter name as it may be echoed in a message (names are client input). */
const shown = (name: string): string => (name.length > 40 ? `${name.slice(0, 40)}…` : name);

/**
 * The query parameter names a query schema reads, or `any` when it takes free-form names (a
 * record, an object with a catchall) or its shape cannot be told. Unwraps what the route schemas
 * use around objects: pipes, optional/default wrappers, unions and intersections.
 */
export function queryParameterNames(schema: z.ZodMiniType): ReadonlySet<string> | 'any' {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  switch (def.type) {
    case 'object': {
      const catchall = def.catchall as z.ZodMiniType | undefined;
      const closed = catchall === undefined || (catchall as unknown as { _zod: { def: { type: string } } })._zod.def.type === 'never';
      return closed ? new Set(Object.keys(def.shape as object)) : 'any';
    }
    case 'pipe':
      return queryParameterNames(def.in as z.ZodMiniType);
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return queryParameterNames(def.innerType as z.ZodMiniType);
    case 'union': {
      const names = new Set<string>();
      for (const option of def.options as z.ZodMiniType[]) {
        const inner = queryParameterNames(option);
        if (inner === 'any') return 'any';
        for (const name of inner) names.add(name);
      }
      return names;
    }
    case 'intersection': {
      const left = queryParameterNames(def.left as z.ZodMiniType);
      const right = queryParameterNames(def.right as z.ZodMiniType);
      return left === 'any' || right === 'any' ? 'any' : new Set([...left, ...right]);
    }
    default:
      return 'any';
  }
}

/**
 * Refuses a query parameter the row does not read with 400 `invalid_request` naming it, as Stripe
 * does (`?stauts=pending` must not list everything). A row without a query schema reads none.
 * Provider-signed rows are exempt: the provider, not our client, holds the URL, and some sign it
 * whole (Square), so whatever query it carries is the provider's.
 */
function refuseUnknownQuery(route: RouteDef, query: Readonly<Record<string, unknown>>): void {
  if (route.auth === 'provider_signature') return;
  const schema = route.schemas?.query;
  const known = schema === undefined ? new Set<string>() : queryParameterNames(schema);
  if (known === 'any') return;
  const unknown = Object.keys(query).find((name) => !known.has(name));
  if (unknown === undefined) return;
  const allowed = [...known].sort().join(', ');
  throw new InvalidRequestError(
    `Received unknown query parameter: ${shown(unknown)}.${allowed === '' ? ' This route takes none.' : ` It takes: ${allowed}.`}`,
    { param: unknown },
  );
}

/** The body as received, refused over the size limit (the row's `maxBodyBytes`, else MAX_BODY_BYTES) before anything reads it. */
export function rawBody(event: APIGatewayProxyEvent, limit: number = MAX_BODY_BYTES): Buffer | undefined {
  if (event.body === null || event.body === undefined || event.body === '') return undefined;
  const raw = event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
  if (raw.length > limit) throw new InvalidRequestError(`The body is larger than ${limit / 1024} KB.`);
  return raw;
}

/**
 * Walks a parsed body without recursion (a body 10,000 levels deep must not overflow the stack of
 * whatever reads it next): refuses nesting beyond MAX_BODY_DEPTH (`param`: the top-level field)
 * and `__proto__` keys (`param`: the dotted path of the key) with 400.
 */
function refuseHostileShape(body: unknown): void {
  const pending: Array<{ value: unknown; depth: number; path: string }> = [{ value: body, depth: 0, path: '' }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, depth, path } = next;
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_BODY_DEPTH) {
      // `param` names the top-level field holding the deep nesting (the full path would be as deep).
      const field = path.split('.')[0] ?? '';
      throw new InvalidRequestError(`The body nests objects and arrays deeper than ${MAX_BODY_DEPTH} levels.`, field === '' ? {} : { param: field });
    }
    for (const [key, inner] of Object.entries(value)) {
      const at = path === '' ? key : `${path}.${key}`;
      if (FORBIDDEN_KEYS.has(key)) throw new InvalidRequestError(`The body may not use the key ${key}.`, { param: at });
      pending.push({ value: inner, depth: depth + 1, path: at });
    }
  }
}

function parseJson(raw: Buffer | undefined): unknown {
  if (raw === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    throw new InvalidRequestError('The body is not valid JSON.');
  }
  refuseHostileShape(parsed);
  return parsed;
}

function validate(location: Location, schema: z.ZodMiniType | undefined, input: unknown): unknown {
  if (schema === undefined) return input;
  const result = schema.safeParse(input);
  if (!result.success) {
    // A path that names nothing that can exist (outside the row's own id rule) is 404, as an absent resource.
    if (location === 'params') throw noSuchResource(result.error.issues[0]?.path.map(String).join('.') || 'id');
    refuse(location, input, result.error);
  }
  return result.data;
}

/**
 * Reads and validates a request against its row's schemas, path parameters first (before anything
 * is read or looked up): path parameters decoded and held to the id rule (404), then to the row's
 * params schema (404 too); query strings (last value of each; a name the row does not read is
 * 400); the JSON body (size-checked before parsing, depth and `__proto__` refused after). Unknown
 * body fields are dropped by the object schemas, so they are never stored.
 */
export function parseRequest(event: APIGatewayProxyEvent, route: RouteDef): ParsedInput {
  const schemas = route.schemas ?? {};
  const params = validate('params', schemas.params, schemas.rawPathParameters === true ? { ...event.pathParameters } : decodePathParameters(event));
  const query = { ...(event.queryStringParameters ?? {}) };
  refuseUnknownQuery(route, query);
  const raw = rawBody(event, route.schemas?.maxBodyBytes);
  // Rows without a body schema take no body; what is sent is ignored, as Stripe does.
  const body = schemas.body === undefined ? undefined : parseJson(raw);
  if (schemas.body !== undefined && body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
    throw new InvalidRequestError('The body must be a JSON object.');
  }
  return {
    params,
    query: validate('query', schemas.query, query),
    body: schemas.body === undefined ? undefined : validate('body', schemas.body, body ?? {}),
  };
}
