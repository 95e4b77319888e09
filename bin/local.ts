/**
 * `npm start`: the whole service on this machine (DESIGN §3). PORT picks the HTTP port
 * (default 3000); DATA_DIR keeps data across restarts (in memory otherwise). Stops cleanly,
 * DynamoDB Local included, on SIGINT or SIGTERM.
 */
import { startLocalStack } from '#lib/local/local-stack';

// Lambda runs Node.js 22; the SDK's notice about Node 20 on a developer machine is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const SHUTDOWN_DEADLINE_MS = 4_500;

function port(): number {
  const raw = process.env.PORT ?? '3000';
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65_535) {
    process.stderr.write(`PORT must be a port number, not "${raw}"\n`);
    process.exit(2);
  }
  return value;
}

async function main(): Promise<void> {
  const dataDir = process.env.DATA_DIR === undefined || process.env.DATA_DIR === '' ? undefined : process.env.DATA_DIR;
  const stack = await startLocalStack({ port: port(), ...(dataDir ? { dataDir } : {}) });
  process.stdout.write(
    [
      'Recovery service is running (local stack).',
      `  API base URL:  ${stack.api_url}`,
      `  Health:        ${stack.api_url.replace(/\/api\/v1$/, '')}/health`,
      `  DynamoDB:      ${stack.dynamodb_endpoint} (table ${stack.table_name}, ${dataDir ? `data in ${dataDir}` : 'in memory'})`,
      `  Merchant:      ${stack.merchant_id}`,
      ...(stack.mail_catcher_url === undefined ? [] : [`  Sent emails:   ${stack.mail_catcher_url} (mail catcher)`]),
      `  Demo API key:  ${stack.api_key}`,
      '  Stack file:    .local/stack.json',
      `Try: curl -H "Authorization: Bearer ${stack.api_key}" ${stack.api_url}/status`,
      '',
    ].join('\n'),
  );

  let stopping = false;
  const shutdown = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${signal}: stopping\n`);
    const deadline = setTimeout(() => process.exit(1), SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    stack.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  process.stderr.write(`Could not start the local stack: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
