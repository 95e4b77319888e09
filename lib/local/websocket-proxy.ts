import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { errorResponse } from '#api/pipeline/responses';
import type { openSubscription } from '#api/session-proxy/open-subscription';
import { MAX_WEBSOCKET_MESSAGE_BYTES, sendableCloseCode } from '#core/browser-sessions';
import { ResourceNotFoundError, UpstreamError } from '#core/errors';
import { logger } from '#shared/logger';
import { toApiGatewayEvent } from './api-gateway-event';
import type { RouteMatcher } from './route-matcher';

/**
 * The local server's WebSocket proxy (session proxy, issue 16): an HTTP upgrade of
 * GET /ws/v1/database/{name}/subscribe is authenticated exactly as the route is
 * (api/session-proxy/open-subscription.ts: the cookie, or a one-time ticket spent now), then the
 * upstream socket is opened with the upstream's token (never the browser's to see) and only once
 * it is open is the client's upgrade accepted; frames are piped both ways, text as text and
 * binary as binary. Either side closing closes the other with its code (codes that cannot be sent
 * on the wire become 1000 or 1011); a message over 128 KB (API Gateway's limit) closes with 1009.
 * A refusal before the upgrade is the route's HTTP error envelope.
 */

const UPSTREAM_HANDSHAKE_TIMEOUT_MS = 10_000;

/** The operation whose route upgrades. */
const SUBSCRIBE_OPERATION = 'subscribeDatabase';

export { sendableCloseCode };

function refuseUpgrade(socket: Duplex, result: APIGatewayProxyResult): void {
  const body = Buffer.from(result.body ?? '', 'utf8');
  const reason = result.statusCode === 401 ? 'Unauthorized' : result.statusCode === 404 ? 'Not Found' : 'Error';
  const headers = Object.entries({ ...result.headers, 'Content-Length': String(body.length), Connection: 'close' })
    .map(([name, value]) => `${name}: ${String(value)}`)
    .join('\r\n');
  socket.end(Buffer.concat([Buffer.from(`HTTP/1.1 ${result.statusCode} ${reason}\r\n${headers}\r\n\r\n`, 'utf8'), body]));
}

/** Pipes two open sockets both ways until either closes. */
function pipe(client: WebSocket, upstream: WebSocket): void {
  const forward = (to: WebSocket) => (data: RawData, isBinary: boolean) => {
    if (to.readyState === WebSocket.OPEN) to.send(data, { binary: isBinary });
  };
  const closeOther = (other: WebSocket) => (code: number, reason: Buffer) => {
    if (other.readyState === WebSocket.OPEN || other.readyState === WebSocket.CONNECTING) other.close(sendableCloseCode(code), reason.subarray(0, 123));
  };
  client.on('message', forward(upstream));
  upstream.on('message', forward(client));
  client.on('close', closeOther(upstream));
  upstream.on('close', closeOther(client));
  client.on('error', () => client.terminate());
  upstream.on('error', () => upstream.terminate());
}

export interface WebSocketProxy {
  /** The server's `upgrade` listener. */
  readonly upgrade: (request: IncomingMessage, socket: Duplex, head: Buffer) => void;
  /** Closes every proxied connection (server stop). */
  closeAll(): void;
}

export function createWebSocketProxy(matcher: RouteMatcher): WebSocketProxy {
  const clients = new WebSocketServer({ noServer: true, maxPayload: MAX_WEBSOCKET_MESSAGE_BYTES });
  const upstreams = new Set<WebSocket>();

  const upgrade = async (request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> => {
    const requestId = randomUUID();
    const url = request.url ?? '/';
    const path = url.split('?')[0] ?? '/';
    const match = matcher.match('GET', path);
    if (request.method !== 'GET' || match === undefined || !('route' in match) || match.route.operationId !== SUBSCRIBE_OPERATION) {
      refuseUpgrade(socket, errorResponse(new ResourceNotFoundError(`No WebSocket route ${request.method ?? ''} ${path}.`), requestId));
      return;
    }
    const event = toApiGatewayEvent(
      { method: 'GET', url, rawHeaders: request.rawHeaders, body: Buffer.alloc(0), sourceIp: request.socket.remoteAddress ?? '127.0.0.1' },
      match,
      requestId,
    );
    let opened: Awaited<ReturnType<typeof openSubscription>>;
    try {
      // Loaded on the first upgrade: the runtime reads its environment at import, which the local
      // stack sets only once DynamoDB Local is up (an import at the top broke `npm start`).
      const { openSubscription: open } = await import('#api/session-proxy/open-subscription');
      opened = await open(event, match.route, new Date());
    } catch (error) {
      refuseUpgrade(socket, errorResponse(error, requestId));
      return;
    }
    const protocols = (request.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((protocol) => protocol.trim())
      .filter((protocol) => protocol !== '');
    const upstream = new WebSocket(opened.target.url, protocols, {
      headers: { Authorization: `Bearer ${opened.grant.upstreamToken}` },
      lookup: opened.target.lookup,
      maxPayload: MAX_WEBSOCKET_MESSAGE_BYTES,
      handshakeTimeout: UPSTREAM_HANDSHAKE_TIMEOUT_MS,
      followRedirects: false,
    });
    upstreams.add(upstream);
    upstream.on('close', () => upstreams.delete(upstream));
    const failed = (reason: string) => {
      upstream.removeAllListeners('open');
      upstream.terminate();
      logger.warn('websocket upstream refused', { request_id: requestId, database: opened.database, reason });
      refuseUpgrade(socket, errorResponse(new UpstreamError('The upstream refused the WebSocket connection.'), requestId));
    };
    upstream.once('unexpected-response', (_request, response) => failed(`HTTP ${response.statusCode ?? 0}`));
    upstream.once('error', (error) => {
      if (upstream.readyState !== WebSocket.OPEN) failed(error.message);
    });
    // A client that leaves while the upstream is still connecting takes the upstream with it.
    const abandoned = () => upstream.terminate();
    socket.once('close', abandoned);
    upstream.once('open', () => {
      socket.off('close', abandoned);
      clients.handleUpgrade(request, socket, head, (client) => pipe(client, upstream));
    });
  };

  return {
    upgrade: (request, socket, head) => {
      socket.on('error', () => socket.destroy());
      upgrade(request, socket, head).catch(() => socket.destroy());
    },
    closeAll: () => {
      for (const client of clients.clients) client.terminate();
      for (const upstream of upstreams) upstream.terminate();
    },
  };
}
