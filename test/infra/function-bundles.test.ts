import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildOpenApiDocument } from '#api/openapi/build-document';
import { servedOrigins } from '#api/openapi/served-origins';
import { withServerOrigins } from '#api/openapi/servers';
import { routes } from '#api/routes';
import { toApiGatewayEvent } from '#lib/local/api-gateway-event';
import { createLambdaContext } from '#lib/local/lambda-context';
import { RouteMatcher } from '#lib/local/route-matcher';
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
        return owner !== undefined && owner !== group;
      });

      const asynchronous = files.filter((input) => input.startsWith('functions/jobs/') || input.startsWith('functions/consumers/'));

      // Assess
      expect(files).toContain(`functions/api/${group}/handler.ts`);
      expect(foreign).toEqual([]);
      // Jobs and consumers are other functions: an API group reaches them through services and queues.
      expect(asynchronous).toEqual([]);
      // The whole table is bundled by no function: the openapi function serves a document built at bundle time.
      expect(files).not.toContain('functions/api/routes.ts');
    },
  );

  it('serves from the openapi bundle the document the route table builds, with the servers of the origin it is requested at', async () => {
    // Prepare: the bundle as GroupFunction builds it, loaded as Lambda loads it.
    const { code } = await bundleFunction({ entry: 'functions/api/openapi/handler.ts' });
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'openapi-bundle-')), 'index.cjs');
    writeFileSync(file, code);
    const saved = { ...process.env };
    Object.assign(process.env, { TABLE_NAME: 'bundle-test', AWS_REGION: 'us-east-1' });
    const match = new RouteMatcher(routes).match('GET', '/api/v1/openapi.json');
    if (match === undefined || 'allowed' in match) throw new Error('no row for the document');
    const event = toApiGatewayEvent(
      {
        method: 'GET',
        url: '/api/v1/openapi.json',
        rawHeaders: ['Host', 'api.example.com', 'X-Forwarded-Proto', 'https'],
        body: Buffer.alloc(0),
        sourceIp: '127.0.0.1',
      },
      match,
      'req-bundle-1',
    );
    // Act
    let response: { statusCode: number; body: string };
    try {
      const bundled = require(file) as { handler: (event: unknown, context: unknown) => Promise<{ statusCode: number; body: string }> };
      response = await bundled.handler(event, createLambdaContext('recovery-openapi'));
    } finally {
      process.env = saved;
    }
    // Assess
    expect(response.statusCode).toBe(200);
    const expected = withServerOrigins(buildOpenApiDocument(routes), servedOrigins(event));
    expect(expected.servers[0]?.variables?.base_url?.default).toBe('https://api.example.com');
    expect(JSON.parse(response.body)).toEqual(JSON.parse(JSON.stringify(expected)));
  });

  it('bundles payment gateways only where attempts are made (the every-minute job)', () => {
    // Act
    const withGateways = entries
      .filter((entry) => (inputs.get(entry.name) ?? []).some((input) => input.startsWith('functions/adapters/payment-gateways/')))
      .map((entry) => entry.name);

    // Assess: the manual retry (payments) hands its attempt to the executor.
    expect(withGateways).toEqual(['every-minute']);
    expect(inputs.get('payments')).toContain('functions/services/request-retry.ts');
  });

  it("bundles the session proxy's relay process as its image builds it (functions/relay/Dockerfile), without API groups, jobs or AWS SDK clients", async () => {
    // Act
    const relay = await bundleFunction({ entry: 'functions/relay/main.ts' });
    // Assess: its AWS calls (SQS, the connections API) go through the signed-HTTPS client
    expect(relay.inputs).toContain('functions/relay/relay.ts');
    expect(relay.inputs.filter((input) => input.startsWith('functions/api/') || input.startsWith('functions/jobs/'))).toEqual([]);
    expect(relay.inputs.filter((input) => /node_modules\/@aws-sdk\/client-(sqs|apigatewaymanagementapi)\//.test(input))).toEqual([]);
  }, 60_000);
});
