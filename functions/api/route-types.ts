import type { z } from 'zod/mini';
import { SCOPES, type Scope } from '#core/scopes';

export { SCOPES, type Scope } from '#core/scopes';

/** The three REST APIs of DESIGN §1; `all` serves a row on every host (only `/health`). */
export const API_NAMES = ['merchant', 'edge', 'webhook'] as const;
export type ApiName = (typeof API_NAMES)[number];

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/**
 * How a route authenticates its caller.
 * - `api_key`: `Authorization: Bearer` or `X-API-Key`, with the row's scopes.
 * - `optional_api_key`: works without a key; a key, when given, must be valid.
 * - `public`: no credential.
 * - `session_token`: a cancel-session token in the path.
 * - `widget_hmac`: HMAC over merchant_id, customer_id and timestamp in the body.
 * - `provider_signature`: the sending provider's own signature scheme.
 * - `cron_secret`: the shared internal secret.
 * - `session_cookie`: the HttpOnly session cookie set by `/ws/auth/session`.
 */
export const AUTH_KINDS = [
  'api_key',
  'optional_api_key',
  'public',
  'session_token',
  'widget_hmac',
  'provider_signature',
  'cron_secret',
  'session_cookie',
] as const;
export type AuthKind = (typeof AUTH_KINDS)[number];

export interface RouteSchemas {
  readonly params?: z.ZodMiniType;
  readonly query?: z.ZodMiniType;
  readonly body?: z.ZodMiniType;
  /** Response bodies by status code. */
  readonly responses?: Readonly<Record<number, z.ZodMiniType>>;
  /** Success statuses answered with an HTML page (`text/html`) instead of JSON (a hosted page, such as unsubscribe's). */
  readonly htmlStatuses?: readonly number[];
  /** Error statuses the operation answers beyond those its auth kind, path and method imply (documented in OpenAPI). */
  readonly errorStatuses?: readonly number[];
  /**
   * The body of an operation that reads it itself (a signed body, verified over the bytes as
   * sent, or one read only after the caller's credential is checked): documented in OpenAPI, never
   * parsed by the pipeline. A function gives each row sharing the schemas object its own.
   */
  readonly documentedBody?: DocumentedBody | ((route: RouteDef) => DocumentedBody);
  /** The largest body the row takes, in bytes. @default MAX_BODY_BYTES (api/pipeline/parse-request.ts) */
  readonly maxBodyBytes?: number;
  /**
   * Path parameters handed to the operation as sent (still percent-encoded), not held to the
   * shared id rule, whose answer is a JSON 404: for a hosted page whose path holds a credential
   * and that answers a malformed one (too long included) with an HTML page of its own
   * (`GET /cancel/{token}`). Every other row keeps the rule.
   */
  readonly rawPathParameters?: boolean;
  /** Success statuses answered with a file (OperationResult `file`) instead of JSON, with the media types it may have. */
  readonly fileResponses?: Readonly<Record<number, readonly string[]>>;
}

/** A request body as the OpenAPI document describes it: what is accepted, per media type. */
export interface DocumentedBody {
  readonly description: string;
  /** @default true */
  readonly required?: boolean;
  /** Media type (`application/json`, `application/x-www-form-urlencoded`) to the schema of what is accepted. */
  readonly content: Readonly<Record<string, z.ZodMiniType>>;
}

export interface RouteDef {
  /** camelCase verbNoun, unique across the table. */
  readonly operationId: string;
  /** One Lambda per group: `functions/api/<group>/handler.ts`. */
  readonly group: string;
  readonly api: ApiName | 'all';
  readonly method: HttpMethod;
  /** API Gateway syntax: `/api/v1/payments/{id}`. */
  readonly path: string;
  readonly auth: AuthKind;
  /** Any one of these grants the route (`X or Y`); only for `api_key` and `optional_api_key`. */
  readonly scopes: readonly Scope[];
  /** Set once the operation is built; rows without it answer 501 `not_implemented`. */
  readonly schemas?: RouteSchemas;
  readonly summary: string;
}

export class RouteTableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RouteTableError';
  }
}

const SEGMENT = /^(?:[A-Za-z0-9._-]+|\{[A-Za-z][A-Za-z0-9_]*\})$/;
const OPERATION_ID = /^[a-z][A-Za-z0-9]*$/;
const GROUP = /^[a-z][a-z0-9-]*$/;

