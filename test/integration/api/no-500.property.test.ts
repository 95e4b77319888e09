/**
 * Property: whatever a client sends to an implemented route (random path parameters, query
 * strings, bodies and JSON), the answer is never a 5xx. Runs over every row of the route table
 * that has an operation, so each route gains the property as it is built.
 */
import { CRON_SECRET } from '#test/fixtures/cron-secret';
import fc from 'fast-check';
import { routes } from '#api/routes';
import { queryParameterNames } from '#api/pipeline/parse-request';
import type { LocalStack } from '#lib/local/local-stack';
import { originOf, startTestStack } from '#test/fixtures/local-stack';
import { newTenant } from '#test/fixtures/tenants';
import { type SessionProxyPeers, startSessionProxyPeers } from '#test/fixtures/session-proxy';

const implemented = routes.filter((route) => route.schemas !== undefined);
const withPathParameters = implemented.filter((route) => /\{[^}]+\}/.test(route.path));
// A cancel-session token in the path is a credential whose rows answer a too-long one with 400
// (the issue's bad input; its HTML page for the hosted page): cancel-sessions.test.ts checks them.
const heldToIdRule = withPathParameters.filter((route) => route.auth !== 'session_token' && route.schemas?.rawPathParameters !== true);
// Provider-signed rows take whatever query the provider's URL carries (some sign it whole).
// A session token is the credential in the path, checked before the query is read: the cancel-session tests check their query with a real token.
// So is the session proxy's cookie: its own tests check the query with a real session.
const clientQueried = implemented.filter((route) => route.auth !== 'provider_signature' && route.auth !== 'session_token' && route.auth !== 'session_cookie');
const RUNS_PER_ROUTE = 25;

const segment = fc.oneof(fc.string({ minLength: 1, maxLength: 40 }), fc.constantFrom('x', '0', '-1', '%', '..', 'pe_1', 'a'.repeat(300)));
const queryString = fc.dictionary(
  fc.string({ minLength: 1, maxLength: 12 }),
  fc.oneof(fc.string({ maxLength: 30 }), fc.integer().map(String), fc.constantFrom('', 'true', 'NaN', '-1', '1e309')),
  { maxKeys: 6 },
);
const body = fc.oneof(
  fc.json({ maxDepth: 3 }),
  fc.string({ maxLength: 200 }),
  fc.constant(''),
  fc.constant('{"unterminated":'),
  fc.dictionary(fc.string({ maxLength: 10 }), fc.anything({ maxDepth: 2 }), { maxKeys: 8 }).map((value) => JSON.stringify(value)),
);

const encode = (value: string): string => encodeURIComponent(value);

describe('every implemented route', () => {
  let stack: LocalStack;
  let origin: string;
  let key: string;
  // The session proxy configured (a loopback identity provider and upstream), so that its routes verify random tokens rather than answer 503 unconfigured.
  let peers: SessionProxyPeers;

  beforeAll(async () => {
    peers = await startSessionProxyPeers();
    stack = await startTestStack();
    origin = originOf(stack);
    key = (await newTenant(['admin'], { read_per_minute: 1_000_000, write_per_minute: 1_000_000 })).key;
  }, 30_000);

  afterAll(async () => {
    await stack.stop();
    await peers?.close();
  });

  it('has implemented routes to check', () => {
    // Assess
    expect(implemented.length).toBeGreaterThanOrEqual(3);
  });

  it.each(implemented.map((route) => [`${route.method} ${route.path}`, route] as const))(
    'never answers %s with a 5xx for random input',
    async (_name, route) => {
      // Act and assess
      await fc.assert(
        fc.asyncProperty(fc.array(segment, { minLength: 3, maxLength: 3 }), queryString, body, fc.boolean(), async (segments, query, payload, withKey) => {
          let index = 0;
          const path = route.path.replace(/\{[^}]+\}/g, () => encode(segments[index++ % segments.length] as string));
          const search = new URLSearchParams(query).toString();
          const response = await fetch(`${origin}${path}${search ? `?${search}` : ''}`, {
            method: route.method,
            headers: { ...(withKey ? { Authorization: `Bearer ${key}` } : {}), 'Content-Type': 'application/json' },
            ...(route.method === 'GET' ? {} : { body: payload }),
          });
          const text = await response.text();
          if (response.status >= 500) throw new Error(`${response.status} for ${route.method} ${path}?${search}: ${text}`);
          return response.status < 500;
        }),
        { numRuns: RUNS_PER_ROUTE },
      );
    },
    60_000,
  );

  it('has routes with path parameters to check', () => {
    // Assess
    expect(withPathParameters.length).toBeGreaterThanOrEqual(20);
  });

  it.each(
    heldToIdRule.flatMap((route) =>
      [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => [`${route.method} ${route.path}`, match[1] as string, route] as const),
    ),
  )('answers %s with a 10 KB %s with 404 resource_not_found naming it', async (_name, parameter, route) => {
    // Prepare
    const path = route.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => (name === parameter ? 'x'.repeat(10 * 1024) : 'x'));
    // Act
    const response = await fetch(`${origin}${path}`, {
      method: route.method,
      // Authenticated as the row asks (path parameters are read after authentication).
      headers: { Authorization: `Bearer ${route.auth === 'cron_secret' ? CRON_SECRET : key}`, 'Content-Type': 'application/json' },
      ...(route.method === 'GET' ? {} : { body: '{}' }),
    });
    const body = (await response.json()) as { error?: { code: string; param?: string } };
    // Assess
    expect(response.status).toBe(404);
    expect(body.error).toMatchObject({ code: 'resource_not_found', param: parameter });
  });

  it.each(clientQueried.map((route) => [`${route.method} ${route.path}`, route] as const))(
    'refuses an unknown query parameter on %s with 400 naming it',
    async (_name, route) => {
      // Prepare: a value every row's path parameters accept (an email is one too)
      const path = route.path.replace(/\{[^}]+\}/g, encodeURIComponent('x@example.com'));
      // Act
      const response = await fetch(`${origin}${path}?stauts=pending`, {
        method: route.method,
        // Authenticated as the row asks (the query is read after authentication).
        headers: { Authorization: `Bearer ${route.auth === 'cron_secret' ? CRON_SECRET : key}`, 'Content-Type': 'application/json' },
        ...(route.method === 'GET' ? {} : { body: '{}' }),
      });
      const body = (await response.json()) as { error?: { code: string; param?: string } };
      // Assess
      expect(response.status).toBe(400);
      expect(body.error).toMatchObject({ code: 'invalid_request', param: 'stauts' });
    },
  );

  it.each(clientQueried.filter((route) => route.schemas?.query !== undefined).map((route) => [`${route.method} ${route.path}`, route] as const))(
    'knows the query parameter names of %s from its schema',
    (_name, route) => {
      // Act
      const names = queryParameterNames(route.schemas?.query as NonNullable<NonNullable<typeof route.schemas>['query']>);
      // Assess
      expect(names).not.toBe('any');
      expect((names as ReadonlySet<string>).size).toBeGreaterThan(0);
    },
  );
});
