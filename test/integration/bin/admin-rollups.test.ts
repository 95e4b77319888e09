/**
 * `admin rollups recompute`: the hourly job's drift check for one merchant and day, run by the
 * bundled CLI against DynamoDB Local. Nothing here runs the table-stream consumer, so a payment
 * recorded is in the recompute but in no stored rollup: drift the CLI must show.
 */
import { dynamo } from '#data/client';
import { createMerchant } from '#data/merchant-repository';
import { recordFailedPayment } from '#data/payment-repository';
import { failedPaymentInput } from '#test/fixtures/payments';
import { admin } from '#test/fixtures/admin-cli';

// The first run bundles the CLI (bin/cli.mjs).
jest.setTimeout(90_000);

afterAll(() => dynamo.destroy());

describe('admin rollups recompute', () => {
  it("prints the day's recompute, each counter its stored rollups lack with its delta", async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Rollups CLI' });
    await recordFailedPayment(failedPaymentInput(merchant.id, { amount: 1200, currency: 'eur' }), new Date('2026-11-20T08:30:00.000Z'));
    // Act
    const run = await admin(['rollups', 'recompute', '--merchant', merchant.id, '--day', '2026-11-20']);
    // Assess
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const report = JSON.parse(run.stdout) as {
      drift: { family: string; granularity: string; bucket: string; counter: string; stored: number; recomputed: number; delta: number }[];
    };
    expect(report).toMatchObject({ merchant_id: merchant.id, day: '2026-11-20', source_items: 1, items_recomputed: 2, items_stored: 0 });
    expect(report.drift.filter((drift) => drift.counter.startsWith('failed_'))).toEqual([
      expect.objectContaining({ family: 'PAY', granularity: 'D', bucket: '2026-11-20', counter: 'failed_amount', stored: 0, recomputed: 1200, delta: -1200 }),
      expect.objectContaining({ family: 'PAY', granularity: 'D', bucket: '2026-11-20', counter: 'failed_count', stored: 0, recomputed: 1, delta: -1 }),
      expect.objectContaining({
        family: 'PAY',
        granularity: 'H',
        bucket: '2026-11-20T08',
        counter: 'failed_amount',
        stored: 0,
        recomputed: 1200,
        delta: -1200,
      }),
      expect.objectContaining({ family: 'PAY', granularity: 'H', bucket: '2026-11-20T08', counter: 'failed_count', stored: 0, recomputed: 1, delta: -1 }),
    ]);
  });

  it.each([
    ['a malformed --day', ['--merchant', 'merch_x', '--day', '2026-02-30'], /--day must be a day, YYYY-MM-DD/],
    ['a missing --day', ['--merchant', 'merch_x'], /missing --day/],
    ['an unknown merchant', ['--merchant', 'merch_nope', '--day', '2026-11-20'], /unknown merchant "merch_nope"/],
  ])('exits 2 with a one-line error when given %s', async (_case, args, message) => {
    // Act
    const run = await admin(['rollups', 'recompute', ...args]);
    // Assess
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
  });
});
