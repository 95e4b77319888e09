/**
 * Property: whatever a client sends to an implemented route (random path parameters, query
 * strings, bodies and JSON), the answer is never a 5xx. Runs over every row of the route table
 * that has an operation, so each route gains the property as it is built.
 */
import fc from 'fast-check';
import { routes } from '../../../functions/api/routes';
import type { LocalStack } from '../../../lib/local/local-stack';
import { originOf, startTestStack } from '../../fixtures/local-stack';
import { newTenant } from '../../fixtures/tenants';

const implemented = routes.filter((route) => route.schemas !== undefined);
const RUNS_PER_ROUTE = 25;

const segment = fc.oneof(fc.string({ minLength: 1, maxLength: 40 }), fc.constantFrom('x', '0', '-1', '%', '..', 'pe_1', 'a'.repeat(300)));
const queryString = fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.oneof(fc.string({ maxLength: 30 }), fc.integer().map(String), fc.constantFrom('', 'true', 'NaN', '-1', '1e309')), { maxKeys: 6 });
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

  beforeAll(async () => {
    stack = await startTestStack();
    origin = originOf(stack);
    key = (await newTenant(['admin'], { read_per_minute: 1_000_000, write_per_minute: 1_000_000 })).key;
  });

  afterAll(async () => {
    await stack.stop();
  });

  it('has implemented routes to check', () => {
    // Assess
    expect(implemented.length).toBeGreaterThanOrEqual(3);
  });

  it.each(implemented.map((route) => [`${route.method} ${route.path}`, route] as const))('never answers %s with a 5xx for random input', async (_name, route) => {
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
  }, 60_000);
});
