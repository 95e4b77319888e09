import { runServiceStrategy } from './engine';
import { runFixedSchedule } from './fixed';
import { PARAMETERS, STRATEGY_NAMES } from './parameters';
import { buildPortfolio } from './portfolio';
import { type SimulationReport, strategyReport } from './report';

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
  const strategies = [];
  for (const name of STRATEGY_NAMES) {
    const world =
      name === 'fixed_8_in_14' || name === 'fixed_4_in_21'
        ? runFixedSchedule(portfolio, PARAMETERS.fixedSchedules[name])
        : await runServiceStrategy(portfolio, { campaigns: name === 'policy_with_campaigns', merchantId: `merch_sim${run}${name === 'policy' ? 'p' : 'c'}` });
    strategies.push(strategyReport(name, portfolio, world));
  }
  return {
    seed: input.seed,
    payments: input.payments,
    start: portfolio.start.toISOString(),
    days: Math.ceil((portfolio.end.getTime() - portfolio.start.getTime()) / 86_400_000),
    strategies,
  };
}
