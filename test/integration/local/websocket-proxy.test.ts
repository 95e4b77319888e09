/**
 * The local server's WebSocket proxy (lib/local/websocket-proxy.ts) over real sockets: a browser's
 * upgrade of GET /ws/v1/database/{name}/subscribe, authenticated by the session cookie or a
 * one-time ticket, piped to a loopback upstream (frames both ways, close codes propagated, the
 * message bound), and refused with the route's error envelope without a credential.
 */
import { WebSocket } from 'ws';
import { MAX_WEBSOCKET_MESSAGE_BYTES } from '#core/browser-sessions';
import type { LocalStack } from '#lib/local/local-stack';
import { sendableCloseCode } from '#lib/local/websocket-proxy';
import { call } from '#test/fixtures/http';
import type { TestIdentityProvider } from '#test/fixtures/identity-provider';
import { type SessionProxyPeers, startSessionProxyPeers } from '#test/fixtures/session-proxy';
import { originOf, startTestStack } from '#test/fixtures/local-stack';
import { startWebsocketUpstream, type TestUpstream } from '#test/fixtures/websocket-upstream';

jest.setTimeout(30_000);

interface Refusal {
  readonly status: number;
  readonly body: { error?: { code: string; reason?: string } };
}

/** Opens a WebSocket; resolves once open, or with the HTTP refusal the server answered instead. */
function connect(url: string, headers: Record<string, string> = {}, protocols: string[] = []): Promise<WebSocket | Refusal> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, protocols, { headers });
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_request, response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    socket.once('error', reject);
  });
}

const opened = (result: WebSocket | Refusal): WebSocket => {
  if (!(result instanceof WebSocket)) throw new Error(`refused: ${JSON.stringify(result)}`);
  return result;
};
const nextMessage = (socket: WebSocket): Promise<{ data: string; binary: boolean }> =>
  new Promise((resolve) => socket.once('message', (data, binary) => resolve({ data: data.toString(), binary })));
const closed = (socket: WebSocket): Promise<{ code: number; reason: string }> =>
  new Promise((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));

