import * as z from '#shared/zod';
import type { JsonSchema } from './types';

/** Request parts are documented as clients send them, responses as the service renders them. */
export type SchemaIo = 'input' | 'output';

const DEFS_REF = /^#\/\$defs\/(.+)$/;
const ANONYMOUS_DEF = /^__schema(\d+)$/;
const COMPONENT_REF = '#/components/schemas/';

/** JSON with sorted keys, so two schemas compare equal whatever order their keywords were written in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonical(inner)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function rewriteRefs(value: unknown, target: (ref: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, target));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
      out[key] = key === '$ref' && typeof inner === 'string' ? target(inner) : rewriteRefs(inner, target);
    }
    return out;
  }
  return value;
}

function hasRootSelfRef(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasRootSelfRef);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>).some(([key, inner]) => (key === '$ref' && inner === '#') || hasRootSelfRef(inner));
  }
  return false;
}

/**
 * Turns zod schemas into OpenAPI 3.1 schemas with zod's own `z.toJSONSchema` (draft 2020-12,
 * which is OpenAPI 3.1's dialect), and gathers what zod puts in `$defs` into one
 * `components.schemas`: a schema given `.meta({ id })` becomes a shared component under that id,
 * and recursion zod refers to as `#` becomes a component named after its use.
 *
 * An id whose input and output forms differ (defaults, transforms, `additionalProperties` on
 * output) keeps its id for the first form met and gets an `Input`/`Output` suffix for the other;
 * two different schemas under one id are a mistake in the schemas and throw.
 *
 * @example
 * const collector = new SchemaCollector();
 * const body = collector.convert(CreateCampaignBody, 'input', 'CreateCampaignBody');
 * document.components.schemas = collector.schemas();
 */
export class SchemaCollector {
  private readonly collected = new Map<string, JsonSchema>();
  private readonly fingerprints = new Map<string, string>();

  /** The schema to put in the document: inline, or a `$ref` into `components.schemas`. */
  convert(schema: z.ZodMiniType, io: SchemaIo, name: string): JsonSchema {
    const {
      $schema: _dialect,
      $defs,
      ...root
    } = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      // A schema JSON Schema cannot express (a transform's output, a custom check) is documented
      // as "any value" rather than making the whole document fail to build.
      unrepresentable: 'any',
      cycles: 'ref',
      reused: 'inline',
    }) as JsonSchema & { $schema?: unknown; $defs?: Record<string, JsonSchema> };
    const defs: Record<string, JsonSchema> = { ...($defs ?? {}) };
    const selfReferencing = hasRootSelfRef(root);
    if (selfReferencing) defs['#'] = root;

    const names = new Map<string, string>();
    for (const key of Object.keys(defs)) {
      const anonymous = ANONYMOUS_DEF.exec(key);
      names.set(key, key === '#' ? name : anonymous ? `${name}${anonymous[1]}` : key);
    }
    const suffixed = new Set<string>();
    const toComponent = (ref: string): string => {
      if (ref === '#') return `${COMPONENT_REF}${names.get('#') ?? name}`;
      const key = DEFS_REF.exec(ref)?.[1];
      const target = key === undefined ? undefined : names.get(key);
      return target === undefined ? ref : `${COMPONENT_REF}${target}`;
    };

    for (;;) {
      const rewritten = new Map(Object.entries(defs).map(([key, def]) => [key, rewriteRefs(def, toComponent) as JsonSchema]));
      const conflicts = [...rewritten].filter(([key, def]) => {
        const existing = this.fingerprints.get(names.get(key) as string);
        return existing !== undefined && existing !== canonical(def);
      });
      if (conflicts.length === 0) {
        for (const [key, def] of rewritten) {
          const component = names.get(key) as string;
          this.collected.set(component, def);
          this.fingerprints.set(component, canonical(def));
        }
        return selfReferencing ? { $ref: toComponent('#') } : (rewriteRefs(root, toComponent) as JsonSchema);
      }
      for (const [key] of conflicts) {
        if (suffixed.has(key)) {
          throw new Error(`Two different schemas are documented under the id "${names.get(key)}" (met converting ${name}); give them distinct ids.`);
        }
        suffixed.add(key);
        names.set(key, `${names.get(key)}${io === 'input' ? 'Input' : 'Output'}`);
      }
    }
  }

  /** A converted schema with a root `$ref` into the collected components resolved one level. */
  resolve(schema: JsonSchema): JsonSchema {
    const ref = schema.$ref;
    if (typeof ref === 'string' && ref.startsWith(COMPONENT_REF)) return this.collected.get(ref.slice(COMPONENT_REF.length)) ?? schema;
    return schema;
  }

  /** Every component met so far, by name. */
  schemas(): Record<string, JsonSchema> {
    return Object.fromEntries(this.collected);
  }
}
