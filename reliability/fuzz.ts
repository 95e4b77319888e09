import fc from 'fast-check';
import { routes } from '#api/routes';
import type { RouteDef } from '#api/route-types';
import { call } from '#test/fixtures/http';
import { arbitraryOf, bodyTextOf, type JsonSchema, jsonSchemaOf, queryOf } from './arbitraries';
import type { SuiteContext } from './context';
import { type Figure, firstOf } from './figures';
import { kindOf, type SeededTenant } from './seed';
import { watchTable } from './table';

/** Cases of the full run (the issue's floor) and of `--short`. */
export const FUZZ_CASES = { full: 10_000, short: 400 } as const;

interface FuzzTarget {
  readonly route: RouteDef;
  readonly body: JsonSchema | undefined;
  readonly query: JsonSchema | undefined;
  readonly params: JsonSchema | undefined;
}

interface FuzzCase {
  readonly path: string;
  readonly query: ReadonlyArray<readonly [string, string]>;
  readonly body: string;
}

/** Every built row of the route table, with its schemas as JSON Schema (the rows issue 16 adds are picked up as they are built). */
export function fuzzTargets(): FuzzTarget[] {
  return routes
    .filter((route) => route.schemas !== undefined)
    .map((route) => {
      const schemas = route.schemas ?? {};
      const documented = typeof schemas.documentedBody === 'function' ? schemas.documentedBody(route) : schemas.documentedBody;
      const bodySchema = schemas.body ?? documented?.content['application/json'];
      return {
        route,
        body: bodySchema === undefined ? undefined : jsonSchemaOf(bodySchema),
        query: schemas.query === undefined ? undefined : jsonSchemaOf(schemas.query),
        params: schemas.params === undefined ? undefined : jsonSchemaOf(schemas.params),
      };
    });
}

/** A path parameter: mostly the tenant's real id of its kind (so operations run past their lookup), else schema-shaped or hostile. */
function parameterOf(target: FuzzTarget, name: string, tenant: SeededTenant): fc.Arbitrary<string> {
  const kind = kindOf(target.route.path, name);
  const schema = target.params?.properties?.[name];
  const shaped = schema === undefined ? fc.string({ minLength: 1, maxLength: 30 }) : arbitraryOf(schema).map(String);
  const hostile = fc.constantFrom('x'.repeat(10 * 1024), '__proto__', 'constructor', '..', '%00', '-1', '0');
  return kind === undefined
    ? fc.oneof({ weight: 3, arbitrary: shaped }, { weight: 1, arbitrary: hostile })
    : fc.oneof({ weight: 3, arbitrary: fc.constant(tenant.ids[kind]) }, { weight: 1, arbitrary: shaped }, { weight: 1, arbitrary: hostile });
}

function caseOf(target: FuzzTarget, tenant: SeededTenant): fc.Arbitrary<FuzzCase> {
  const names = [...target.route.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
  const params = names.length === 0 ? fc.constant([] as string[]) : fc.tuple(...names.map((name) => parameterOf(target, name, tenant)));
  return fc.record({ params, query: queryOf(target.query), body: bodyTextOf(target.body) }).map(({ params: values, query, body }) => {
    let index = 0;
    const path = target.route.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(values[index++] as string));
    return { path, query, body };
  });
}

function credentialOf(route: RouteDef, context: SuiteContext, tenant: SeededTenant): Record<string, string> {
  if (route.auth === 'api_key' || route.auth === 'optional_api_key') return { Authorization: `Bearer ${tenant.key}` };
  if (route.auth === 'cron_secret') return { Authorization: `Bearer ${context.cronSecret}` };
  return {};
}

/**
 * Fuzzing (issue 17): fast-check cases for every built row, round robin, each a path with the
 * tenant's real ids, a query and a body drawn from the row's own zod schemas (as JSON Schema) with
 * hostile values mixed in. Figures: responses >= 500 (0), and partial writes (0): the table's
 * changes during every request (its stream's old and new images, reliability/table.ts) are read
 * after it, and any item a request answered 4xx added, removed or changed (the rate-limit window
 * aside) is one.
 */
export async function fuzz(context: SuiteContext, tenant: SeededTenant): Promise<Figure[]> {
  const total = context.short ? FUZZ_CASES.short : FUZZ_CASES.full;
  const targets = fuzzTargets();
  const samples = targets.map((target) => ({ target, cases: fc.sample(caseOf(target, tenant), { numRuns: Math.ceil(total / targets.length), seed: 17 }) }));
  const serverErrors: string[] = [];
  const partialWrites: string[] = [];
  let cases = 0;
  let refused = 0;
  let controlSeen = 0;
  const table = await watchTable();
  try {
    for (let round = 0; cases < total; round += 1) {
      for (const { target, cases: drawn } of samples) {
        const fuzzCase = drawn[round];
        if (fuzzCase === undefined || cases >= total) continue;
        cases += 1;
        const search = new URLSearchParams(fuzzCase.query as Array<[string, string]>).toString();
        const url = `${context.origin}${fuzzCase.path}${search === '' ? '' : `?${search}`}`;
        const response = await fetch(url, {
          method: target.route.method,
          headers: { ...credentialOf(target.route, context, tenant), 'Content-Type': 'application/json' },
          ...(target.route.method === 'GET' ? {} : { body: fuzzCase.body }),
        });
        const text = await response.text();
        const label = `${target.route.method} ${target.route.path}`;
        if (response.status >= 500) serverErrors.push(`${label} ${response.status} ${text.slice(0, 120)} <- ${fuzzCase.body.slice(0, 120)}`);
        const changed = await table.changes();
        if (response.status >= 400 && response.status < 500) {
          refused += 1;
          if (changed.length > 0) partialWrites.push(`${label} ${response.status} changed ${changed.slice(0, 2).join(', ')}`);
        }
        if (cases % 500 === 0) context.log(`fuzz: ${cases}/${total} cases`);
      }
    }
    // A control: a write that succeeds must show in the watch, or the partial-write figure proves nothing.
    await call(`${context.apiUrl}/settings/recovery-goal`, { method: 'POST', key: tenant.key, body: { target_rate: 0.4321 } });
    controlSeen = (await table.changes()).length;
  } finally {
    await table.stop();
  }
  const detail = `${cases.toLocaleString('en-US')} cases over ${targets.length} routes, ${refused.toLocaleString('en-US')} refused with 4xx`;
  return [
    { area: 'fuzz', name: 'cases', value: cases, rule: 'min', target: total, detail: `${targets.length} routes` },
    { area: 'fuzz', name: 'responses >= 500', value: serverErrors.length, rule: 'eq', target: 0, detail: `${detail}${firstOf(serverErrors)}` },
    { area: 'fuzz', name: 'partial writes (table diff around each 4xx)', value: partialWrites.length, rule: 'eq', target: 0, detail: firstOf(partialWrites) },
    {
      area: 'fuzz',
      name: 'table diff saw a control write',
      value: controlSeen,
      rule: 'min',
      target: 1,
      detail: 'else the partial-write figure proved nothing',
    },
  ];
}
