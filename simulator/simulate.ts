import { runServiceStrategy } from './engine';
import { runFixedSchedule } from './fixed';
import { PARAMETERS, STRATEGY_NAMES, type StrategyName } from './parameters';
import { buildPortfolio } from './portfolio';
import { type SimulationReport, strategyReport } from './report';
import type { World } from './world';

/**
 * One simulation: the seed's portfolio through the four strategies, in the same run. Needs the
 * runtime's environment (TABLE_NAME, DYNAMODB_ENDPOINT, QUEUE_DRIVER=local,
 * DEFAULT_PAYMENT_GATEWAY=sandbox) set before the functions' modules load: run.ts does that for
 * `npm run simulate`, the integration tests' setup for the tests. `runId` keeps the merchants of
 * two runs in one table apart.
 */
export async function runSimulation(input: { seed: number; payments: number; runId?: string }): Promise<SimulationReport> {
  const portfolio = buildPortfolio(input.seed, input.payments);
  const run = input.runId ?? `${Date.now().toString(36)}`;
  const merchant = (suffix: string) => `merch_sim${run}${suffix}`;
  // The service's two strategies run one after the other (a merchant each): the jobs serve every
  // merchant of the table, so a run beside another would run the other's due work at its own clock.
  const policy = await runServiceStrategy(portfolio, { campaigns: false, merchantId: merchant('p') });
  const withCampaigns = await runServiceStrategy(portfolio, { campaigns: true, merchantId: merchant('c') });
  const worlds: Record<StrategyName, World> = {
    fixed_8_in_14: runFixedSchedule(portfolio, PARAMETERS.fixedSchedules.fixed_8_in_14),
    fixed_4_in_21: runFixedSchedule(portfolio, PARAMETERS.fixedSchedules.fixed_4_in_21),
    policy,
    policy_with_campaigns: withCampaigns,
  };
  const strategies = STRATEGY_NAMES.map((name) => strategyReport(name, portfolio, worlds[name]));
  return {
    seed: input.seed,
    payments: input.payments,
    start: portfolio.start.toISOString(),
    days: Math.ceil((portfolio.end.getTime() - portfolio.start.getTime()) / 86_400_000),
    strategies,
  };
}
