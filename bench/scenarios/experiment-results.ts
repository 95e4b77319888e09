import { randomBytes } from 'node:crypto';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { handler as experimentsHandler } from '#api/experiments/handler';
import { customerIdFor } from '#core/customers';
import { type ExperimentRecord, experimentBodyOf, variantFor } from '#core/experiments/experiment';
import { timeOrderedId } from '#core/ids';
import { documentClient } from '#data/client';
import { experimentAssignmentEntity } from '#data/entities/experiment';
import { experimentKeys, queries } from '#data/keys';
import { projections } from '#data/projections/index';
import { mergeIncrements } from '#data/projections/increments';
import { startExperiment } from '#services/experiments';
import { env } from '#shared/env';
import { counted, installCallTally, perUnit, tally } from '#bench/call-tally';
import { batchWrite, unlimitedMerchant } from '#bench/fixtures';
import { expectingStatus, rawKeyAndRateLimit, routeInvoker } from '#bench/requests';
import type { BenchFixture, Scenario } from '#bench/scenario';

/**
 * Issue 15: "experiment results cost the same at 1k and 100k assignments (rollup items, not
 * scans)". Two merchants, each with one running experiment (control and treatment), one with 1,000
 * and one with 100,000 assignments (BENCH_EXPERIMENT_ASSIGNMENTS overrides). GET
 * /experiments/{id}/results is called through the real experiments handler for each, and its
 * DynamoDB calls and RCU per request compared: ratio 100k / 1k, target at most 1.1.
 *
 * The data. Every assignment item is written (the repository's entity, `experimentAssignmentEntity`,
 * with its index entry), so a read that scanned or queried them would show it. The variant counters
 * are written as the table-stream consumer leaves them: every projection of the consumer's list
 * (functions/data/projections/index.ts) applied to each assignment item, summed per counter item with
 * the consumer's own `mergeIncrements`, written with BatchWriteItem as key + attributes + counters
 * (what `SET <attributes> ADD <counters>` over each insert's record gives; see analytics-reads.ts).
 * Applying 100,000 stream records through DynamoDB Local would take minutes and measure the
 * consumer, not the read. Each customer's variant is the experiment's own hashed assignment
 * (`variantFor`); one in five converts in control, one in four in treatment.
 */
const SIZES = (process.env.BENCH_EXPERIMENT_ASSIGNMENTS ?? '1000,100000').split(',').map(Number) as [number, number];
const REQUESTS = 5;
const TARGET = 1.1;

type Item = Record<string, unknown>;

interface Seeded {
  readonly fixture: BenchFixture;
  readonly experiment: ExperimentRecord;
  readonly assignments: number;
}

/** A merchant with a running experiment of `count` assignments and its counters. */
async function seedExperiment(count: number, merchants: number): Promise<Seeded> {
  const fixture = await unlimitedMerchant(`Experiments ${count}`, merchants);
  const experiment = await startExperiment({
    merchantId: fixture.merchantId,
    name: `Bench ${count}`,
    kind: 'offer',
    settings: [{ offer_type: 'none' }, { offer_type: 'discount', offer_value: '10%' }],
    source: { type: 'cli', id: null },
  });
  const started = Date.parse(experiment.started_at);
  const items: Item[] = [];
  for (let i = 0; i < count; i += 1) {
    const at = new Date(started + i * 1000);
    const customerId = customerIdFor(`${timeOrderedId(at)}${randomBytes(2).toString('hex')}`);
    const variant = variantFor(experiment, customerId).key;
    const converted = i % (variant === 'control' ? 5 : 4) === 0;
    items.push(
      experimentAssignmentEntity.toItem({
        merchant_id: fixture.merchantId,
        experiment_id: experiment.id,
        customer_id: customerId,
        variant,
        converted,
        assigned_at: at.toISOString(),
        converted_at: converted ? at.toISOString() : null,
      }),
    );
  }
  const counters = mergeIncrements(items.flatMap((item) => projections.flatMap((projection) => projection(item))));
  const counterItems = counters.map((counter) => ({ ...counter.attributes, ...counter.counters, ...counter.key }));
  await batchWrite([...items, ...counterItems].map((Item) => ({ PutRequest: { Item } })));
  process.stderr.write(`bench: experiment of ${count} assignments: ${counterItems.length} counter items\n`);
  return { fixture, experiment, assignments: count };
}

