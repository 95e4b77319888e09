/**
 * The row builders every group's `routes.ts` declares its rows with. A row is pure data
 * (style.md rule 2); its group's Lambda, the CDK REST APIs, the local server and the OpenAPI
 * document are derived from it.
 */
import type { ApiName, AuthKind, HttpMethod, RouteDef, RouteSchemas, Scope } from './route-types';

export type { RouteDef } from './route-types';

const MERCHANT_ROOT = '/api/v1';

interface RowOptions {
  readonly auth?: AuthKind;
  readonly api?: ApiName | 'all';
  readonly schemas?: RouteSchemas;
}

/** A row of the merchant API; `path` is relative to `/api/v1`. Keyed by default. */
export function v1(
  group: string,
  method: HttpMethod,
  path: string,
  operationId: string,
  scopes: readonly Scope[],
  summary: string,
  options: RowOptions = {},
): RouteDef {
  const auth = options.auth ?? 'api_key';
  return {
    operationId,
    group,
    api: options.api ?? 'merchant',
    method,
    path: `${MERCHANT_ROOT}${path}`,
    auth,
    scopes,
    summary,
    ...(options.schemas ? { schemas: options.schemas } : {}),
  };
}

/** A row whose full path is given as the spec writes it (edge and webhook hosts). */
export function at(
  api: ApiName | 'all',
  group: string,
  method: HttpMethod,
  path: string,
  operationId: string,
  auth: AuthKind,
  scopes: readonly Scope[],
  summary: string,
  schemas?: RouteSchemas,
): RouteDef {
  return { operationId, group, api, method, path, auth, scopes, summary, ...(schemas ? { schemas } : {}) };
}

export const READ: Scope[] = ['read'];
export const WRITE: Scope[] = ['write'];
export const ADMIN: Scope[] = ['admin'];
export const PUBLIC = { auth: 'public' } as const;
export const CRON = { auth: 'cron_secret' } as const;

/** `authorize_net` → `AuthorizeNet`, for operationIds built from a provider id. */
export const capitalised = (psp: string): string =>
  psp
    .split('_')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
