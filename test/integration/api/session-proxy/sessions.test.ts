/**
 * The session proxy's HTTP routes (edge host) over real HTTP, with a loopback identity provider
 * (JWKS) and a loopback upstream: POST /ws/auth/session (every bad JWT refused with its reason),
 * the session_cookie authenticator (absent, unknown, revoked, expired), refresh rotation with
 * reuse detection and concurrent refreshes, revoke, WebSocket tickets (single use, 60 s) and the
 * subscribe route's plain-HTTP answer.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { base64url, SignJWT } from 'jose';
import { hashSecret, ROTATION_GRACE_SECONDS } from '#core/browser-sessions';
import { documentClient } from '#data/client';
import { browserSessionKeys } from '#data/keys';
import type { LocalStack } from '#lib/local/local-stack';
import { authorizeSubscription } from '#services/browser-sessions';
import { call, type JsonResponse } from '#test/fixtures/http';
import type { TestIdentityProvider } from '#test/fixtures/identity-provider';
import { type SessionProxyPeers, startSessionProxyPeers } from '#test/fixtures/session-proxy';
import { originOf, startTestStack } from '#test/fixtures/local-stack';
import type { TestUpstream } from '#test/fixtures/websocket-upstream';

interface SessionBody {
  data: { object: string; subject: string; issuer: string; family_id: string; status: string; expires_at: string; family_expires_at: string };
  error?: { code: string; message: string; param?: string; reason?: string };
}
interface TicketBody {
  data: { object: string; ticket: string; expires_at: string; expires_in: number };
  error?: { code: string; reason?: string };
}

jest.setTimeout(30_000);

const cookieOf = (response: JsonResponse<unknown>): string => {
  const header = response.headers.get('set-cookie') ?? '';
  const match = /^__Host-sid=([^;]*)/.exec(header);
  if (match === null) throw new Error(`no session cookie in ${header}`);
  return match[1] as string;
};
const withCookie = (sessionId: string) => ({ Cookie: `theme=dark; __Host-sid=${sessionId}` });
/** Moves a rotated id's rotation back past the grace in which a concurrent refresh is told 409 rather than treated as reuse. */
const ageRotation = async (sessionId: string): Promise<void> => {
  await documentClient.send(
    new UpdateCommand({
      TableName: process.env.TABLE_NAME as string,
      Key: browserSessionKeys.session(hashSecret(sessionId)),
      UpdateExpression: 'SET rotated_at = :then',
      ExpressionAttributeValues: { ':then': new Date(Date.now() - (ROTATION_GRACE_SECONDS + 1) * 1000).toISOString() },
    }),
  );
};
const tableGet = async (key: { PK: string; SK: string }) =>
  (await documentClient.send(new GetCommand({ TableName: process.env.TABLE_NAME as string, Key: key, ConsistentRead: true }))).Item;

