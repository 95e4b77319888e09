import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small loopback JSON API standing in for a provider's live API in tests: GET routes answer
 * seeded resources, a wrong or missing credential gets 401, unknown ids 404, and
 * `failNextWith(503)` makes the next request fail once (to test retries). Records every request.
 */
export interface FakeRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
}

export interface JsonApiServer {
  readonly url: string;
  readonly requests: FakeRequest[];
  failNextWith(status: number): void;
  stop(): Promise<void>;
}

/** Answers one request: the JSON body (status 200), or undefined for 404. */
export type Route = (path: string) => { status?: number; body: unknown } | undefined;

export async function startJsonApiServer(options: { authorised: (headers: IncomingMessage['headers']) => boolean; route: Route }): Promise<JsonApiServer> {
  const requests: FakeRequest[] = [];
  let failures: number[] = [];
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://fake').pathname;
    requests.push({ method: request.method ?? 'GET', path, headers: request.headers });
    const send = (status: number, body: unknown): void => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const failure = failures.shift();
    if (failure !== undefined) return send(failure, { status: failure, title: 'Service Unavailable' });
    if (request.method !== 'GET') return send(405, { status: 405, title: 'Method Not Allowed' });
    if (!options.authorised(request.headers)) return send(401, { status: 401, title: 'Unauthorized Request' });
    const answer = options.route(path);
    if (answer === undefined) return send(404, { status: 404, title: 'Not Found' });
    return send(answer.status ?? 200, answer.body);
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
