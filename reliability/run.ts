/**
 * `npm run reliability [-- --short] [-- --only fuzz,storms]`: the reliability suite (issue 17)
 * against the local stack over real HTTP, one line per figure on stdout; exits 1 when any figure
 * falls short, 2 when the suite itself cannot run. DATA_DIR keeps the stack's data (a temporary
 * folder otherwise); see docs/reliability.md.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { short: { type: 'boolean', default: false }, only: { type: 'string' } } });
  const { PARTS } = await import('./suite');
  const only = values.only === undefined ? [] : values.only.split(',').map((part) => part.trim());
  const unknown = only.filter((part) => !(PARTS as readonly string[]).includes(part));
  if (unknown.length > 0) {
    process.stderr.write(`Unknown part ${unknown.join(', ')}: the parts are ${PARTS.join(', ')}\n`);
    return 2;
  }
  // Set before any module of functions/ loads: they read the environment once.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  process.env.LOG_LEVEL ??= 'silent';
  process.env.CRON_SECRET ??= randomBytes(24).toString('hex');
  const temporary = process.env.DATA_DIR === undefined || process.env.DATA_DIR === '';
  const dataDir = temporary ? mkdtempSync(join(tmpdir(), 'recovery-reliability-')) : (process.env.DATA_DIR as string);
  const { startLocalStack } = await import('#lib/local/local-stack');
  const stack = await startLocalStack({ port: 0, dataDir, stackFile: null, background: false, mailCatcher: false, tableName: 'recovery-reliability' });
  const started = Date.now();
  try {
    const { runSuite } = await import('./suite');
    const { formatFigure, passes } = await import('./figures');
    process.stdout.write(`Reliability suite (${values.short ? 'short' : 'full'}), ${new Date().toISOString()}\n`);
    const figures = await runSuite({
      stack,
      short: values.short,
      only: only as never,
      onFigure: (figure) => process.stdout.write(`${formatFigure(figure)}\n`),
      log: (message) => process.stderr.write(`  ${message}\n`),
    });
    const failed = figures.filter((figure) => !passes(figure));
    process.stdout.write(`${figures.length - failed.length}/${figures.length} figures pass in ${Math.round((Date.now() - started) / 1000)} s\n`);
    return failed.length === 0 ? 0 : 1;
  } finally {
    await stack.stop();
    if (temporary) rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`The reliability suite could not run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(2);
  },
);
