import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { DATABASE_NAME_PATTERN, MAX_WEBSOCKET_MESSAGE_BYTES } from '#core/browser-sessions';
import { closeReason, frameMessage } from '#core/relay-messages';
import { InvalidRequestError, ResourceNotFoundError } from '#core/errors';
import { sendToRelay } from '#adapters/relay-queue';
import { headerOf } from '#api/pipeline/headers';
import { errorResponse } from '#api/pipeline/responses';
import { connectWebsocket, disconnectWebsocket } from '#services/browser-sessions';
import { logger } from '#shared/logger';

/** What API Gateway adds to a WebSocket event's request context (aws-lambda's types lack the `$disconnect` fields). */
type WebsocketContext = APIGatewayProxyEvent['requestContext'] & {
  readonly disconnectStatusCode?: number;
  readonly disconnectReason?: string;
};

/**
 * The WebSocket API's Lambda on AWS (lib/constructs/websocket-proxy-api.ts), one function for its
 * three routes; the upstream sockets are held by the relay (functions/relay/, ECS), which this
 * function reaches through the relay's SQS FIFO queue, one message group per connection
 * (core/relay-messages.ts; docs/session-proxy.md):
 * - `$connect` (`wss://<api>/<stage>?database=<name>&ticket=<ticket>`, or with the session
 *   cookie when the API shares the site): authenticated exactly as the local upgrade and the HTTP
 *   route are (services/browser-sessions.ts `authorizeSubscription`, the ticket spent), the
 *   connection recorded in the table, then `open` sent to the relay; any refusal is the
 *   handshake's HTTP answer, in the error envelope, and leaves no connection item behind.
 * - `$default` (a message from the browser): sent to the relay as a `frame`. The route is one-way
 *   (no route response): what the browser hears comes from the upstream, through the relay. A
 *   message over 128 KB is refused and the connection closed through the relay (1009), as the
 *   local proxy does (API Gateway itself refuses such a message first, with 1009).
 * - `$disconnect`: the connection's item deleted, `close` (with API Gateway's code) sent.
 */
export async function handler(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const context = event.requestContext as WebsocketContext;
  const requestId = context.requestId;
  const connectionId = context.connectionId ?? '';
  try {
    switch (context.routeKey) {
      case '$connect': {
        const database = event.queryStringParameters?.database ?? '';
        if (!DATABASE_NAME_PATTERN.test(database)) throw new ResourceNotFoundError('No database of this name: pass ?database=<name>.', { param: 'database' });
        await connectWebsocket(
          connectionId,
          database,
          { cookieHeader: headerOf(event, 'cookie'), ticket: event.queryStringParameters?.ticket ?? undefined },
          new Date(),
        );
        try {
          await sendToRelay({ v: 1, type: 'open', connection_id: connectionId }, requestId);
        } catch (error) {
          // The handshake fails: the connection it recorded goes with it.
          await disconnectWebsocket(connectionId);
          throw error;
        }
        return { statusCode: 200, body: '' };
      }
      case '$disconnect':
        await disconnectWebsocket(connectionId);
        await sendToRelay(
          {
            v: 1,
            type: 'close',
            connection_id: connectionId,
            ...(context.disconnectStatusCode === undefined ? {} : { code: context.disconnectStatusCode }),
            ...(context.disconnectReason === undefined ? {} : { reason: closeReason(context.disconnectReason) }),
          },
          requestId,
        );
        return { statusCode: 200, body: '' };
      default: {
        const bytes = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
        if (bytes.length > MAX_WEBSOCKET_MESSAGE_BYTES) {
          await sendToRelay({ v: 1, type: 'close', connection_id: connectionId, code: 1009, reason: 'message too big', close_client: true }, requestId);
          throw new InvalidRequestError(`A message may hold at most ${MAX_WEBSOCKET_MESSAGE_BYTES} bytes; the connection is closed (1009).`, {
            param: 'body',
          });
        }
        await sendToRelay(frameMessage(connectionId, bytes), requestId);
        return { statusCode: 200, body: '' };
      }
    }
  } catch (error) {
    const response = errorResponse(error, requestId);
    if (response.statusCode >= 500) {
      logger.error('websocket route failed', {
        request_id: requestId,
        route: context.routeKey,
        error: error instanceof Error ? error.message : String(error),
      });
    }
    return response;
  }
}