describe('session proxy routes', () => {
  let stack: LocalStack;
  let idp: TestIdentityProvider;
  let upstream: TestUpstream;
  let peers: SessionProxyPeers;
  let ws: string;

  const signIn = async (claims: Record<string, unknown> = {}): Promise<{ sessionId: string; body: SessionBody }> => {
    const response = await call<SessionBody>(`${ws}/auth/session`, { method: 'POST', headers: { Authorization: `Bearer ${await idp.sign(claims)}` } });
    expect(response.status).toBe(201);
    return { sessionId: cookieOf(response), body: response.body };
  };

  beforeAll(async () => {
    ({ idp, upstream } = peers = await startSessionProxyPeers());
    stack = await startTestStack();
    ws = `${originOf(stack)}/ws`;
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await peers?.close();
  });

  describe('POST /ws/auth/session', () => {
    it('exchanges a valid JWT sent as a Bearer credential for a __Host- session cookie, storing only its hash', async () => {
      // Prepare
      const token = await idp.sign({ sub: 'user_42' });
      // Act
      const response = await call<SessionBody>(`${ws}/auth/session`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
      // Assess
      expect(response.status).toBe(201);
      const setCookie = response.headers.get('set-cookie') ?? '';
      expect(setCookie).toMatch(/^__Host-sid=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; Secure; SameSite=Lax; Max-Age=3600$/);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const sessionId = cookieOf(response);
      expect(response.body.data).toMatchObject({ object: 'session', subject: 'user_42', issuer: idp.issuer, status: 'active' });
      expect(response.text).not.toContain(sessionId);
      const item = await tableGet(browserSessionKeys.session(hashSecret(sessionId)));
      expect(item).toMatchObject({ subject: 'user_42', status: 'active', family_id: response.body.data.family_id });
      expect(JSON.stringify(item)).not.toContain(sessionId);
      expect(item?.expires_at).toBe(Math.floor(Date.parse(response.body.data.expires_at) / 1000));
    });

    it("keeps the provider's key set cached across requests instead of fetching it for each token", async () => {
      // Prepare
      await signIn();
      const fetched = idp.fetches();
      // Act
      await signIn({ sub: 'user_cached_1' });
      await signIn({ sub: 'user_cached_2' });
      // Assess
      expect(fetched).toBeGreaterThanOrEqual(1);
      expect(idp.fetches()).toBe(fetched);
    });

    it('accepts the JWT as body { token }', async () => {
      // Prepare
      const token = await idp.sign({ sub: 'user_body' });
      // Act
      const response = await call<SessionBody>(`${ws}/auth/session`, { method: 'POST', body: { token } });
      // Assess
      expect(response.status).toBe(201);
      expect(response.body.data.subject).toBe('user_body');
    });

    const forged = async (header: Record<string, unknown>, payload: Record<string, unknown>, signature = ''): Promise<string> =>
      `${base64url.encode(JSON.stringify(header))}.${base64url.encode(JSON.stringify(payload))}.${signature}`;
    const claims = () => ({ sub: 'user_1', iss: idp.issuer, aud: idp.audience, exp: Math.floor(Date.now() / 1000) + 600 });

    it.each<[string, () => Promise<string>, string]>([
      ['a wrong issuer', () => idp.sign({ iss: 'https://evil.example/' }), 'wrong_issuer'],
      ['a wrong audience', () => idp.sign({ aud: 'another-service' }), 'wrong_audience'],
      ['alg none', () => forged({ alg: 'none', typ: 'JWT' }, claims()), 'algorithm_not_allowed'],
      ['an unknown kid', () => idp.sign({}, { kid: 'no-such-key' }), 'unknown_key'],
      ['an expired token (beyond the 30 s tolerance)', () => idp.sign({ exp: Math.floor(Date.now() / 1000) - 60 }), 'expired'],
      [
        'HS256 MACed with the public key',
        async () => {
          const secret = new TextEncoder().encode(JSON.stringify(idp.publicJwk()));
          return new SignJWT(claims()).setProtectedHeader({ alg: 'HS256', kid: idp.publicJwk().kid as string }).sign(secret);
        },
        'algorithm_not_allowed',
      ],
      [
        'a tampered payload',
        async () => {
          const [header, , signature] = (await idp.sign()).split('.');
          return `${header}.${base64url.encode(JSON.stringify({ ...claims(), sub: 'admin' }))}.${signature}`;
        },
        'bad_signature',
      ],
      ['garbage', async () => 'not-a-jwt', 'malformed'],
      ['three parts of garbage', async () => 'a.b.c', 'malformed'],
      ['no sub', () => idp.sign({ sub: undefined }), 'invalid_claims'],
      ['a 10 KB token', async () => 'x'.repeat(10_240), 'malformed'],
    ])('refuses %s with 401 invalid_token and its reason, setting no cookie', async (_what, make, reason) => {
      // Prepare
      const token = await make();
      // Act
      const response = await call<SessionBody>(`${ws}/auth/session`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
      // Assess
      expect(response.status).toBe(401);
      expect(response.body.error).toMatchObject({ code: 'invalid_token', reason, param: 'token' });
      expect(response.headers.get('set-cookie')).toBeNull();
    });

    it('refuses a request without any token with 401 missing_token', async () => {
      // Act
      const response = await call<SessionBody>(`${ws}/auth/session`, { method: 'POST' });
      // Assess
      expect(response.status).toBe(401);
      expect(response.body.error).toMatchObject({ code: 'invalid_token', reason: 'missing_token' });
    });

    it('refuses a Bearer token and a body token that differ, and a __proto__ key, with 400', async () => {
      // Prepare
      const one = await idp.sign({ sub: 'a' });
      const two = await idp.sign({ sub: 'b' });
      // Act
      const differ = await call<SessionBody>(`${ws}/auth/session`, { method: 'POST', headers: { Authorization: `Bearer ${one}` }, body: { token: two } });
      const proto = await call<SessionBody>(`${ws}/auth/session`, {
        method: 'POST',
        rawBody: '{"__proto__":{"token":"x"}}',
        headers: { 'Content-Type': 'application/json' },
      });
      // Assess
      expect(differ.status).toBe(400);
      expect(differ.body.error).toMatchObject({ code: 'invalid_request', param: 'token' });
      expect(proto.status).toBe(400);
      expect(proto.body.error?.code).toBe('invalid_request');
    });

    it('answers 503 service_unavailable naming the setting when the identity provider is not configured', async () => {
      // Prepare
      const token = await idp.sign();
      delete process.env.IDP_JWKS_URL;
      try {
        // Act
        const response = await call<SessionBody>(`${ws}/auth/session`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
        // Assess
        expect(response.status).toBe(503);
        expect(response.body.error).toMatchObject({ code: 'service_unavailable' });
        expect(response.body.error?.message).toContain('IDP_JWKS_URL');
      } finally {
        idp.configure();
      }
    });
  });

  describe('the session cookie', () => {
    it('refuses an absent cookie, an unknown or malformed id with 401 invalid_session and the reason', async () => {
      // Act
      const absent = await call<SessionBody>(`${ws}/auth/refresh`, { method: 'POST' });
      const unknown = await call<SessionBody>(`${ws}/auth/refresh`, { method: 'POST', headers: withCookie('A'.repeat(43)) });
      const malformed = await call<SessionBody>(`${ws}/auth/refresh`, { method: 'POST', headers: withCookie(`${'x'.repeat(10_000)};`) });
      // Assess
      expect(absent.status).toBe(401);
      expect(absent.body.error).toMatchObject({ code: 'invalid_session', reason: 'missing_cookie', param: 'Cookie' });
      expect(unknown.body.error).toMatchObject({ code: 'invalid_session', reason: 'unknown_session' });
      expect(malformed.status).toBe(401);
      expect(malformed.body.error).toMatchObject({ code: 'invalid_session', reason: 'unknown_session' });
    });

    it('refuses an expired session with reason expired', async () => {
      // Prepare
      const { sessionId } = await signIn();
      await documentClient.send(
        new UpdateCommand({
          TableName: process.env.TABLE_NAME as string,
          Key: browserSessionKeys.session(hashSecret(sessionId)),
          UpdateExpression: 'SET expires_at = :past',
          ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
        }),
      );
      // Act
      const response = await call<SessionBody>(`${ws}/auth/refresh`, { method: 'POST', headers: withCookie(sessionId) });
      // Assess
      expect(response.status).toBe(401);
      expect(response.body.error).toMatchObject({ code: 'invalid_session', reason: 'expired' });
    });
  });

  describe('POST /ws/auth/refresh', () => {
    it('rotates the session: a new id in the same family, the old one marked rotated', async () => {
      // Prepare
      const { sessionId, body } = await signIn({ sub: 'user_rotate' });
      // Act
      const response = await call<SessionBody>(`${ws}/auth/refresh`, { method: 'POST', headers: withCookie(sessionId) });
      // Assess
      expect(response.status).toBe(200);
      const next = cookieOf(response);
      expect(next).not.toBe(sessionId);
      expect(response.body.data).toMatchObject({ subject: 'user_rotate', family_id: body.data.family_id, status: 'active' });
      expect(await tableGet(browserSessionKeys.session(hashSecret(sessionId)))).toMatchObject({ status: 'rotated' });
      const again = await call<SessionBody>(`${ws}/auth/refresh`, { method: 'POST', headers: withCookie(next) });
      expect(again.status).toBe(200);
    });

    it('revokes the whole family when a rotated id is presented again', async () => {
      // Prepare
      const { sessionId } = await signIn();
      const first = await call<SessionBody>(`${ws}/auth/refresh`, { method: 'POST', headers: withCookie(sessionId) });
      const current = cookieOf(first);
      await ageRotation(sessionId);
      // Act
      const reuse = await call<SessionBody>(`${ws}/auth/refresh`, { method: 'POST', headers: withCookie(sessionId) });
      const afterwards = await call<SessionBody>(`${ws}/auth/refresh`, { method: 'POST', headers: withCookie(current) });
      // Assess
      expect(reuse.status).toBe(401);
      expect(reuse.body.error).toMatchObject({ code: 'invalid_session', reason: 'reused' });
      expect(afterwards.status).toBe(401);
      expect(afterwards.body.error).toMatchObject({ code: 'invalid_session', reason: 'revoked' });
      expect(await tableGet(browserSessionKeys.family(first.body.data.family_id))).toMatchObject({ status: 'revoked' });
    });

    it('lets exactly one of two concurrent refreshes of one id win; the other is 409 and revokes nothing', async () => {
      // Prepare
      const { sessionId } = await signIn();
      // Act
      const answers = await Promise.all([1, 2].map(() => call<SessionBody>(`${ws}/auth/refresh`, { method: 'POST', headers: withCookie(sessionId) })));
      // Assess
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const loser = answers.find((answer) => answer.status === 409);
      expect(loser?.body.error?.code).toBe('state_conflict');
      expect(loser?.headers.get('set-cookie')).toBeNull();
      const winner = answers.find((answer) => answer.status === 200) as JsonResponse<SessionBody>;
      expect((await call(`${ws}/auth/refresh`, { method: 'POST', headers: withCookie(cookieOf(winner)) })).status).toBe(200);
    });
  });

  it.each([
    ['POST', '/auth/refresh'],
    ['POST', '/auth/revoke'],
    ['POST', '/v1/identity/websocket-token'],
    ['GET', '/v1/database/app_db/subscribe'],
  ])('refuses an unknown query parameter on %s %s with 400 naming it, once the cookie is checked', async (method, path) => {
    // Prepare
    const { sessionId } = await signIn();
    // Act
    const response = await call<SessionBody>(`${ws}${path}?stauts=x`, { method, headers: withCookie(sessionId) });
    // Assess
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'invalid_request', param: 'stauts' });
  });

  describe('POST /ws/auth/revoke', () => {
    it('revokes the session and clears the cookie; the id is refused afterwards', async () => {
      // Prepare
      const { sessionId } = await signIn();
      // Act
      const response = await call<SessionBody>(`${ws}/auth/revoke`, { method: 'POST', headers: withCookie(sessionId) });
      const after = await call<SessionBody>(`${ws}/auth/refresh`, { method: 'POST', headers: withCookie(sessionId) });
      // Assess
      expect(response.status).toBe(200);
      expect(response.body.data.status).toBe('revoked');
      expect(response.headers.get('set-cookie')).toBe('__Host-sid=; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=0');
      expect(after.status).toBe(401);
      expect(after.body.error).toMatchObject({ code: 'invalid_session', reason: 'revoked' });
    });

    it('refuses without a cookie', async () => {
      // Act
      const response = await call<SessionBody>(`${ws}/auth/revoke`, { method: 'POST' });
      // Assess
      expect(response.status).toBe(401);
      expect(response.body.error?.reason).toBe('missing_cookie');
    });
  });

  describe('POST /ws/v1/identity/websocket-token', () => {
    it("asks the upstream for the session subject's token and answers a one-time ticket valid 60 s instead", async () => {
      // Prepare
      const { sessionId } = await signIn({ sub: 'user_ticket' });
      // Act
      const response = await call<TicketBody>(`${ws}/v1/identity/websocket-token`, { method: 'POST', headers: withCookie(sessionId) });
      // Assess
      expect(response.status).toBe(201);
      expect(response.body.data).toMatchObject({ object: 'websocket_ticket', expires_in: 60 });
      expect(response.body.data.ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(upstream.tokenRequests.at(-1)).toEqual({ subject: 'user_ticket', issuer: idp.issuer });
      expect(response.text).not.toContain('upstream-token');
      const item = await tableGet(browserSessionKeys.ticket(hashSecret(response.body.data.ticket)));
      expect(item).toMatchObject({ subject: 'user_ticket' });
      expect(JSON.stringify(item)).not.toContain('upstream-token');
      expect(JSON.stringify(item)).not.toContain(response.body.data.ticket);
    });

    it('admits a ticket once, and not after its 60 s (given now)', async () => {
      // Prepare
      const { sessionId } = await signIn({ sub: 'user_once' });
      const issue = async () =>
        (await call<TicketBody>(`${ws}/v1/identity/websocket-token`, { method: 'POST', headers: withCookie(sessionId) })).body.data.ticket;
      const ticket = await issue();
      const stale = await issue();
      const now = new Date();
      // Act
      const checked = await authorizeSubscription({ cookieHeader: undefined, ticket }, 'check', now);
      const opened = await authorizeSubscription({ cookieHeader: undefined, ticket }, 'open', now);
      const reopened = await authorizeSubscription({ cookieHeader: undefined, ticket }, 'open', now).catch((error: unknown) => error);
      const late = await authorizeSubscription({ cookieHeader: undefined, ticket: stale }, 'open', new Date(now.getTime() + 61_000)).catch(
        (error: unknown) => error,
      );
      // Assess
      expect(checked).toMatchObject({ subject: 'user_once', via: 'ticket' });
      expect(checked.upstreamToken).toBeUndefined();
      expect(opened.upstreamToken).toMatch(/^upstream-token-/);
      expect(reopened).toMatchObject({ code: 'invalid_session', reason: 'invalid_ticket' });
      expect(late).toMatchObject({ code: 'invalid_session', reason: 'invalid_ticket' });
    });

    it('refuses a ticket whose family was revoked since', async () => {
      // Prepare
      const { sessionId } = await signIn();
      const ticket = (await call<TicketBody>(`${ws}/v1/identity/websocket-token`, { method: 'POST', headers: withCookie(sessionId) })).body.data.ticket;
      await call(`${ws}/auth/revoke`, { method: 'POST', headers: withCookie(sessionId) });
      // Act
      const opened = await authorizeSubscription({ cookieHeader: undefined, ticket }, 'open', new Date()).catch((error: unknown) => error);
      // Assess
      expect(opened).toMatchObject({ reason: 'invalid_ticket' });
    });

    it('answers 502 when the upstream refuses, without passing its answer on, and 503 without an upstream', async () => {
      // Prepare
      const { sessionId } = await signIn();
      upstream.failTokens(500);
      let failed: JsonResponse<TicketBody>;
      let unconfigured: JsonResponse<TicketBody>;
      try {
        // Act
        failed = await call<TicketBody>(`${ws}/v1/identity/websocket-token`, { method: 'POST', headers: withCookie(sessionId) });
      } finally {
        upstream.failTokens(undefined);
      }
      delete process.env.WS_UPSTREAM_URL;
      try {
        unconfigured = await call<TicketBody>(`${ws}/v1/identity/websocket-token`, { method: 'POST', headers: withCookie(sessionId) });
      } finally {
        upstream.configure();
      }
      // Assess
      expect(failed.status).toBe(502);
      expect(failed.body.error?.code).toBe('upstream_error');
      expect(failed.text).not.toContain('secret detail');
      expect(unconfigured.status).toBe(503);
      expect(unconfigured.body.error?.code).toBe('service_unavailable');
    });

    it('refuses without a cookie', async () => {
      // Act
      const response = await call<TicketBody>(`${ws}/v1/identity/websocket-token`, { method: 'POST' });
      // Assess
      expect(response.status).toBe(401);
      expect(response.body.error).toMatchObject({ code: 'invalid_session', reason: 'missing_cookie' });
    });
  });

  describe('GET /ws/v1/database/{name}/subscribe without an upgrade', () => {
    it('answers 426 upgrade_required with Upgrade: websocket once authenticated, and leaves a ticket unspent', async () => {
      // Prepare
      const { sessionId } = await signIn();
      const ticket = (await call<TicketBody>(`${ws}/v1/identity/websocket-token`, { method: 'POST', headers: withCookie(sessionId) })).body.data.ticket;
      // Act
      const byCookie = await call<SessionBody>(`${ws}/v1/database/app_db/subscribe`, { headers: withCookie(sessionId) });
      const byTicket = await call<SessionBody>(`${ws}/v1/database/app_db/subscribe?ticket=${ticket}`);
      // Assess
      expect(byCookie.status).toBe(426);
      expect(byCookie.headers.get('upgrade')).toBe('websocket');
      expect(byCookie.body.error?.code).toBe('upgrade_required');
      expect(byTicket.status).toBe(426);
      await expect(authorizeSubscription({ cookieHeader: undefined, ticket }, 'open', new Date())).resolves.toMatchObject({ via: 'ticket' });
    });

    it('refuses without a credential (401), with a bad ticket (401) and a database name that cannot exist (404)', async () => {
      // Prepare
      const { sessionId } = await signIn();
      // Act
      const anonymous = await call<SessionBody>(`${ws}/v1/database/app_db/subscribe`);
      const badTicket = await call<SessionBody>(`${ws}/v1/database/app_db/subscribe?ticket=${'B'.repeat(43)}`);
      const badName = await call<SessionBody>(`${ws}/v1/database/${'n'.repeat(65)}/subscribe`, { headers: withCookie(sessionId) });
      // Assess
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.error?.reason).toBe('missing_cookie');
      expect(badTicket.status).toBe(401);
      expect(badTicket.body.error?.reason).toBe('invalid_ticket');
      expect(badName.status).toBe(404);
      expect(badName.body.error).toMatchObject({ code: 'resource_not_found', param: 'name' });
    });
  });
  describe('key rotation at the identity provider', () => {
    it("picks up a key the provider rotated in once jose's 30 s cooldown since the last fetch has passed", async () => {
      // Prepare: the key set is cached (fetched by the sign-ins above); the provider adds a key and signs with it.
      await signIn();
      const kid = await idp.rotate();
      const token = await idp.sign({ sub: 'user_new_key' });
      // Act
      const early = await call<SessionBody>(`${ws}/auth/session`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
      await new Promise((done) => setTimeout(done, 31_000));
      const later = await call<SessionBody>(`${ws}/auth/session`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
      // Assess: within the cooldown the unknown kid is refused without refetching; after it, refetched and accepted.
      expect(kid).toBe('test-key-2');
      expect(early.status === 201 || early.body.error?.reason === 'unknown_key').toBe(true);
      expect(later.status).toBe(201);
      expect(later.body.data.subject).toBe('user_new_key');
    }, 90_000);
  });
});
