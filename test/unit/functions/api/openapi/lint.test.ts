import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';
import { buildOpenApiDocument } from '#api/openapi/build-document';
import type { RouteDef } from '#api/route-types';
import { routes } from '#api/routes';

const ROOT = resolve(__dirname, '../../../../..');
const REDOCLY = join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');

interface LintReport {
  readonly totals: { readonly errors: number; readonly warnings: number };
  readonly problems: ReadonlyArray<{
    readonly ruleId: string;
    readonly severity: string;
    readonly message: string;
    readonly location: ReadonlyArray<{ readonly pointer: string }>;
  }>;
}

/** Redocly CLI's own entry, offline: its built-in `recommended` ruleset, no telemetry, no update check. */
async function lint(file: string): Promise<LintReport> {
  const run = promisify(execFile);
  const options = {
    cwd: ROOT,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    maxBuffer: 64 * 1024 * 1024,
  };
  const args = [REDOCLY, 'lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format', 'json'];
  // Redocly exits 1 when it finds errors; the report on stdout is what the test reads either way.
  const { stdout } = await run(process.execPath, args, options).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  return JSON.parse(stdout) as LintReport;
}

describe('the OpenAPI document under Redocly lint', () => {
  let folder: string;

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  });

  afterAll(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it('reports zero errors with the recommended ruleset when linting the document of the route table', async () => {
    // Prepare
    const file = join(folder, 'openapi.json');
    writeFileSync(file, JSON.stringify(buildOpenApiDocument(routes)));
    // Act
    const report = await lint(file);
    // Assess
    const errors = report.problems
      .filter((problem) => problem.severity === 'error')
      .map((problem) => `${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`);
    expect(errors).toEqual([]);
    expect(report.totals.errors).toBe(0);
  }, 60_000);

  it('reports zero errors and no unused components when rows carry schemas, shared ids and both kinds of paging', async () => {
    // Prepare: the table's rows gain schemas over time; these stand in for them.
    const Thing = z.object({ id: z.string(), name: z.string().min(1), created_at: z.iso.datetime() }).meta({ id: 'Thing', description: 'A thing.' });
    const row = (route: Pick<RouteDef, 'operationId' | 'method' | 'path' | 'schemas'>): RouteDef => ({
      group: 'things',
      api: 'merchant',
      auth: 'api_key',
      scopes: ['read'],
      summary: route.operationId,
      ...route,
    });
    const table = [
      ...routes,
      row({
        operationId: 'listThings',
        method: 'GET',
        path: '/api/v1/things',
        schemas: {
          query: z.object({
            status: z.enum(['active', 'archived']).optional(),
            page: z.coerce.number().int().min(1).default(1),
            per_page: z.coerce.number().int().min(1).max(100).default(25),
          }),
        },
      }),
      row({
        operationId: 'listThingEvents',
        method: 'GET',
        path: '/api/v1/things/{id}/events',
        schemas: {
          params: z.object({ id: z.string() }),
          query: z.object({ cursor: z.string().min(1).optional(), limit: z.coerce.number().int().min(1).max(200).default(50) }),
        },
      }),
      row({
        operationId: 'createThing',
        method: 'POST',
        path: '/api/v1/things',
        schemas: { body: Thing.omit({ id: true, created_at: true }), responses: { 201: z.object({ data: Thing }) } },
      }),
    ];
    const file = join(folder, 'with-schemas.json');
    writeFileSync(file, JSON.stringify(buildOpenApiDocument(table)));
    // Act
    const report = await lint(file);
    // Assess
    expect(report.problems.filter((problem) => problem.severity === 'error' || problem.ruleId === 'no-unused-components')).toEqual([]);
  }, 60_000);

  it('reports an error when the document breaks a rule, so a clean result means something', async () => {
    // Prepare
    const file = join(folder, 'broken.json');
    const document = structuredClone(buildOpenApiDocument(routes)) as { paths: Record<string, { get?: { security?: unknown } }> };
    delete document.paths['/api/v1/payments']?.get?.security;
    writeFileSync(file, JSON.stringify(document));
    // Act
    const report = await lint(file);
    // Assess
    expect(report.problems).toEqual(expect.arrayContaining([expect.objectContaining({ ruleId: 'security-defined', severity: 'error' })]));
  }, 60_000);
});
