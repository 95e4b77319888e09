import fc from 'fast-check';
import * as z from '#shared/zod';

/** The subset of JSON Schema (draft 2020-12, as zod writes it) the arbitraries read. */
export interface JsonSchema {
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly items?: JsonSchema;
  readonly prefixItems?: readonly JsonSchema[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly anyOf?: readonly JsonSchema[];
  readonly oneOf?: readonly JsonSchema[];
  readonly allOf?: readonly JsonSchema[];
  readonly $ref?: string;
  readonly $defs?: Readonly<Record<string, JsonSchema>>;
  readonly format?: string;
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
}

/** A route schema as JSON Schema, in its input form (what a client sends). */
export function jsonSchemaOf(schema: z.ZodMiniType): JsonSchema {
  return z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any', cycles: 'ref', reused: 'inline' }) as JsonSchema;
}

const MAX_DEPTH = 4;

/** A value the schema accepts, mostly (checks JSON Schema cannot express, such as refinements, may still refuse it). */
export function arbitraryOf(schema: JsonSchema, root: JsonSchema = schema, depth = 0): fc.Arbitrary<unknown> {
  if (depth > MAX_DEPTH) return fc.constant(null);
  const next = (inner: JsonSchema): fc.Arbitrary<unknown> => arbitraryOf(inner, root, depth + 1);
  if (schema.$ref !== undefined) {
    const name = schema.$ref.replace(/^#\/\$defs\//, '');
    const target = schema.$ref === '#' ? root : root.$defs?.[name];
    return target === undefined ? fc.constant(null) : next(target);
  }
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum !== undefined && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  const options = schema.anyOf ?? schema.oneOf;
  if (options !== undefined && options.length > 0) return fc.oneof(...options.map(next));
  if (schema.allOf !== undefined && schema.allOf.length > 0) return next(schema.allOf[0] as JsonSchema);
  if (Array.isArray(schema.type)) return fc.oneof(...(schema.type as string[]).map((type) => next({ ...schema, type })));
  switch (schema.type) {
    case 'string':
      return stringOf(schema);
    case 'integer':
      return fc.integer({
        min: bound(schema.minimum ?? schema.exclusiveMinimum, -1_000_000),
        max: bound(schema.maximum ?? schema.exclusiveMaximum, 1_000_000),
      });
    case 'number':
      return fc.double({
        noNaN: true,
        noDefaultInfinity: true,
        min: bound(schema.minimum ?? schema.exclusiveMinimum, -1_000_000),
        max: bound(schema.maximum ?? schema.exclusiveMaximum, 1_000_000),
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items = schema.items ?? (schema.prefixItems?.[0] as JsonSchema | undefined) ?? {};
      const minLength = Math.min(schema.minItems ?? 0, 4);
      return fc.array(next(items), { minLength, maxLength: Math.max(minLength, Math.min(schema.maxItems ?? 4, 4)) });
    }
    case 'object': {
      const properties = schema.properties ?? {};
      const model = Object.fromEntries(Object.entries(properties).map(([name, inner]) => [name, next(inner)]));
      const required = (schema.required ?? []).filter((name) => name in properties);
      return fc.record(model, { requiredKeys: required });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

const bound = (value: number | undefined, fallback: number): number =>
  value === undefined || !Number.isFinite(value) ? fallback : Math.max(-Number.MAX_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, value));

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  switch (schema.format) {
    case 'email':
      return fc.emailAddress();
    case 'date-time':
      return fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-01-01T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString());
    case 'date':
      return fc
        .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-01-01T00:00:00Z'), noInvalidDate: true })
        .map((date) => date.toISOString().slice(0, 10));
    case 'uri':
    case 'url':
      return fc.webUrl();
    case 'uuid':
      return fc.uuid();
    default:
      break;
  }
  if (schema.pattern !== undefined) {
    try {
      return fc.stringMatching(new RegExp(schema.pattern)).filter((value) => value.length <= (schema.maxLength ?? 10_000));
    } catch {
      // A pattern JavaScript cannot compile: plain strings instead.
    }
  }
  const minLength = schema.minLength ?? 0;
  return fc.string({ minLength, maxLength: Math.max(minLength, Math.min(schema.maxLength ?? 40, 40)) });
}

const TEN_KB = 'x'.repeat(10 * 1024);

/** Values no schema should take well: huge, empty, of the wrong type, control characters, deep nesting. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    TEN_KB,
    '',
    ' ',
    '\u0000',
    '\ud800',
    '💳'.repeat(600),
    -1,
    0,
    1e308,
    -1e308,
    Number.MAX_SAFE_INTEGER + 2,
    0.1,
    true,
    null,
    [],
    {},
    '__proto__',
    'constructor',
    '../../etc/passwd',
    '<script>alert(1)</script>',
    "' OR 1=1 --",
    '{{constructor.constructor("return process")()}}',
    '1970-01-01T00:00:00Z',
    '9999-12-31T23:59:59Z',
  ),
  fc.constant(null).map(() => nested(200)),
  fc.string({ maxLength: 20 }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** An array nested `depth` deep around an object. */
function nested(depth: number): unknown {
  let value: unknown = { deep: true };
  for (let index = 0; index < depth; index += 1) value = index % 2 === 0 ? [value] : { a: value };
  return value;
}

/** `value` with an own enumerable `__proto__` or `constructor` key, as JSON.parse would make it from hostile text. */
function polluted(value: Record<string, unknown>, key: '__proto__' | 'constructor' | 'prototype'): Record<string, unknown> {
  const copy = { ...value };
  Object.defineProperty(copy, key, { value: { polluted: true, isAdmin: true, toString: 'x' }, enumerable: true, configurable: true, writable: true });
  return copy;
}

/** A request body as text: a valid-looking value, then one property made hostile, unknown keys, prototype keys, or text that is not JSON at all. */
export function bodyTextOf(schema: JsonSchema | undefined): fc.Arbitrary<string> {
  const valid = (schema === undefined ? fc.jsonValue({ maxDepth: 2 }) : arbitraryOf(schema)) as fc.Arbitrary<unknown>;
  const asObject = (value: unknown): Record<string, unknown> =>
    value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const properties = Object.keys(schema?.properties ?? {});
  const oneHostile = fc
    .tuple(valid, properties.length > 0 ? fc.constantFrom(...properties) : fc.constant('unknown'), hostileValue)
    .map(([value, name, bad]) => ({
      ...asObject(value),
      [name]: bad,
    }));
  return fc.oneof(
    { weight: 4, arbitrary: valid.map((value) => JSON.stringify(value) ?? 'null') },
    { weight: 4, arbitrary: oneHostile.map((value) => JSON.stringify(value)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(valid, fc.string({ minLength: 1, maxLength: 12 }), hostileValue)
        .map(([value, name, bad]) => JSON.stringify({ ...asObject(value), [`x_${name}`]: bad })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(valid, fc.constantFrom('__proto__', 'constructor', 'prototype') as fc.Arbitrary<'__proto__' | 'constructor' | 'prototype'>)
        .map(([value, key]) => JSON.stringify(polluted(asObject(value), key))),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        'null',
        '[]',
        '"text"',
        '{"unterminated":',
        '{"a":1,"a":2}',
        `${'['.repeat(5000)}${']'.repeat(5000)}`,
        `{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}`,
        'not json at all',
      ),
    },
  );
}

/** A query string's parameters: schema-shaped values, one made hostile, unknown names and prototype names. */
export function queryOf(schema: JsonSchema | undefined): fc.Arbitrary<ReadonlyArray<readonly [string, string]>> {
  const text = (value: unknown): string =>
    typeof value === 'string' ? value : Array.isArray(value) ? value.map(String).join(',') : (JSON.stringify(value) ?? '');
  const properties = Object.entries(schema?.properties ?? {});
  const known =
    properties.length === 0
      ? fc.constant([] as Array<readonly [string, string]>)
      : fc.subarray(properties).chain((picked) => fc.tuple(...picked.map(([name, inner]) => arbitraryOf(inner).map((value) => [name, text(value)] as const))));
  const hostileString = hostileValue.map(text);
  return fc.oneof(
    { weight: 4, arbitrary: known },
    {
      weight: 3,
      arbitrary: fc
        .tuple(known, properties.length > 0 ? fc.constantFrom(...properties.map(([name]) => name)) : fc.constant('q'), hostileString)
        .map(([pairs, name, bad]) => [...pairs.filter(([pair]) => pair !== name), [name, bad] as const]),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(known, fc.constantFrom('__proto__', 'constructor', 'x_unknown', 'limit[]', ''))
        .map(([pairs, name]) => [...pairs, [name, '1'] as const]),
    },
    { weight: 1, arbitrary: known.map((pairs) => [...pairs, ...pairs]) },
  );
}
