import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { getPaymentByAnyId } from '#data/payment-repository';
import { type LocalStack, startLocalStack } from '#lib/local/local-stack';

// Bundles three scripts at first use, runs npm five times and the queues and the job: slow on a busy 2-core machine.
jest.setTimeout(180_000);

const ROOT = resolve(__dirname, '..', '..', '..');

/** The README's "First data" shell block, between its walkthrough markers. */
function walkthrough(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /<!-- walkthrough:start -->\s*```sh\n([\s\S]*?)```\s*<!-- walkthrough:end -->/.exec(readme)?.[1];
  if (block === undefined) throw new Error('README.md has no walkthrough block');
  return block;
}

describe('README "First data" walkthrough', () => {
  let stack: LocalStack;
  let cwd: string;

  beforeAll(async () => {
    // A folder that is the repository to npm (its package.json, bin/, node_modules) with this
    // test's own .local/stack.json, so a developer's running stack and its stack file are untouched.
    cwd = mkdtempSync(join(tmpdir(), 'recovery-walkthrough-'));
    for (const entry of ['package.json', 'bin', 'node_modules']) symlinkSync(join(ROOT, entry), join(cwd, entry));
    mkdirSync(join(cwd, '.local'));
    // As `npm start` runs: queue pollers on (the Stripe delivery is consumed in the background).
    stack = await startLocalStack({
      port: 0,
      dynamoEndpoint: process.env.DYNAMODB_ENDPOINT as string,
      tableName: process.env.TABLE_NAME as string,
      stackFile: join(cwd, '.local', 'stack.json'),
      background: true,
    });
  });
  afterAll(() => stack.stop());

  it('runs every command of the block, and the Stripe payment ends recovered with its retry on the timeline', async () => {
    // Prepare: a shell of the developer's, which has none of the stack's environment.
    const { TABLE_NAME: _t, DYNAMODB_ENDPOINT: _d, DEFAULT_PAYMENT_GATEWAY: _g, QUEUE_DRIVER: _q, ...environment } = process.env;
    const script = `${walkthrough()}\necho\necho "WALKTHROUGH_PI=$PI"\n`;

    // Act
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
      execFile(
        'bash',
        ['-euo', 'pipefail', '-c', script],
        { cwd, env: { ...environment, LOG_LEVEL: 'warn' }, timeout: 170_000, maxBuffer: 16 * 1024 * 1024 },
        (error, stdout, stderr) => done({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr }),
      );
    });

    // Assess
    expect({ code: run.code, stderr: run.stderr.split('\n').filter((line) => line.includes('rror')) }).toEqual({ code: 0, stderr: [] });
    const pi = /WALKTHROUGH_PI=(pi_\w+)/.exec(run.stdout)?.[1] as string;
    expect(pi).toBeDefined();
    expect(run.stdout).toContain('"recovery_initiated":true');
    expect(run.stdout).toMatch(/"succeeded": 1/);
    const timeline = run.stdout.slice(run.stdout.lastIndexOf('{"data":{"payment_id"'));
    const types = (
      JSON.parse(timeline.slice(0, timeline.indexOf('\n') === -1 ? undefined : timeline.indexOf('\n'))) as { data: { events: { type: string }[] } }
    ).data.events.map((event) => event.type);
    expect(types).toEqual(['payment_failed', 'retry_scheduled', 'retry', 'retry_succeeded']);
    expect(await getPaymentByAnyId(stack.merchant_id, pi)).toMatchObject({
      status: 'recovered',
      psp: 'stripe',
      customer_email: 'bo@example.com',
      amount: 4999,
    });
    expect(await getPaymentByAnyId(stack.merchant_id, 'ch_demo_1')).toMatchObject({
      status: 'retrying',
      customer_email: 'ana@example.com',
      decline_code: 'insufficient_funds',
    });
  });
});
