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
    // Assess: the service's strategies ran through the engine and kept every network rule
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
