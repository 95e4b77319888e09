import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { z } from 'zod';
import type { RouteDef } from '../route-types';
import { InvalidRequestError, ValidationError } from '../../core/errors';

/** Bodies above this are refused before they are parsed (spec: size not shown; Stripe-like bound). */
export const MAX_BODY_BYTES = 256 * 1024;

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
function refuse(location: Location, input: unknown, error: z.ZodError): never {
  const issue = error.issues[0];
  if (issue === undefined) throw new InvalidRequestError('The request is invalid.');
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

function decodePathParameters(event: APIGatewayProxyEvent): Record<string, string> {
  const decoded: Record<string, string> = {};
  for (const [name, raw] of Object.entries(event.pathParameters ?? {})) {
    if (raw === undefined) continue;
    try {
      // REST APIs pass path parameters still percent-encoded.
      decoded[name] = decodeURIComponent(raw);
    } catch {
      throw new InvalidRequestError(`Path parameter ${name} is not valid percent-encoding.`, { param: name });
    }
  }
  return decoded;
}

/** The body as received, refused over the size limit before anything reads it. */
export function rawBody(event: APIGatewayProxyEvent): Buffer | undefined {
  if (event.body === null || event.body === undefined || event.body === '') return undefined;
  const raw = event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
  if (raw.length > MAX_BODY_BYTES) throw new InvalidRequestError(`The body is larger than ${MAX_BODY_BYTES / 1024} KB.`);
  return raw;
}

function parseJson(raw: Buffer | undefined): unknown {
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    throw new InvalidRequestError('The body is not valid JSON.');
  }
}

function validate(location: Location, schema: z.ZodType | undefined, input: unknown): unknown {
  if (schema === undefined) return input;
  const result = schema.safeParse(input);
  if (!result.success) refuse(location, input, result.error);
  return result.data;
}

/**
 * Reads and validates a request against its row's schemas: path parameters decoded, query
 * strings (last value of each), and the JSON body (size-checked before parsing). Unknown body
 * fields are dropped by the object schemas, so they are never stored.
 */
export function parseRequest(event: APIGatewayProxyEvent, route: RouteDef): ParsedInput {
  const schemas = route.schemas ?? {};
  const raw = rawBody(event);
  // Rows without a body schema take no body; what is sent is ignored, as Stripe does.
  const body = schemas.body === undefined ? undefined : parseJson(raw);
  if (schemas.body !== undefined && body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
    throw new InvalidRequestError('The body must be a JSON object.');
  }
  return {
    params: validate('params', schemas.params, decodePathParameters(event)),
    query: validate('query', schemas.query, { ...(event.queryStringParameters ?? {}) }),
    body: schemas.body === undefined ? undefined : validate('body', schemas.body, body ?? {}),
  };
}
