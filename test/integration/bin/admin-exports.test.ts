/**
 * `admin exports start` and `admin exports show`: the merchant data export run by the bundled CLI
 * against DynamoDB Local, written through the filesystem exports adapter into this file's own
 * directory (EXPORTS_DIR, inherited by the CLI's process).
 */
import { EXPORTS_DIR } from '#test/fixtures/exports-dir';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dynamo } from '#data/client';
import { createMerchant } from '#data/merchant-repository';
import { admin } from '#test/fixtures/admin-cli';
import { seedPayment } from '#test/fixtures/payments';

// The first run bundles the CLI (bin/cli.mjs).
jest.setTimeout(120_000);

afterAll(() => dynamo.destroy());

interface PrintedJob {
  job_id: string;
  merchant_id: string;
  state: string;
  counts: { payments: number; recoveries: number; customers: number };
  size: number;
  location: string | null;
  download_path: string | null;
  error: string | null;
}

describe('admin exports', () => {
  it('starts an export, prints the job with its download location, and shows it again', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Exports CLI' });
    const payment = await seedPayment(merchant.id, { amount: 4200, currency: 'gbp' });
    // Act
    const started = await admin(['exports', 'start', '--merchant', merchant.id]);
    const job = JSON.parse(started.stdout) as PrintedJob;
    const shown = await admin(['exports', 'show', '--merchant', merchant.id, '--job', job.job_id]);
    // Assess
    expect(started).toMatchObject({ code: 0, stderr: '' });
    expect(job).toMatchObject({
      merchant_id: merchant.id,
      state: 'succeeded',
      counts: { payments: 1, recoveries: 1, customers: 1 },
      location: join(EXPORTS_DIR, merchant.id, `${job.job_id}.data`),
      download_path: `/api/v1/internal/exports/${merchant.id}/${job.job_id}`,
      error: null,
    });
    expect(job.job_id).toMatch(/^exp_[0-9A-HJKMNP-TV-Z]{26}$/);
    const lines = readFileSync(job.location as string, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => line.object)).toEqual(['customer', 'payment', 'recovery']);
    expect(lines[1]).toMatchObject({ id: payment.id, amount: 4200, currency: 'gbp' });
    expect(job.size).toBe(Buffer.byteLength(readFileSync(job.location as string)));
    expect(shown).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(shown.stdout)).toEqual(job);
  });

  it.each([
    ['start without --merchant', ['exports', 'start'], /missing --merchant/],
    ['start for an unknown merchant', ['exports', 'start', '--merchant', 'merch_nobody'], /unknown merchant "merch_nobody"/],
    ['start with a 10 KB merchant id', ['exports', 'start', '--merchant', 'm'.repeat(10_240)], /unknown merchant/],
    ['start with an unknown option', ['exports', 'start', '--merchant', 'merch_x', '--all'], /Unknown option '--all'/],
    ['show without --job', ['exports', 'show', '--merchant', 'merch_x'], /missing --job/],
    ['show with a malformed job id', ['exports', 'show', '--merchant', 'merch_x', '--job', '../../etc'], /--job must be an export job id/],
    ['show with __proto__ as the job', ['exports', 'show', '--merchant', 'merch_x', '--job', '__proto__'], /--job must be an export job id/],
  ])('exits 2 with a one-line error for %s', async (_case, args, message) => {
    // Act
    const run = await admin(args);
    // Assess
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it("exits 2 for another merchant's job id", async () => {
    // Prepare
    const owner = await createMerchant({ name: 'Exports owner' });
    const other = await createMerchant({ name: 'Exports other' });
    const job = JSON.parse((await admin(['exports', 'start', '--merchant', owner.id])).stdout) as PrintedJob;
    // Act
    const run = await admin(['exports', 'show', '--merchant', other.id, '--job', job.job_id]);
    // Assess
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`unknown export job "${job.job_id}"`));
  });
});
