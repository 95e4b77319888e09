import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { GroupHandler } from '#api/group-handler';
import type { RouteDef } from '#api/route-types';
import { ResourceNotFoundError } from '#core/errors';
import { errorResponse, jsonResponse } from '#api/pipeline/responses';
import { logger } from '#shared/logger';
import { toApiGatewayEvent } from './api-gateway-event';
import { createLambdaContext } from './lambda-context';
import { RouteMatcher } from './route-matcher';
import { createWebSocketProxy } from './websocket-proxy';

/** API Gateway's own payload limit; the application's tighter limit is enforced in the handler. */
export const API_GATEWAY_MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;

export interface LocalHttpServerOptions {
  readonly routes: readonly RouteDef[];
  /** Loads a group's Lambda handler (lazily, like a cold start). */
  readonly loadHandler: (group: string) => Promise<GroupHandler>;
  readonly port: number;
  /** @default '127.0.0.1' */
  readonly host?: string;
}

export interface LocalHttpServer {
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<Buffer | 'too_large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= API_GATEWAY_MAX_PAYLOAD_BYTES) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > API_GATEWAY_MAX_PAYLOAD_BYTES ? 'too_large' : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function send(response: ServerResponse, result: APIGatewayProxyResult): void {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) headers[name] = values.map(String);
  const body = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : Buffer.from(result.body ?? '', 'utf8');
  headers['Content-Length'] = String(body.length);
  response.writeHead(result.statusCode, headers);
  response.end(body);
}

/**
 * The local API Gateway: one node:http server for the three REST APIs (their paths never
 * collide), turning each request into a REST proxy event for its group's handler.
 */
export async function startLocalHttpServer(options: LocalHttpServerOptions): Promise<LocalHttpServer> {
  const matcher = new RouteMatcher(options.routes);

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const requestId = randomUUID();
    const method = request.method ?? 'GET';
    const url = request.url ?? '/';
    const body = await readBody(request);
    if (body === 'too_large') {
      send(response, jsonResponse(413, { message: 'Request Too Long' }, { 'X-Request-Id': requestId }));
      return;
    }
    const path = url.split('?')[0] ?? '/';
    const match = matcher.match(method, path);
    if (match === undefined || !('route' in match)) {
      // API Gateway's MISSING_AUTHENTICATION_TOKEN answer, mapped to the envelope (the CDK API does the same).
      send(response, errorResponse(new ResourceNotFoundError(`No route ${method} ${path}.`), requestId));
      return;
    }
    const event = toApiGatewayEvent(
      { method, url, rawHeaders: request.rawHeaders, body, sourceIp: request.socket.remoteAddress ?? '127.0.0.1' },
      match,
      requestId,
    );
    try {
      const handler = await options.loadHandler(match.route.group);
      send(response, await handler(event, createLambdaContext(`recovery-${match.route.group}`)));
    } catch (error) {
      // What API Gateway answers when the integration itself fails (a handler that throws
      // instead of answering, or one that cannot load).
      logger.error('integration failed', {
        request_id: requestId,
        group: match.route.group,
        error: error instanceof Error ? { name: error.name, message: error.message } : String(error),
      });
      send(response, jsonResponse(502, { message: 'Internal server error' }, { 'X-Request-Id': requestId }));
    }
  };

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) send(response, jsonResponse(502, { message: 'Internal server error' }));
    });
  });
  // WebSocket upgrades (the session proxy's subscribe route): authenticated and piped upstream.
  const webSockets = createWebSocketProxy(matcher);
  server.on('upgrade', webSockets.upgrade);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${address.address}:${address.port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        webSockets.closeAll();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
