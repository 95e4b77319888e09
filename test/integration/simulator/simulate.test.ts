import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STRATEGY_NAMES } from '#simulator/parameters';
import { buildPortfolio } from '#simulator/portfolio';
import { runSimulation } from '#simulator/simulate';

/**
 * The recovery simulator end to end on DynamoDB Local, on a small portfolio: the service's
 * strategies go through ingest, the campaign engine and the retry executor with the simulated
 * clock. Each run is a few hundred DynamoDB calls per strategy: minutes on a busy 2-core machine.
 */
jest.setTimeout(900_000);

const SEED = 1;
const PAYMENTS = 16;

describe('recovery simulator', () => {
  it("gives the same report twice for a seed, in the documented shape, 0 violations for the service and the fixed schedules' violations counted", async () => {
    // Prepare
    const forbidden = buildPortfolio(SEED, PAYMENTS).payments.filter((p) => p.kind === 'do_not_retry' && p.card.network !== 'other');
    // Act
    const first = await runSimulation({ seed: SEED, payments: PAYMENTS, runId: 'first' });
    const second = await runSimulation({ seed: SEED, payments: PAYMENTS, runId: 'second' });
    // Assess: reproducible
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
    // Assess: the documented shape
    expect(first).toMatchObject({ seed: SEED, payments: PAYMENTS });
    expect(first.strategies.map((s) => s.name)).toEqual([...STRATEGY_NAMES]);
    for (const strategy of first.strategies) {
      expect(Object.keys(strategy)).toEqual(
        expect.arrayContaining([
          'name',
          'recovered_amount',
          'recovered_count',
          'attempts',
          'attempts_per_recovery',
          'median_days_to_recovery',
          'violations',
          'fees',
        ]),
      );
      expect(Number.isInteger(strategy.recovered_amount.usd_cents_at_fixed_rates)).toBe(true);
      expect(Object.values(strategy.recovered_amount.by_currency).every(Number.isInteger)).toBe(true);
      expect(strategy.fees.currency).toBe('usd');
    }
    const [fixed8, fixed4, policy, withCampaigns] = first.strategies;
    // Assess: the service's strategies ran through the engine and kept every network rule. This
    // portfolio has no retryable payment on a card whose first failure was a do-not-retry answer:
    // the service does not block the card then (README, "Recovery simulator", item 1), which
    // bigger portfolios show as violations.
    for (const service of [policy, withCampaigns]) {
      expect(service?.attempts).toBeGreaterThan(0);
      expect(service?.recovered_count).toBeGreaterThan(0);
      expect(service?.violations).toBe(0);
      expect(service?.fees.amount).toBe(0);
    }
    // Assess: the fixed schedules retried the do-not-retry declines anyway, and that was counted
    expect(forbidden.length).toBeGreaterThan(0);
    for (const fixed of [fixed8, fixed4]) {
      expect(fixed?.violations).toBeGreaterThanOrEqual(forbidden.length);
      expect(fixed?.fees.amount).toBeGreaterThan(0);
    }
  });
});

describe('npm run simulate (the command)', () => {
  const ROOT = join(__dirname, '..', '..', '..');
  const run = (args: readonly string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((done, fail) => {
      const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'simulator', 'run.ts'), ...args], {
        cwd: ROOT,
        env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      child.on('error', fail);
      child.on('close', (code) => done({ code, stdout, stderr }));
    });

  it('prints one JSON document on stdout with --json and writes the chart where --chart says', async () => {
    // Prepare
    const folder = mkdtempSync(join(tmpdir(), 'simulate-'));
    const chart = join(folder, 'nested', 'chart.svg');
    // Act
    const result = await run(['--json', '--seed', '3', '--payments', '4', '--chart', chart]);
    // Assess
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { seed: number; payments: number; strategies: { name: string }[] };
    expect(report).toMatchObject({ seed: 3, payments: 4 });
    expect(report.strategies.map((s) => s.name)).toEqual([...STRATEGY_NAMES]);
    expect(readFileSync(chart, 'utf8')).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[\s\S]*<\/svg>\n$/);
  });

  it('refuses a bad command line with the usage and exit code 1, starting nothing', async () => {
    // Act
    const results = await Promise.all([run(['--payments', '0']), run(['--seed', '-1']), run(['--payments', `${'9'.repeat(400)}`]), run(['--__proto__'])]);
    // Assess
    for (const result of results) {
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/Usage: npm run simulate/);
    }
  });
});
