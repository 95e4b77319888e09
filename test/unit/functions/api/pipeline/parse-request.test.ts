import type { APIGatewayProxyEvent } from 'aws-lambda';
import { z } from 'zod';
import { parseRequest, queryParameterNames } from '#api/pipeline/parse-request';
import { ResourceNotFoundError } from '#core/errors';
import { routeRow } from '#test/fixtures/route-row';

describe('queryParameterNames', () => {
  it.each([
    ['an object', z.object({ status: z.string().optional(), page: z.coerce.number() }), ['page', 'status']],
    ['a refined object', z.object({ a: z.string() }).superRefine(() => undefined), ['a']],
    ['a transformed object', z.object({ a: z.string(), b: z.string() }).transform((query) => query.a), ['a', 'b']],
    ['an optional object with a default', z.object({ a: z.string() }).optional().default({ a: 'x' }), ['a']],
    ['a union of objects', z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]), ['a', 'b']],
    ['an intersection of objects', z.intersection(z.object({ a: z.string() }), z.object({ b: z.string() })), ['a', 'b']],
  ])('reads the names of %s', (_name, schema, names) => {
    // Act
    const found = queryParameterNames(schema);
    // Assess
    expect(found === 'any' ? found : [...found].sort()).toEqual(names);
  });

  it.each([
    ['a record', z.record(z.string(), z.string())],
    ['an object with a catchall', z.object({ a: z.string() }).catchall(z.string())],
    ['a loose object', z.looseObject({ a: z.string() })],
  ])('takes any name for %s', (_name, schema) => {
    // Act and assess
    expect(queryParameterNames(schema)).toBe('any');
  });
});

describe('parseRequest: path parameters', () => {
  const eventWith = (id: string) =>
    ({ pathParameters: { id }, queryStringParameters: null, body: null, isBase64Encoded: false }) as unknown as APIGatewayProxyEvent;
  const params = z.object({ id: z.string() });

  it.each([
    ['10 KB long', 'x'.repeat(10 * 1024)],
    ['with a control character', 'a%00b'],
  ])('holds a row to the shared id rule: an id %s is 404 naming it', (_name, id) => {
    // Act
    const parse = () => parseRequest(eventWith(id), routeRow({ schemas: { params } }));
    // Assess
    expect(parse).toThrow(ResourceNotFoundError);
    expect(parse).toThrow(expect.objectContaining({ param: 'id' }));
  });

  it.each([
    ['10 KB long', 'x'.repeat(10 * 1024)],
    ['in broken percent-encoding', '%E0%A4%A'],
    ['percent-encoded', 'a%2Fb'],
  ])('hands a row with rawPathParameters an id %s as sent, for its operation to answer', (_name, id) => {
    // Act
    const parsed = parseRequest(eventWith(id), routeRow({ schemas: { params, rawPathParameters: true } }));
    // Assess
    expect(parsed.params).toEqual({ id });
  });
});
