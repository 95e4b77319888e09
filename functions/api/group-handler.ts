import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { NotImplementedError, ResourceNotFoundError } from '../core/errors';
import { logger } from '../shared/logger';
import { authenticate } from '../shared/http/authenticate';
import { errorResponse, jsonResponse } from '../shared/http/responses';
import type { Operation } from './operation';
import type { RouteDef } from './route-types';
import { routes } from './routes';

export type GroupHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

const routeKey = (method: string, resource: string): string => `${method} ${resource}`;

/**
 * The Lambda of one group: finds the row by `httpMethod` + `resource` (as API Gateway sends
 * them), authenticates as the row says, runs the row's operation, and renders every outcome,
 * errors included, with `X-Request-Id`. Rows without an operation answer 501 `not_implemented`.
 */
export function createGroupHandler(group: string, operations: Readonly<Record<string, Operation>>): GroupHandler {
  const rows = new Map<string, RouteDef>();
  for (const route of routes) if (route.group === group) rows.set(routeKey(route.method, route.path), route);
  if (rows.size === 0) throw new Error(`No route of the table belongs to group "${group}"`);
  const operationIds = new Set([...rows.values()].map((route) => route.operationId));
  for (const operationId of Object.keys(operations)) {
    if (!operationIds.has(operationId)) throw new Error(`Operation "${operationId}" is not a row of group "${group}"`);
  }

  const dispatch = async (event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> => {
    const requestId = event.requestContext.requestId;
    const route = rows.get(routeKey(event.httpMethod, event.resource));
    if (route === undefined) throw new ResourceNotFoundError(`No route ${event.httpMethod} ${event.path}.`);
    const caller = await authenticate(event, route);
    const operation = operations[route.operationId];
    if (operation === undefined) {
      throw new NotImplementedError(`${route.method} ${route.path} (${route.operationId}) is not implemented yet.`);
    }
    const result = await operation({ event, route, requestId, caller });
    return jsonResponse(result.statusCode ?? 200, result.body, { 'X-Request-Id': requestId, ...result.headers });
  };

  return middy<APIGatewayProxyEvent, APIGatewayProxyResult>({ timeoutEarlyInMillis: 0 })
    .onError((request) => {
      const requestId = request.event.requestContext.requestId;
      const response = errorResponse(request.error, requestId);
      if (response.statusCode >= 500 && response.statusCode !== 501) {
        logger.error('request failed', {
          request_id: requestId,
          route: `${request.event.httpMethod} ${request.event.resource}`,
          error: request.error instanceof Error ? { name: request.error.name, message: request.error.message, stack: request.error.stack } : String(request.error),
        });
      }
      request.response = response;
    })
    .handler(dispatch);
}
