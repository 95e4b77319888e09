import { z } from 'zod';
import { queryParameterNames } from '#api/pipeline/parse-request';

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