interface RouteCost {
  readonly calls: number;
  readonly rcu: number;
  readonly exposures: number;
  readonly detail: string;
}

/** Calls and RCU per GET /experiments/{id}/results (after 2 warm-ups), and the exposures it reports. */
async function costOf(seeded: Seeded): Promise<RouteCost> {
  const invoke = routeInvoker(experimentsHandler, 'GET', `/api/v1/experiments/${seeded.experiment.id}/results`, seeded.fixture);
  const first = await invoke();
  if (first.statusCode !== 200) throw new Error(`GET results for ${seeded.assignments} assignments answered ${first.statusCode}: ${first.body.slice(0, 300)}`);
  const body = JSON.parse(first.body) as { data: { variants: { exposures: number }[] } };
  const exposures = body.data.variants.reduce((sum, variant) => sum + variant.exposures, 0);
  if (exposures !== seeded.assignments) throw new Error(`The results count ${exposures} exposures, not the ${seeded.assignments} assignments`);
  await invoke();
  await counted(async () => {
    for (let n = 0; n < REQUESTS; n += 1) {
      const response = await invoke();
      if (response.statusCode !== 200) throw new Error(`GET results answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
    }
  });
  const calls = [...tally.calls.values()].reduce((sum, n) => sum + n, 0) / REQUESTS;
  return { calls, rcu: tally.rcu / REQUESTS, exposures, detail: perUnit(REQUESTS) };
}

async function measure(small: Seeded, large: Seeded): Promise<string> {
  const a = await costOf(small);
  const b = await costOf(large);
  const calls = b.calls / a.calls;
  const rcu = b.rcu / a.rcu;
  const verdict = calls <= TARGET && rcu <= TARGET ? 'PASS' : 'ABOVE TARGET';
  const line = `COST of GET /api/v1/experiments/{id}/results at ${a.exposures} and ${b.exposures} assignments (${REQUESTS} requests each, after 2 warm-ups; calls include the key lookup and rate limit): calls ${a.calls.toFixed(2)} / ${b.calls.toFixed(2)}, RCU ${a.rcu.toFixed(2)} / ${b.rcu.toFixed(2)}: ratio calls ${calls.toFixed(2)}, RCU ${rcu.toFixed(2)} (target ≤ ${TARGET}): ${verdict} (at ${b.exposures}: ${b.detail})`;
  process.stderr.write(`bench: ${line}\n`);
  return line;
}

const notes: string[] = [
  `handler = GET /api/v1/experiments/{id}/results for the experiment of ${SIZES[1]} assignments; raw = the keyed request's calls as in the status scenario + the experiment's consistent GetItem + the Query of its variant counters (eventually consistent, as readVariantCounts sends it)`,
  'the data: every assignment item written; the counters summed in memory from the real projections over them (see the scenario file)',
];
let seeded: { small: Seeded; large: Seeded } | undefined;

export const scenario: Scenario = {
  name: `experiment results: GET /api/v1/experiments/{id}/results at ${SIZES[0]} and ${SIZES[1]} assignments (cost ratio target ≤ ${TARGET})`,
  notes,

  async prepare(fixture) {
    installCallTally();
    if (seeded === undefined) {
      const started = Date.now();
      seeded = { small: await seedExperiment(SIZES[0], fixture.merchants), large: await seedExperiment(SIZES[1], fixture.merchants) };
      process.stderr.write(`bench: experiments seeded in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
      notes.push(await measure(seeded.small, seeded.large));
    }
    const { fixture: large, experiment } = seeded.large;
    const path = `/api/v1/experiments/${experiment.id}/results`;
    const invoke = routeInvoker(experimentsHandler, 'GET', path, large);
    const keyAndRateLimit = rawKeyAndRateLimit(large, 'read');
    const body = experimentBodyOf(experiment.id) as string;
    return {
      handler: expectingStatus(invoke, `GET ${path}`),
      async raw() {
        await keyAndRateLimit();
        await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: experimentKeys.experiment(large.merchantId, body), ConsistentRead: true }));
        await documentClient.send(
          new QueryCommand({ TableName: env.TABLE_NAME, ...queries.partitionPrefix(experimentKeys.variantCountersPrefix(large.merchantId, body)) }),
        );
      },
    };
  },
};