/** Whether a row answers on the given API's host. */
export const servesApi = (route: RouteDef, api: ApiName): boolean => route.api === 'all' || route.api === api;

/**
 * Checks the table as API Gateway and our routers would: unique method+path and operationId,
 * `{param}` segments only (no wildcards, no trailing slash), one parameter name per position
 * (API Gateway refuses `/x/{a}` beside `/x/{b}`), known auth kinds and scopes, and scopes exactly
 * where a key is read.
 */
export function validateRoutes(routes: readonly RouteDef[]): void {
  const seenPaths = new Set<string>();
  const seenIds = new Set<string>();
  const paramAt = new Map<string, string>();
  for (const route of routes) {
    const where = `${route.method} ${route.path}`;
    if (!OPERATION_ID.test(route.operationId)) throw new RouteTableError(`${where}: operationId "${route.operationId}" is not camelCase`);
    if (!GROUP.test(route.group)) throw new RouteTableError(`${where}: group "${route.group}" is not kebab-case`);
    if (!(HTTP_METHODS as readonly string[]).includes(route.method)) throw new RouteTableError(`${where}: unknown method`);
    if (route.api !== 'all' && !(API_NAMES as readonly string[]).includes(route.api)) throw new RouteTableError(`${where}: unknown api "${route.api}"`);
    if (!(AUTH_KINDS as readonly string[]).includes(route.auth)) throw new RouteTableError(`${where}: unknown auth kind "${route.auth}"`);
    if (!route.path.startsWith('/')) throw new RouteTableError(`${where}: path must start with /`);
    if (route.path.length > 1 && route.path.endsWith('/')) throw new RouteTableError(`${where}: trailing slash`);
    const segments = route.path.split('/').slice(1);
    let prefix = '';
    for (const segment of segments) {
      if (!SEGMENT.test(segment)) throw new RouteTableError(`${where}: segment "${segment}" is neither a literal nor {param}`);
      if (segment.startsWith('{')) {
        const other = paramAt.get(prefix);
        if (other !== undefined && other !== segment) {
          throw new RouteTableError(`${where}: ${segment} conflicts with ${other} at ${prefix || '/'}`);
        }
        paramAt.set(prefix, segment);
      }
      prefix += `/${segment.startsWith('{') ? '{}' : segment}`;
    }
    if (seenPaths.has(where)) throw new RouteTableError(`${where}: duplicate method and path`);
    seenPaths.add(where);
    if (seenIds.has(route.operationId)) throw new RouteTableError(`${where}: duplicate operationId ${route.operationId}`);
    seenIds.add(route.operationId);
    const keyed = route.auth === 'api_key' || route.auth === 'optional_api_key';
    if (route.auth === 'api_key' && route.scopes.length === 0) throw new RouteTableError(`${where}: api_key route without scopes`);
    if (!keyed && route.scopes.length > 0) throw new RouteTableError(`${where}: scopes on a ${route.auth} route`);
    for (const scope of route.scopes) {
      if (!(SCOPES as readonly string[]).includes(scope)) throw new RouteTableError(`${where}: unknown scope "${scope}"`);
    }
  }
}

/** What the table checks of each registry entry (`groups.ts`); the registry's own type lives there. */
interface GroupEntry {
  readonly api: ApiName | 'all';
  readonly table: 'read' | 'write';
}

/**
 * Checks the rows against the group registry: every row's group is registered and every
 * registered group has rows, on the registered API, and a `read` group serves only GETs (it
 * gets read-only table access).
 */
export function validateGroups(routes: readonly RouteDef[], registry: Readonly<Record<string, GroupEntry>>): void {
  const seen = new Set<string>();
  for (const route of routes) {
    const where = `${route.method} ${route.path}`;
    const group = registry[route.group];
    if (group === undefined) throw new RouteTableError(`${where}: group "${route.group}" is not in the group registry`);
    if (route.api !== group.api) throw new RouteTableError(`${where}: api "${route.api}" is not its group's "${group.api}"`);
    seen.add(route.group);
  }
  for (const [name, group] of Object.entries(registry)) {
    if (!seen.has(name)) throw new RouteTableError(`group "${name}" has no rows`);
    const writes = routes.some((route) => route.group === name && route.method !== 'GET');
    if (group.table === 'read' && writes) throw new RouteTableError(`group "${name}" is read-only but serves a write method`);
    if (group.table === 'write' && !writes) throw new RouteTableError(`group "${name}" serves only GETs: declare it table 'read'`);
  }
}
