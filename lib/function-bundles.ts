/**
 * Every Lambda of the service by its entry file, and a bundle of it built as GroupFunction
 * builds it (esbuild, CJS, node22, minified, tree-shaken, SDK bundled). Shared by the infra test
 * that keeps groups' bundles apart and by `npm run bench -- bundles`, which weighs them.
 */
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { apiGroups } from '#api/groups';
import { buildOpenApiDocument } from '#api/openapi/build-document';
import { routes } from '#api/routes';
import { queueDefinitions } from '#contracts/queues';
import { scheduleDefinitions } from '#contracts/schedules';

export const PROJECT_ROOT = path.join(__dirname, '..');

export interface FunctionEntry {
  readonly kind: 'api' | 'job' | 'consumer';
  readonly name: string;
  /** Relative to the project root. */
  readonly entry: string;
}

/** API groups (functions/api/groups.ts), then jobs, then queue consumers. */
export function functionEntries(): FunctionEntry[] {
  return [
    ...Object.keys(apiGroups).map((name) => ({ kind: 'api' as const, name, entry: `functions/api/${name}/handler.ts` })),
    ...scheduleDefinitions.map(({ name }) => ({ kind: 'job' as const, name, entry: `functions/jobs/${name}.ts` })),
    ...queueDefinitions.map(({ name }) => ({ kind: 'consumer' as const, name, entry: `functions/consumers/${name}.ts` })),
    // The target of the SES events rule (lib/constructs/email-sending.ts), not a queue's consumer.
    { kind: 'consumer' as const, name: 'email-events', entry: 'functions/consumers/email-events.ts' },
    // The consumer of the table's stream (lib/constructs/table-stream-consumer.ts).
    { kind: 'consumer' as const, name: 'table-stream', entry: 'functions/consumers/table-stream.ts' },
    // The session proxy's WebSocket API (lib/constructs/websocket-proxy-api.ts): it consumes API Gateway's
    // $connect, $disconnect and $default events rather than serving route-table rows.
    { kind: 'consumer' as const, name: 'session-proxy-websocket', entry: 'functions/api/session-proxy/websocket-handler.ts' },
    // The outbound-event dispatcher, the stream's second consumer (lib/constructs/outbound-dispatch-consumer.ts).
    { kind: 'consumer' as const, name: 'outbound-dispatch', entry: 'functions/consumers/outbound-dispatch.ts' },
  ];
}

export interface FunctionBundle {
  /** The minified bundle. */
  readonly code: string;
  /** Project files and packages in it, relative to the project root (`functions/api/payments/get-payment.ts`). */
  readonly inputs: readonly string[];
}

const OPENAPI_ENTRY = 'functions/api/openapi/handler.ts';

/**
 * Values fixed when a function is bundled (esbuild `define`, identifier → JSON text): the openapi
 * function gets the route table's document, built here and gzipped (about 40 KB of base64 for 340
 * KB of JSON), which it serves instead of bundling every group's schemas and converting them at
 * cold start (functions/api/openapi/get-open-api-document.ts). Other functions get none.
 */
export function bundleDefinesFor(entry: string, version?: string): Record<string, string> {
  if (entry !== OPENAPI_ENTRY) return {};
  const document = JSON.stringify(buildOpenApiDocument(routes, { version }));
  return { __OPENAPI_DOCUMENT_GZIP__: JSON.stringify(gzipSync(document, { level: 9 }).toString('base64')) };
}

/** Bundles an entry (relative to the root, or a file's contents given as `stdin`) as GroupFunction does. */
export async function bundleFunction(source: { readonly entry: string } | { readonly stdin: string }): Promise<FunctionBundle> {
  const result = await build({
    ...('entry' in source
      ? { entryPoints: [path.join(PROJECT_ROOT, source.entry)] }
      : { stdin: { contents: source.stdin, resolveDir: PROJECT_ROOT, loader: 'ts' } }),
    absWorkingDir: PROJECT_ROOT,
    define: 'entry' in source ? bundleDefinesFor(source.entry) : {},
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const output = result.outputFiles[0];
  if (output === undefined) throw new Error('esbuild wrote no bundle');
  return { code: output.text, inputs: Object.keys(result.metafile.inputs) };
}

/** What a function needs at the least: one DynamoDB document client call, bundled the same way. */
export const BARE_DYNAMODB_CLIENT = `
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export const handler = async () => client.send(new GetCommand({ TableName: 'table', Key: { PK: 'a', SK: 'b' } }));
`;
