import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getPayment } from '#data/payment-repository';
import { sandboxChargesOf } from '#data/sandbox-charge-repository';
import { type LocalStack, startLocalStack } from '#lib/local/local-stack';
import { PROCESSING_ERROR, seedPayment } from '#test/fixtures/payments';

// A first run bundles the script (bin/cli.mjs), then the job runs on a busy 2-core machine.
jest.setTimeout(90_000);

const root = join(__dirname, '..', '..', '..');

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * `npm run job -- <name>` as an operator runs it beside `npm start`: the launcher npm runs, from
 * the folder whose `.local/stack.json` the stack wrote, with nothing of the stack's environment
 * (the stack sets TABLE_NAME, DYNAMODB_ENDPOINT and DEFAULT_PAYMENT_GATEWAY only for itself).
 */
function job(cwd: string, args: string[]): Promise<Run> {
  const { TABLE_NAME: _table, DYNAMODB_ENDPOINT: _endpoint, DEFAULT_PAYMENT_GATEWAY: _gateway, ...environment } = process.env;
  return new Promise((resolve) => {
    execFile(process.execPath, [join(root, 'bin', 'cli.mjs'), 'job', ...args], { cwd, env: { ...environment, LOG_LEVEL: 'warn' } }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr }),
    );
  });
}

describe('npm run job against the local stack', () => {
  let stack: LocalStack;
  let cwd: string;

  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'recovery-job-'));
    stack = await startLocalStack({
      port: 0,
      dynamoEndpoint: process.env.DYNAMODB_ENDPOINT as string,
      tableName: process.env.TABLE_NAME as string,
      stackFile: join(cwd, '.local', 'stack.json'),
      background: false,
    });
  });

  afterAll(() => stack.stop());

  it("charges a due retry through the stack's default gateway (sandbox) instead of pushing it back a day", async () => {
    // Prepare: a processing error two days ago, whose first retry (hours later) is due now.
    const payment = await seedPayment(stack.merchant_id, PROCESSING_ERROR, new Date(Date.now() - 2 * 24 * 3_600_000));
    expect(payment.status).toBe('retrying');
    expect(Date.parse(payment.next_retry_at ?? '')).toBeLessThan(Date.now());

    // Act
    const run = await job(cwd, ['every-minute']);

    // Assess
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { tasks: { name: string; summary?: Record<string, number> }[] };
    expect(report.tasks.find((task) => task.name === 'execute-due-retries')?.summary).toMatchObject({ due: 1, succeeded: 1, rescheduled: 0 });
    const after = await getPayment(stack.merchant_id, payment.id);
    expect(after).toMatchObject({ status: 'recovered', next_retry_at: null });
    expect(await sandboxChargesOf(stack.merchant_id, payment.id)).toHaveLength(1);
    expect(run.stderr).not.toMatch(/NodeVersionSupportWarning|Warning:/);
  });

  it("writes the stack's default gateway into the stack file", () => {
    // Assess
    expect(stack.default_payment_gateway).toBe('sandbox');
  });
});