describe('local WebSocket proxy', () => {
  let stack: LocalStack;
  let idp: TestIdentityProvider;
  let upstream: TestUpstream;
  let peers: SessionProxyPeers;
  let origin: string;
  let wsOrigin: string;

  const signIn = async (sub: string): Promise<string> => {
    const response = await call(`${origin}/ws/auth/session`, { method: 'POST', headers: { Authorization: `Bearer ${await idp.sign({ sub })}` } });
    return /^__Host-sid=([^;]*)/.exec(response.headers.get('set-cookie') ?? '')?.[1] as string;
  };
  const ticketFor = async (sessionId: string): Promise<string> =>
    (await call<{ data: { ticket: string } }>(`${origin}/ws/v1/identity/websocket-token`, { method: 'POST', headers: { Cookie: `__Host-sid=${sessionId}` } }))
      .body.data.ticket;

  beforeAll(async () => {
    ({ idp, upstream } = peers = await startSessionProxyPeers());
    stack = await startTestStack();
    origin = originOf(stack);
    wsOrigin = origin.replace(/^http/, 'ws');
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await peers?.close();
  });

  it("pipes text and binary frames both ways for the cookie's session, with the upstream token the browser never sees", async () => {
    // Prepare
    const sessionId = await signIn('user_ws');
    // Act
    const socket = opened(await connect(`${wsOrigin}/ws/v1/database/app_db/subscribe`, { Cookie: `__Host-sid=${sessionId}` }));
    const text = nextMessage(socket);
    socket.send('hello');
    const echoedText = await text;
    const binary = nextMessage(socket);
    socket.send(Buffer.from([1, 2, 3]), { binary: true });
    const echoedBinary = await binary;
    // Assess
    expect(echoedText).toEqual({ data: 'echo:hello', binary: false });
    expect(echoedBinary.binary).toBe(true);
    expect(upstream.connections.at(-1)).toMatchObject({ database: 'app_db', subject: 'user_ws' });
    socket.close(1000);
    await closed(socket);
  });

  it('admits a ticket once: a second connection with it is refused with 401 invalid_ticket', async () => {
    // Prepare
    const ticket = await ticketFor(await signIn('user_ticket_ws'));
    const url = `${wsOrigin}/ws/v1/database/app_db/subscribe?ticket=${ticket}`;
    // Act
    const first = opened(await connect(url));
    const second = await connect(url);
    // Assess
    expect(second).toMatchObject({ status: 401, body: { error: { code: 'invalid_session', reason: 'invalid_ticket' } } });
    const reply = nextMessage(first);
    first.send('ping');
    expect((await reply).data).toBe('echo:ping');
    first.close(1000);
  });

  it('refuses an upgrade without a credential, or of another path, with the error envelope and opens nothing upstream', async () => {
    // Prepare
    const before = upstream.connections.length;
    // Act
    const anonymous = await connect(`${wsOrigin}/ws/v1/database/app_db/subscribe`);
    const revoked = await connect(`${wsOrigin}/ws/v1/database/app_db/subscribe`, { Cookie: `__Host-sid=${'C'.repeat(43)}` });
    const elsewhere = await connect(`${wsOrigin}/ws/auth/session`);
    const badName = await connect(`${wsOrigin}/ws/v1/database/${'n'.repeat(65)}/subscribe`, { Cookie: `__Host-sid=${await signIn('user_name')}` });
    // Assess
    expect(anonymous).toMatchObject({ status: 401, body: { error: { code: 'invalid_session', reason: 'missing_cookie' } } });
    expect(revoked).toMatchObject({ status: 401, body: { error: { reason: 'unknown_session' } } });
    expect(elsewhere).toMatchObject({ status: 404, body: { error: { code: 'resource_not_found' } } });
    expect(badName).toMatchObject({ status: 404 });
    expect(upstream.connections.length).toBe(before);
  });

  it("closes the client with the upstream's close code, and the upstream with the client's", async () => {
    // Prepare
    const sessionId = await signIn('user_close');
    const first = opened(await connect(`${wsOrigin}/ws/v1/database/app_db/subscribe`, { Cookie: `__Host-sid=${sessionId}` }));
    const second = opened(await connect(`${wsOrigin}/ws/v1/database/app_db/subscribe`, { Cookie: `__Host-sid=${sessionId}` }));
    const upstreamOfSecond = upstream.connections.at(-1)?.socket as WebSocket;
    // Act
    const firstClosed = closed(first);
    first.send('close:4001');
    const upstreamClosed = closed(upstreamOfSecond);
    second.close(4002, 'bye');
    // Assess
    expect(await firstClosed).toEqual({ code: 4001, reason: 'upstream closing' });
    expect(await upstreamClosed).toEqual({ code: 4002, reason: 'bye' });
  });

  it('closes a connection whose message is over 128 KB with 1009', async () => {
    // Prepare
    const socket = opened(await connect(`${wsOrigin}/ws/v1/database/app_db/subscribe`, { Cookie: `__Host-sid=${await signIn('user_big')}` }));
    // Act
    const ended = closed(socket);
    socket.send('x'.repeat(MAX_WEBSOCKET_MESSAGE_BYTES + 1));
    // Assess
    expect((await ended).code).toBe(1009);
  });

  it('answers 502 upstream_error when the upstream refuses the socket', async () => {
    // Prepare: a session whose upstream token the upstream no longer knows (another upstream instance)
    const sessionId = await signIn('user_gone');
    const other = await startWebsocketUpstream();
    const ticket = await ticketFor(sessionId);
    other.configure();
    try {
      // Act
      const refused = await connect(`${wsOrigin}/ws/v1/database/app_db/subscribe?ticket=${ticket}`);
      // Assess
      expect(refused).toMatchObject({ status: 502, body: { error: { code: 'upstream_error' } } });
    } finally {
      upstream.configure();
      await other.close();
    }
  });

  it('maps close codes that cannot be sent to ones that can', () => {
    // Assess
    expect([1000, 1005, 1006, 1009, 1015, 4001, 999].map(sendableCloseCode)).toEqual([1000, 1000, 1011, 1009, 1011, 4001, 1011]);
  });
});
