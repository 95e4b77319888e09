import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small loopback JSON API standing in for a provider's live API in tests: routes answer
 * seeded resources, a wrong or missing credential gets 401, unknown ids 404, and
 * `failNextWith(503)` makes the next request fail once (to test retries). Records every request.
 * GET only unless `methods` says otherwise; errors the fake makes itself are `{ status, title }`
 * unless `errorBody` gives the provider's own shape (an SDK may read only that shape as an error).
 */
export interface FakeRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
}

/** A request as the fake received it, with its raw body ('' when there is none). */
export interface ReceivedRequest extends FakeRequest {
  readonly bodyText: string;
}

export interface JsonApiServer {
  readonly url: string;
  readonly requests: ReceivedRequest[];
  failNextWith(status: number): void;
  stop(): Promise<void>;
}

/**
 * Answers one request: the JSON body (status 200 unless given), or undefined for 404. With a
 * `contentType`, the body is a string sent as it is (an XML API, for instance).
 */
export type Route = (path: string, request: ReceivedRequest) => { status?: number; body: unknown; contentType?: string } | undefined;

export interface JsonApiServerOptions {
  readonly authorised: (headers: IncomingMessage['headers']) => boolean;
  readonly route: Route;
  /** The methods the API answers; any other gets 405. Default: GET only. */
  readonly methods?: readonly string[];
  /** The body of an error the fake makes itself (401, 404, 405, failNextWith), in the provider's shape. */
  readonly errorBody?: (status: number, title: string) => unknown;
}

const plainError = (status: number, title: string): unknown => ({ status, title });

export async function startJsonApiServer(options: JsonApiServerOptions): Promise<JsonApiServer> {
  const { authorised, route, methods = ['GET'], errorBody = plainError } = options;
  const requests: ReceivedRequest[] = [];
  let failures: number[] = [];
  const answer = (received: ReceivedRequest): { status: number; body: unknown; contentType?: string } => {
    const failure = failures.shift();
    if (failure !== undefined) return { status: failure, body: errorBody(failure, 'Service Unavailable') };
    if (!methods.includes(received.method)) return { status: 405, body: errorBody(405, 'Method Not Allowed') };
    if (!authorised(received.headers)) return { status: 401, body: errorBody(401, 'Unauthorized Request') };
    const found = route(received.path, received);
    if (found === undefined) return { status: 404, body: errorBody(404, 'Not Found') };
    return { ...found, status: found.status ?? 200 };
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received: ReceivedRequest = {
        method: request.method ?? 'GET',
        path: new URL(request.url ?? '/', 'http://fake').pathname,
        headers: request.headers,
        bodyText: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(received);
      const { status, body, contentType } = answer(received);
      if (contentType !== undefined) response.writeHead(status, { 'content-type': contentType }).end(String(body));
      else response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNextWith: (status) => {
      failures = [...failures, status];
    },
    stop: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
