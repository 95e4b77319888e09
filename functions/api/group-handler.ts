import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { AppError, InsufficientScopeError, NotImplementedError, ResourceNotFoundError } from '#core/errors';
import { scopesGrant } from '#core/scopes';
import type { Authenticator, Authenticators } from './pipeline/authenticator';
import { idempotencyKeyOf, withIdempotency } from './pipeline/idempotency';
import { parseRequest } from './pipeline/parse-request';
import { limitApiKey, rateLimitHeaders } from './pipeline/rate-limit';
import { type Headers, errorResponse, fileResponse, htmlResponse, jsonResponse } from './pipeline/responses';
import { logger } from '#shared/logger';
import type { ApiKeyPrincipal, Operation, OperationRequest } from './operation';
import type { AuthKind, RouteDef } from './route-types';

export type GroupHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

const routeKey = (method: string, resource: string): string => `${method} ${resource}`;

function rowsOf(groupRows: readonly RouteDef[], operations: Readonly<Record<string, Operation>>, authenticators: Authenticators): Map<string, RouteDef> {
  const group = groupRows[0]?.group;
  if (group === undefined) throw new Error('A group handler needs its rows');
  const rows = new Map<string, RouteDef>();
  for (const route of groupRows) {
    if (route.group !== group) throw new Error(`Row ${route.operationId} belongs to group "${route.group}", not "${group}"`);
    if (authenticators[route.auth] === undefined)
      throw new Error(`Row ${route.operationId} needs the ${route.auth} authenticator, which group "${group}" was not given`);
    rows.set(routeKey(route.method, route.path), route);
  }
  for (const [operationId, operation] of Object.entries(operations)) {
    const route = [...rows.values()].find((row) => row.operationId === operationId);
    if (route === undefined) throw new Error(`Operation "${operationId}" is not a row of group "${group}"`);
    if (route.schemas !== operation.schemas) throw new Error(`Operation "${operationId}" must be defined with its route row's schemas`);
    if (route.auth !== operation.auth) throw new Error(`Operation "${operationId}" must be defined with its route row's auth kind (${route.auth})`);
  }
  return rows;
}

/** Scopes (DESIGN §1): a key without any of the row's scopes is 403. */
function authorize(principal: ApiKeyPrincipal, route: RouteDef): void {
  if (route.scopes.length > 0 && !scopesGrant(principal.apiKey.scopes, route.scopes)) {
    throw new InsufficientScopeError(`This API key lacks the scope for ${route.method} ${route.path}: it needs one of ${route.scopes.join(', ')}.`);
  }
}

/**
 * The Lambda of one group, and the one pipeline every route goes through, in order:
 * route lookup by `httpMethod` + `resource` (as API Gateway sends them); the authenticator of the
 * row's auth kind, which gives the operation its typed principal; for an API key, the per-key rate
 * limit (its headers go on every later response, errors included) and then the row's scopes; 501
 * for rows not built yet; then, under the Idempotency-Key when one is sent, request validation and
 * the operation. Every outcome is rendered with `X-Request-Id`; an unexpected error becomes a 500
 * that leaks nothing, its cause logged with the request id.
 * `groupRows` are the group's own rows (`<group>/routes.ts`) and `authenticators` those of their
 * auth kinds (pipeline/authenticator.ts; a row whose kind is missing is refused here, at load): a
 * group's Lambda bundles nothing of the other groups, nor of the auth kinds it does not serve.
 */
export function createGroupHandler(
  groupRows: readonly RouteDef[],
  operations: Readonly<Record<string, Operation>>,
  authenticators: Authenticators,
): GroupHandler {
  const rows = rowsOf(groupRows, operations, authenticators);

  const dispatch = async (event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> => {
    const requestId = event.requestContext.requestId;
    let headers: Headers = {};
    try {
      const route = rows.get(routeKey(event.httpMethod, event.resource));
      if (route === undefined) throw new ResourceNotFoundError(`No route ${event.httpMethod} ${event.path}.`);
      const operation = operations[route.operationId];
      const authenticate = authenticators[route.auth] as Authenticator<AuthKind>;
      const principal = await authenticate({ event, route, operation, now: new Date() });
      if (principal.kind === 'api_key') {
        headers = rateLimitHeaders(await limitApiKey(principal, event.httpMethod));
        authorize(principal, route);
      }
      if (operation === undefined) throw new NotImplementedError(`${route.method} ${route.path} (${route.operationId}) is not implemented yet.`);

      const execute = async (): Promise<APIGatewayProxyResult> => {
        try {
          const input = parseRequest(event, route);
          const request = { event, route, requestId, principal, ...input } as OperationRequest;
          const result = await operation.run(request);
          if (result.html !== undefined) return htmlResponse(result.statusCode ?? 200, result.html, result.headers);
          if (result.file !== undefined) return fileResponse(result.statusCode ?? 200, result.file, result.headers);
          return jsonResponse(result.statusCode ?? 200, result.body, result.headers);
        } catch (error) {
          // Errors below 500 are results like any other (and stored under an Idempotency-Key).
          if (error instanceof AppError && error.statusCode < 500) return errorResponse(error, requestId);
          throw error;
        }
      };
      const idempotencyKey = principal.kind === 'api_key' ? idempotencyKeyOf(event) : undefined;
      const result =
        principal.kind === 'api_key' && idempotencyKey !== undefined
          ? await withIdempotency(event, principal.merchantId, idempotencyKey, execute)
          : await execute();
      return { ...result, headers: { ...result.headers, ...headers, 'X-Request-Id': requestId } };
    } catch (error) {
      const response = errorResponse(error, requestId, headers);
      if (response.statusCode >= 500 && response.statusCode !== 501) {
        logger.error('request failed', {
          request_id: requestId,
          route: routeKey(event.httpMethod, event.resource),
          error: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error),
        });
      }
      return response;
    }
  };

  return middy<APIGatewayProxyEvent, APIGatewayProxyResult>({ timeoutEarlyInMillis: 0 }).handler(dispatch);
}
