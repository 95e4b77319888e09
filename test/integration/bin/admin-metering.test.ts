/**
 * `admin metering show`: a merchant's billing metering (the daily `billing-metering` task's items),
 * read by the bundled CLI against DynamoDB Local.
 */
import { dynamo } from '#data/client';
import { createMerchant } from '#data/merchant-repository';
import { putMetering } from '#data/metering-repository';
import { meteringOf } from '#core/metering';
import { admin } from '#test/fixtures/admin-cli';

// The first run bundles the CLI (bin/cli.mjs).
jest.setTimeout(90_000);

afterAll(() => dynamo.destroy());

const NOW = new Date('2026-11-25T08:00:00.000Z');
const pay = (bucket: string, currency: string, count: number, amount: number) => ({
  bucket,
  dims: { currency },
  counters: { failed_count: count, failed_amount: amount },
});

describe('admin metering show', () => {
  it('prints the days metered in the range, their totals per currency, and the days not metered', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Metering CLI' });
    const other = await createMerchant({ name: 'Metering CLI other' });
    await putMetering(
      meteringOf(merchant.id, '2026-11-20', [{ payment_id: 'pe_a', amount: 2500, currency: 'usd' }], [pay('2026-11-20', 'usd', 2, 3000)], NOW),
      true,
    );
    await putMetering(
      meteringOf(merchant.id, '2026-11-22', [{ payment_id: 'pe_b', amount: 3000, currency: 'jpy' }], [pay('2026-11-22', 'usd', 1, 100)], NOW),
      true,
    );
    await putMetering(meteringOf(merchant.id, '2026-11-24', [{ payment_id: 'pe_c', amount: 9, currency: 'usd' }], [], NOW), true);
    await putMetering(meteringOf(other.id, '2026-11-21', [{ payment_id: 'pe_d', amount: 777, currency: 'usd' }], [], NOW), true);
    // Act
    const run = await admin(['metering', 'show', '--merchant', merchant.id, '--from', '2026-11-20', '--to', '2026-11-23']);
    // Assess
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const shown = JSON.parse(run.stdout) as { days: { day: string }[] };
    expect(shown).toEqual({
      merchant_id: merchant.id,
      from: '2026-11-20',
      to: '2026-11-23',
      totals: {
        recoveries: 2,
        recoveries_by_currency: { usd: 1, jpy: 1 },
        recovered_amount_by_currency: { usd: 2500, jpy: 3000 },
        payments_processed: 3,
        payments_processed_by_currency: { usd: 3 },
        processed_amount_by_currency: { usd: 3100 },
      },
      days: [expect.objectContaining({ day: '2026-11-20', recoveries: 1 }), expect.objectContaining({ day: '2026-11-22', recoveries: 1 })],
      not_metered: ['2026-11-21', '2026-11-23'],
    });
  });

  it('reads the 30 days up to yesterday when no dates are given', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Metering CLI defaults' });
    // Act
    const run = await admin(['metering', 'show', '--merchant', merchant.id]);
    // Assess
    expect(run.code).toBe(0);
    const shown = JSON.parse(run.stdout) as { from: string; to: string; days: unknown[]; not_metered: string[] };
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect(shown).toMatchObject({ to: yesterday, days: [] });
    expect(shown.not_metered).toHaveLength(30);
    expect(shown.not_metered[0]).toBe(shown.from);
  });

  it.each([
    ['a missing --merchant', ['--from', '2026-11-01', '--to', '2026-11-02'], /missing --merchant/],
    ['a malformed --from', ['--merchant', 'merch_x', '--from', '2026-02-30', '--to', '2026-03-02'], /--from must be a day, YYYY-MM-DD/],
    ['a malformed --to', ['--merchant', 'merch_x', '--to', 'yesterday'], /--to must be a day, YYYY-MM-DD/],
    ['--from after --to', ['--merchant', 'merch_x', '--from', '2026-11-03', '--to', '2026-11-02'], /--from must not be after --to/],
    ['a range over 366 days', ['--merchant', 'merch_x', '--from', '2025-01-01', '--to', '2026-11-02'], /spans at most 366 days/],
    ['an unknown merchant', ['--merchant', 'merch_nope', '--from', '2026-11-01', '--to', '2026-11-02'], /unknown merchant "merch_nope"/],
    ['a 10 KB merchant id', ['--merchant', 'm'.repeat(10_000)], /unknown merchant/],
    ['an unknown option', ['--merchant', 'merch_x', '--currency', 'usd'], /Unknown option '--currency'/],
  ])('exits 2 with a one-line error when given %s', async (_case, args, message) => {
    // Act
    const run = await admin(['metering', 'show', ...args]);
    // Assess
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });
});
