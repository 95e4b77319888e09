import { readFileSync } from 'node:fs';
import path from 'node:path';
import { bundleFunction, type FunctionEntry, functionEntries, PROJECT_ROOT } from '#lib/function-bundles';

const GROUP_FILE = /^functions\/api\/([a-z-]+)\/[^/]+\.ts$/;

/** The group folder a project file belongs to, when it is part of an operation or the group's rows (not a shared record schema). */
function operationGroupOf(input: string): string | undefined {
  const match = GROUP_FILE.exec(input);
  if (match === null) return undefined;
  const source = readFileSync(path.join(PROJECT_ROOT, input), 'utf8');
  const isOperation = /defineOperation\(|createGroupHandler\(/.test(source) || input.endsWith('/routes.ts');
  return isOperation ? match[1] : undefined;
}

describe('function bundles', () => {
  const entries = functionEntries();
  const inputs = new Map<string, readonly string[]>();

  beforeAll(async () => {
    // Bundled once, as GroupFunction bundles them, in a few parallel esbuild runs.
    const bundled = await Promise.all(entries.map(async (entry: FunctionEntry) => [entry.name, (await bundleFunction(entry)).inputs] as const));
    for (const [name, files] of bundled) inputs.set(name, files);
  }, 180_000);

  it.each(entries.filter((entry) => entry.kind === 'api').map((entry) => [entry.name]))(
    'keeps group %s free of other groups\u2019 operations and rows',
    (group) => {
      // Act
      const files = inputs.get(group) ?? [];
      const foreign = files.filter((input) => {
        const owner = operationGroupOf(input);
        // The OpenAPI document is built from the whole table: every group's rows, no operation.
        const documented = group === 'openapi' && input.endsWith('/routes.ts');
        return owner !== undefined && owner !== group && !documented;
      });

      const asynchronous = files.filter((input) => input.startsWith('functions/jobs/') || input.startsWith('functions/consumers/'));

      // Assess
      expect(files).toContain(`functions/api/${group}/handler.ts`);
      expect(foreign).toEqual([]);
      // Jobs and consumers are other functions: an API group reaches them through services and queues.
      expect(asynchronous).toEqual([]);
      expect(files.includes('functions/api/routes.ts')).toBe(group === 'openapi');
    },
  );

  it('bundles payment gateways only where attempts are made (the every-minute job)', () => {
    // Act
    const withGateways = entries
      .filter((entry) => (inputs.get(entry.name) ?? []).some((input) => input.startsWith('functions/adapters/payment-gateways/')))
      .map((entry) => entry.name);

    // Assess: the manual retry (payments) hands its attempt to the executor.
    expect(withGateways).toEqual(['every-minute']);
    expect(inputs.get('payments')).toContain('functions/services/request-retry.ts');
  });
});
