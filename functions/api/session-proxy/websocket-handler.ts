import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { DATABASE_NAME_PATTERN } from '#core/browser-sessions';
import { NotImplementedError, ResourceNotFoundError } from '#core/errors';
import { headerOf } from '#api/pipeline/headers';
import { errorResponse, jsonResponse } from '#api/pipeline/responses';
import { connectWebsocket, disconnectWebsocket } from '#services/browser-sessions';
import { logger } from '#shared/logger';

/**
 * The WebSocket API's Lambda on AWS (lib/constructs/websocket-proxy-api.ts), one function for its
 * three routes:
 * - `$connect` (`wss://<api>/<stage>?database=<name>&ticket=<ticket>`, or with the session
 *   cookie when the API shares the site): authenticated exactly as the local upgrade and the HTTP
 *   route are (services/browser-sessions.ts `authorizeSubscription`, the ticket spent), then the
 *   connection is recorded in the table; any refusal is the handshake's HTTP answer, in the error
 *   envelope.
 * - `$disconnect`: the connection's item is deleted.
 * - `$default` (a frame from the browser): the relay to the upstream is not built on AWS (a Lambda
 *   cannot hold the upstream socket; docs/session-proxy.md says what would): it answers the frame
 *   with a `not_implemented` error frame.
 */
export async function handler(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const requestId = event.requestContext.requestId;
  const connectionId = event.requestContext.connectionId ?? '';
  try {
    switch (event.requestContext.routeKey) {
      case '$connect': {
        const database = event.queryStringParameters?.database ?? '';
        if (!DATABASE_NAME_PATTERN.test(database)) throw new ResourceNotFoundError('No database of this name: pass ?database=<name>.', { param: 'database' });
        await connectWebsocket(
          connectionId,
          database,
          { cookieHeader: headerOf(event, 'cookie'), ticket: event.queryStringParameters?.ticket ?? undefined },
          new Date(),
        );
        return { statusCode: 200, body: '' };
      }
      case '$disconnect':
        await disconnectWebsocket(connectionId);
        return { statusCode: 200, body: '' };
      default:
        throw new NotImplementedError('Relaying frames to the upstream is not built on AWS yet; see docs/session-proxy.md.');
    }
  } catch (error) {
    const response = errorResponse(error, requestId);
    if (response.statusCode >= 500 && response.statusCode !== 501) {
      logger.error('websocket route failed', {
        request_id: requestId,
        route: event.requestContext.routeKey,
        error: error instanceof Error ? error.message : String(error),
      });
    }
    return response.statusCode === 501 ? jsonResponse(200, JSON.parse(response.body)) : response;
  }
}
