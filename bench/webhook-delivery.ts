/**
 * `npm run bench -- webhook-delivery` (issue 13, "Performance"): the outbound webhooks' delivery
 * path on the local stack, from the outbox item to the receiver: the table stream, the dispatcher
 * (functions/consumers/outbound-dispatch.ts), the outbound-deliveries queue and its consumer
 * (functions/consumers/outbound-deliveries.ts), the signed HTTP request. Three measurements:
 *
 * 1. first-attempt latency (receiver arrival − the event's `created_at`) over 1,000 events at a
 *    steady rate and as one burst, with the local runtime in background mode; target p99 ≤ 5 s;
 * 2. DynamoDB calls and capacity units of dispatch + delivery per delivery with 10 and with
 *    ~1,000 endpoints in the table (target: ratio ≤ 1.1), and for a merchant with 1 vs 16;
 * 3. a slow receiver (one of a merchant's 4 endpoints hangs until the 15 s cut): the other
 *    three's p99 vs a run where it answers (target: ratio ≤ 1.5 and p99 ≤ 5 s).
 *
 * Nothing from functions/ is imported at the top: the environment (the secret box's key,
 * loopback receivers allowed) is set first, in `benchWebhookDelivery`. See bench/README.md,
 * "Webhook delivery".
 */
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { LocalRuntime } from '#lib/local/local-runtime';
import { CapacityMeter, type Usage } from './capacity';
import { quantile } from './measure';
import { type CpuSample, cpuNow, cpuSince } from './process-cpu';
import { BenchReceivers } from './webhook-receivers';

const LATENCY_TARGET_MS = 5_000;
const COST_RATIO_TARGET = 1.1;
const SLOW_RATIO_TARGET = 1.5;

const numberFrom = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};

/** The run's sizes; the defaults are the brief's (1,000 events at 50/s), the variables for quicker runs. */
const CONFIG = {
  events: numberFrom('BENCH_WEBHOOK_EVENTS', 1_000),
  rate: numberFrom('BENCH_WEBHOOK_RATE', 50),
  /** Merchants the latency events are spread over, each with one endpoint. */
  latencyMerchants: numberFrom('BENCH_WEBHOOK_MERCHANTS', 20),
  /** Concurrent writers of the burst (as many service invocations writing at once). */
  burstWriters: numberFrom('BENCH_WEBHOOK_BURST_WRITERS', 16),
  costEvents: numberFrom('BENCH_WEBHOOK_COST_EVENTS', 50),
  slowEvents: numberFrom('BENCH_WEBHOOK_SLOW_EVENTS', 500),
  /** 4 deliveries an event: 50 deliveries/s, the rate of measurement 1. */
  slowRate: numberFrom('BENCH_WEBHOOK_SLOW_RATE', 12.5),
};

/** 10 endpoints in the table, then 10 + 62 × 16 = 1,002 (the per-merchant limit is 16). */
const MEASURED_ENDPOINTS = 10;
const OTHER_MERCHANTS = 62;
const PER_MERCHANT_LIMIT = 16;
/** How long the receivers may wait for a phase's last first attempt before the bench fails. */
const ARRIVAL_TIMEOUT_MS = 300_000;

interface WrittenEvent {
  readonly merchantId: string;
  readonly id: string;
  /** Its `created_at`, in ms since the epoch. */
  readonly createdAt: number;
  /** The outbox transaction's own time. */
  readonly ms: number;
}

/**
 * Where a run's time went: from the event item's `dispatched_at` (set by the dispatcher's claim),
 * and the CPU of DynamoDB Local and of this process (functions, SDK, receivers) per delivery,
 * from the first write to the last first attempt.
 */
interface Stages {
  readonly seconds: number;
  readonly cpu_dynamo_local_ms_per_delivery: number | null;
  readonly cpu_node_ms_per_delivery: number;
  readonly event_to_dispatch_p50_ms: number;
  readonly event_to_dispatch_p99_ms: number;
  readonly dispatch_to_arrival_p50_ms: number;
  readonly dispatch_to_arrival_p99_ms: number;
}

interface LatencySummary {
  readonly deliveries: number;
  readonly p50_ms: number;
  readonly p95_ms: number;
  readonly p99_ms: number;
  readonly max_ms: number;
}

export interface LatencyRun extends LatencySummary, Stages {
  readonly mode: string;
  readonly events: number;
  /** Seconds the writes took (the rate actually achieved is events / this). */
  readonly write_seconds: number;
  /** p99 of one outbox transaction's own time (the write, before the event exists). */
  readonly write_p99_ms: number;
  readonly repeats: number;
  readonly verdict: 'PASS' | 'ABOVE TARGET';
}

export interface CostRow {
  readonly case: string;
  readonly endpoints_in_table: number;
  readonly merchant_endpoints: number;
  readonly events: number;
  readonly deliveries: number;
  /** Per delivery: dispatch (the stream consumer), delivery (the queue consumer), and both. */
  readonly dispatch: PerDelivery;
  readonly delivery: PerDelivery;
  readonly total: PerDelivery;
}

interface PerDelivery {
  readonly calls: number;
  readonly rcu: number;
  readonly wcu: number;
  readonly calls_by_kind: Record<string, number>;
}

export interface SlowRun extends LatencySummary, Stages {
  readonly run: 'all answer' | 'one hangs';
  readonly events: number;
  /** First attempts that reached the fourth endpoint (and, in "one hangs", were left hanging). */
  readonly fourth_endpoint_arrivals: number;
}

export interface WebhookBenchReport {
  readonly generated_at: string;
  readonly machine: { cpus: number; node: string; platform: string; loadavg_start: number[]; loadavg_end: number[] };
  readonly config: typeof CONFIG;
  readonly signature_failures: number;
  readonly latency: { readonly target_p99_ms: number; readonly runs: LatencyRun[] };
  readonly cost: {
    readonly target_ratio: number;
    readonly rows: CostRow[];
    readonly ratio_1000_over_10: { calls: number; rcu: number; wcu: number; verdict: 'PASS' | 'ABOVE TARGET' };
  };
  readonly slow_receiver: {
    readonly target_ratio: number;
    /** Each kind's blocks together: what the ratio compares. */
    readonly pooled: { readonly all_answer: LatencySummary; readonly one_hangs: LatencySummary };
    readonly runs: SlowRun[];
    readonly ratio_p99: number;
    readonly verdict: 'PASS' | 'ABOVE TARGET';
  };
  readonly seconds: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (line: string): void => {
  process.stderr.write(`bench: webhook-delivery: ${line}\n`);
};

function summarise(latencies: readonly number[]): LatencySummary {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    deliveries: sorted.length,
    p50_ms: quantile(sorted, 0.5),
    p95_ms: quantile(sorted, 0.95),
    p99_ms: quantile(sorted, 0.99),
    max_ms: sorted.at(-1) ?? Number.NaN,
  };
}

/** Runs `work` for each index with at most `limit` at once. */
async function pool(count: number, limit: number, work: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, count) }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

/** The mode: sets the environment the delivery path needs, then measures (the bench's DynamoDB Local is already up). */
export async function benchWebhookDelivery(): Promise<WebhookBenchReport> {
  Object.assign(process.env, {
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    SECRET_BOX_DRIVER: 'local',
    SECRET_BOX_KEY: randomBytes(32).toString('base64'),
  });
  const started = Date.now();
  const loadStart = loadavg();
  const { GetCommand, TransactWriteCommand } = await import('@aws-sdk/lib-dynamodb');
  const { env } = await import('#shared/env');
  const { idBody } = await import('#core/ids');
  const { retryKeys } = await import('#data/keys');
  const { dynamo, documentClient } = await import('#data/client');
  const { createMerchant } = await import('#data/merchant-repository');
  const { outboundEventItem } = await import('#data/outbound-event-repository');
  const { catalogueEntry, namesOf } = await import('#core/webhooks/events');
  const { registerEndpoint } = await import('#services/webhook-endpoints');
  const { startLocalRuntime } = await import('#lib/local/local-runtime');

  const meter = new CapacityMeter(dynamo);
  const receivers = await BenchReceivers.start();
  const recovered = catalogueEntry('recovery.succeeded');
  if (recovered === undefined) throw new Error('recovery.succeeded is not catalogued');
  const types = namesOf(recovered);
  let eventSerial = 0;
  let signatureFailures = 0;

  /**
   * A run: its events (ids noted before each write is sent, so that a delivery never arrives
   * before its id is known) and the receivers counting only their deliveries.
   */
  const startRun = () => {
    const ids = new Set<string>();
    const written: WrittenEvent[] = [];
    receivers.reset(ids);
    const cpu = cpuNow(env.DYNAMODB_ENDPOINT as string);
    const begun = performance.now();
    /** One outbox item, written in a transaction as the service writes it (a recovered payment's event); its own time in ms. */
    const write = async (merchantId: string): Promise<number> => {
      const serial = eventSerial++;
      const object = { ...recovered.sampleObject(), payment_id: `pe_bench${String(serial).padStart(8, '0')}` };
      const sent = performance.now();
      const put = outboundEventItem(merchantId, `cust_bench${serial % 500}`, types, object, new Date());
      const id = String(put.Put?.Item?.id);
      ids.add(id);
      await documentClient.send(new TransactWriteCommand({ TransactItems: [put] }));
      const ms = performance.now() - sent;
      written.push({ merchantId, id, createdAt: Date.parse(String(put.Put?.Item?.created_at)), ms });
      return ms;
    };
    /** Waits for `count` first attempts of the run's events; signatures checked. */
    const arrived = async (count: number): Promise<void> => {
      await receivers.waitFor(count, ARRIVAL_TIMEOUT_MS);
      signatureFailures += receivers.signatureFailures;
      if (receivers.signatureFailures > 0) throw new Error(`${receivers.signatureFailures} deliveries failed standardwebhooks verification`);
    };
    return { write, arrived, written, cpu, begun };
  };

  /** Where the time went: event → dispatched (the stream and the dispatcher's claim), dispatched → first attempt at the receiver. */
  const stagesOf = async (
    run: { readonly written: readonly WrittenEvent[]; readonly cpu: CpuSample; readonly begun: number },
    deliveries: number,
    paths?: ReadonlySet<number>,
  ): Promise<Stages> => {
    const seconds = (performance.now() - run.begun) / 1000;
    const cpu = cpuSince(run.cpu, env.DYNAMODB_ENDPOINT as string);
    const written = run.written;
    const dispatchedAt = new Map<string, number>();
    const toDispatch: number[] = [];
    await pool(written.length, 8, async (index) => {
      const event = written[index] as WrittenEvent;
      const { Item } = await documentClient.send(
        new GetCommand({ TableName: env.TABLE_NAME, Key: retryKeys.outboundEvent(event.merchantId, idBody(event.id, 'evt') as string), ConsistentRead: true }),
      );
      if (typeof Item?.dispatched_at !== 'string') return;
      dispatchedAt.set(event.id, Date.parse(Item.dispatched_at));
      toDispatch.push(Date.parse(Item.dispatched_at) - event.createdAt);
    });
    const arrivals = receivers.arrivals().filter((arrival) => paths === undefined || paths.has(arrival.endpoint));
    const toArrival = arrivals.map((arrival) => arrival.at - (dispatchedAt.get(arrival.webhookId) ?? Number.NaN));
    const p = (values: number[], q: number) =>
      quantile(
        values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b),
        q,
      );
    return {
      seconds,
      cpu_dynamo_local_ms_per_delivery: cpu.dynamoLocal === undefined ? null : (cpu.dynamoLocal * 1000) / deliveries,
      cpu_node_ms_per_delivery: (cpu.node * 1000) / deliveries,
      event_to_dispatch_p50_ms: p(toDispatch, 0.5),
      event_to_dispatch_p99_ms: p(toDispatch, 0.99),
      dispatch_to_arrival_p50_ms: p(toArrival, 0.5),
      dispatch_to_arrival_p99_ms: p(toArrival, 0.99),
    };
  };

  /** A merchant with `count` endpoints on the receivers (registered through the service, as the API does); their path numbers. */
  const merchantWithEndpoints = async (name: string, count: number): Promise<{ id: string; paths: number[] }> => {
    const merchant = await createMerchant({ name });
    const paths: number[] = [];
    for (let n = 0; n < count; n += 1) {
      const { url, endpoint } = receivers.path();
      const { secret } = await registerEndpoint(merchant.id, { url });
      receivers.setSecret(endpoint, secret);
      paths.push(endpoint);
    }
    return { id: merchant.id, paths };
  };

  const latenciesOf = (paths?: ReadonlySet<number>): number[] =>
    receivers
      .arrivals()
      .filter((arrival) => paths === undefined || paths.has(arrival.endpoint))
      .map((arrival) => arrival.at - arrival.createdAt);

  let runtime: LocalRuntime | undefined;
  try {
    // 2. Cost per delivery: the runtime's stream and queue driven phase by phase, so that the meter
    // tells the dispatcher's calls from the deliveries' (nothing else runs meanwhile).
    runtime = await startLocalRuntime({ background: false });
    const costRuntime = runtime;
    const measured = await merchantWithEndpoints('Webhook bench: measured', MEASURED_ENDPOINTS);
    const cost = async (label: string, merchant: { id: string; paths: number[] }, endpointsInTable: number): Promise<CostRow> => {
      await costRuntime.stream.drain();
      await costRuntime.queues.drain();
      const run = startRun();
      for (let i = 0; i < CONFIG.costEvents; i += 1) await run.write(merchant.id);
      meter.reset();
      await meter.track('dispatch', async () => {
        await costRuntime.stream.drain();
      });
      await meter.track('delivery', async () => {
        await costRuntime.queues.drain();
      });
      const deliveries = CONFIG.costEvents * merchant.paths.length;
      await run.arrived(deliveries);
      if (receivers.firstArrivals !== deliveries) throw new Error(`${label}: ${receivers.firstArrivals} deliveries, expected ${deliveries}`);
      const dispatch = perDelivery(await meter.usage('dispatch'), deliveries);
      const delivery = perDelivery(await meter.usage('delivery'), deliveries);
      log(`cost measured: ${label}`);
      return {
        case: label,
        endpoints_in_table: endpointsInTable,
        merchant_endpoints: merchant.paths.length,
        events: CONFIG.costEvents,
        deliveries,
        dispatch,
        delivery,
        total: addPerDelivery(dispatch, delivery),
      };
    };
    const rows: CostRow[] = [];
    rows.push(await cost(`${MEASURED_ENDPOINTS} endpoints in the table`, measured, MEASURED_ENDPOINTS));
    const seeding = Date.now();
    const others: { id: string; paths: number[] }[] = [];
    await pool(OTHER_MERCHANTS, 8, async (index) => {
      others[index] = await merchantWithEndpoints(`Webhook bench: other ${index + 1}`, PER_MERCHANT_LIMIT);
    });
    const inTable = MEASURED_ENDPOINTS + OTHER_MERCHANTS * PER_MERCHANT_LIMIT;
    log(`${OTHER_MERCHANTS} merchants with ${PER_MERCHANT_LIMIT} endpoints each added in ${((Date.now() - seeding) / 1000).toFixed(1)} s`);
    rows.push(await cost(`${inTable.toLocaleString('en')} endpoints in the table`, measured, inTable));
    const single = await merchantWithEndpoints('Webhook bench: one endpoint', 1);
    rows.push(await cost('merchant with 1 endpoint', single, inTable + 1));
    rows.push(await cost(`merchant with ${PER_MERCHANT_LIMIT} endpoints`, others[0] as { id: string; paths: number[] }, inTable + 1));
    // Last: its retries (5 s later) stay on this runtime's queue, which is stopped before they are due.
    const failing = await merchantWithEndpoints('Webhook bench: failing endpoint', 1);
    receivers.setBehaviour(failing.paths[0] as number, 'fail');
    rows.push(await cost('merchant with 1 endpoint answering 500 (first attempt failed, retry queued)', failing, inTable + 2));
    await runtime.stop();
    runtime = undefined;
    const [small, large] = rows as [CostRow, CostRow];
    const ratio = (of: (row: CostRow) => number): number => of(large) / of(small);
    const costRatio = { calls: ratio((r) => r.total.calls), rcu: ratio((r) => r.total.rcu), wcu: ratio((r) => r.total.wcu) };

    // 1. and 3.: the runtime in background mode (queues polled every 200 ms, the stream every 250 ms), as `npm start` runs it.
    runtime = await startLocalRuntime({ background: true });
    await runtime.stream.drain();
    const latencyMerchants: string[] = [];
    for (let m = 0; m < CONFIG.latencyMerchants; m += 1) latencyMerchants.push((await merchantWithEndpoints(`Webhook bench: latency ${m + 1}`, 1)).id);
    const merchantOf = (i: number): string => latencyMerchants[i % latencyMerchants.length] as string;

    const latencyRuns: LatencyRun[] = [];
    const measureLatency = async (mode: string, writeAll: (write: (merchantId: string) => Promise<number>) => Promise<unknown>): Promise<LatencyRun> => {
      await sleep(1_000);
      const run = startRun();
      await writeAll(run.write);
      const writeSeconds = (performance.now() - run.begun) / 1000;
      await run.arrived(CONFIG.events);
      const summary = summarise(latenciesOf());
      const repeats = receivers.repeats;
      const stages = await stagesOf(run, CONFIG.events);
      log(`latency measured: ${mode}`);
      return {
        mode,
        events: CONFIG.events,
        write_seconds: writeSeconds,
        write_p99_ms: quantile(
          run.written.map((event) => event.ms).sort((a, b) => a - b),
          0.99,
        ),
        repeats,
        ...stages,
        ...summary,
        verdict: summary.p99_ms <= LATENCY_TARGET_MS ? 'PASS' : 'ABOVE TARGET',
      };
    };
    latencyRuns.push(await measureLatency(`steady ${CONFIG.rate}/s`, (write) => writeAtRate(CONFIG.events, CONFIG.rate, (i) => write(merchantOf(i)))));
    latencyRuns.push(
      await measureLatency(`burst (${CONFIG.burstWriters} writers)`, (write) =>
        pool(CONFIG.events, CONFIG.burstWriters, async (i) => {
          await write(merchantOf(i));
        }),
      ),
    );

    // 3. A slow receiver: the same merchant's 4 endpoints, the fourth answering, then hanging.
    const four = await merchantWithEndpoints('Webhook bench: slow receiver', 4);
    const [fourth] = four.paths.slice(3);
    const threePaths = new Set(four.paths.slice(0, 3));
    const pooled: Record<SlowRun['run'], number[]> = { 'all answer': [], 'one hangs': [] };
    const slowRun = async (run: SlowRun['run'], events: number): Promise<SlowRun> => {
      receivers.setBehaviour(fourth as number, run === 'one hangs' ? 'hang' : 'answer');
      await sleep(1_000);
      const writes = startRun();
      await writeAtRate(events, CONFIG.slowRate, () => writes.write(four.id));
      await writes.arrived(events * 4);
      const fourthArrivals = receivers.arrivals().filter((arrival) => arrival.endpoint === fourth).length;
      const latencies = latenciesOf(threePaths);
      pooled[run].push(...latencies);
      const stages = await stagesOf(writes, events * 4, threePaths);
      if (run === 'one hangs') {
        // The block's hanging work ends before the next block starts: every attempt 2 (5 s after the cut) made and cut too.
        const settled = Date.now();
        while (receivers.repeats < events || receivers.openRequests > 0) {
          if (Date.now() - settled > ARRIVAL_TIMEOUT_MS) throw new Error("The hanging endpoint's retries did not end");
          await sleep(250);
        }
        await sleep(1_000);
      }
      log(`slow receiver measured: ${run}`);
      return { run, events, fourth_endpoint_arrivals: fourthArrivals, ...stages, ...summarise(latencies) };
    };
    // In blocks ordered A B B A, half the events each, so that the machine's drift falls on both alike.
    const half = Math.ceil(CONFIG.slowEvents / 2);
    const slowRuns: SlowRun[] = [];
    for (const run of ['all answer', 'one hangs', 'one hangs', 'all answer'] as const) slowRuns.push(await slowRun(run, half));
    const answering = summarise(pooled['all answer']);
    const hanging = summarise(pooled['one hangs']);
    const slowRatio = hanging.p99_ms / answering.p99_ms;
    // The hanging requests are cut at 15 s; stopping the runtime waits for their batches.
    await runtime.stop();
    runtime = undefined;

    return {
      generated_at: new Date().toISOString(),
      machine: {
        cpus: cpus().length,
        node: process.version,
        platform: `${process.platform}-${process.arch}`,
        loadavg_start: loadStart,
        loadavg_end: loadavg(),
      },
      config: CONFIG,
      signature_failures: signatureFailures,
      latency: { target_p99_ms: LATENCY_TARGET_MS, runs: latencyRuns },
      cost: {
        target_ratio: COST_RATIO_TARGET,
        rows,
        ratio_1000_over_10: {
          ...costRatio,
          verdict: Math.max(costRatio.calls, costRatio.rcu, costRatio.wcu) <= COST_RATIO_TARGET ? 'PASS' : 'ABOVE TARGET',
        },
      },
      slow_receiver: {
        target_ratio: SLOW_RATIO_TARGET,
        runs: slowRuns,
        pooled: { all_answer: answering, one_hangs: hanging },
        ratio_p99: slowRatio,
        verdict: slowRatio <= SLOW_RATIO_TARGET && hanging.p99_ms <= LATENCY_TARGET_MS ? 'PASS' : 'ABOVE TARGET',
      },
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await runtime?.stop();
    await receivers.close();
    // The scenarios that may follow in the same run add a meter of their own.
    dynamo.middlewareStack.remove('benchCapacityMeter');
  }
}

/** Writes `count` events at `perSecond` (each on its own schedule, not waiting for the one before); each write's time in ms. */
async function writeAtRate(count: number, perSecond: number, write: (index: number) => Promise<number>): Promise<number[]> {
  const begun = performance.now();
  const writes: Promise<number>[] = [];
  for (let i = 0; i < count; i += 1) {
    const wait = begun + (i * 1000) / perSecond - performance.now();
    if (wait > 0) await sleep(wait);
    writes.push(write(i));
  }
  return Promise.all(writes);
}

function perDelivery(usage: Usage, deliveries: number): PerDelivery {
  const capacity = usage.reported ?? usage.by_rules;
  if (capacity === null) throw new Error('DynamoDB Local reported no capacity for the webhook delivery path');
  // One tracked request per phase: its figures are the phase's totals.
  const per = (n: number): number => (n * usage.requests) / deliveries;
  return {
    calls: per(usage.calls_total_per_request),
    rcu: per(capacity.rcu_per_request),
    wcu: per(capacity.wcu_per_request),
    calls_by_kind: Object.fromEntries(Object.entries(usage.calls_per_request).map(([kind, n]) => [kind, per(n)])),
  };
}

function addPerDelivery(a: PerDelivery, b: PerDelivery): PerDelivery {
  const kinds: Record<string, number> = { ...a.calls_by_kind };
  for (const [kind, n] of Object.entries(b.calls_by_kind)) kinds[kind] = (kinds[kind] ?? 0) + n;
  return { calls: a.calls + b.calls, rcu: a.rcu + b.rcu, wcu: a.wcu + b.wcu, calls_by_kind: kinds };
}

const ms = (value: number): string => (value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(0)} ms`);
const n2 = (value: number): string => value.toFixed(2);
const stages = (run: Stages): string =>
  `${ms(run.event_to_dispatch_p50_ms)}, ${ms(run.event_to_dispatch_p99_ms)} | ${ms(run.dispatch_to_arrival_p50_ms)}, ${ms(run.dispatch_to_arrival_p99_ms)} | ${run.seconds.toFixed(1)} s | ${run.cpu_dynamo_local_ms_per_delivery === null ? 'n/a' : run.cpu_dynamo_local_ms_per_delivery.toFixed(1)}, ${run.cpu_node_ms_per_delivery.toFixed(1)} ms`;
const STAGE_HEADER = 'event→dispatch p50, p99 | dispatch→receiver p50, p99 | first write to last arrival | CPU per delivery: DynamoDB Local, node';

export function formatWebhookDelivery(report: WebhookBenchReport): string {
  const { latency, cost, slow_receiver: slow } = report;
  const lines = [
    `Webhook delivery (issue 13) on ${report.machine.cpus} CPUs, load ${report.machine.loadavg_start.map(n2).join(' ')} at the start; signature failures: ${report.signature_failures}`,
    '',
    `1. First-attempt latency (receiver arrival - event created_at), ${CONFIG.latencyMerchants} merchants with 1 endpoint each; target p99 <= ${ms(latency.target_p99_ms)}`,
    '',
    `| events | writes took | write p99 | deliveries | p50 | p95 | p99 | max | ${STAGE_HEADER} | repeats | verdict |`,
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...latency.runs.map(
      (run) =>
        `| ${run.events} ${run.mode} | ${run.write_seconds.toFixed(1)} s | ${ms(run.write_p99_ms)} | ${run.deliveries} | ${ms(run.p50_ms)} | ${ms(run.p95_ms)} | ${ms(run.p99_ms)} | ${ms(run.max_ms)} | ${stages(run)} | ${run.repeats} | ${run.verdict} |`,
    ),
    '',
    `2. Dispatch + delivery per delivery (capacity as DynamoDB Local reported it); target ratio ~1,000/10 endpoints <= ${cost.target_ratio}`,
    '',
    '| case | deliveries | dispatch calls, RCU, WCU | delivery calls, RCU, WCU | total calls, RCU, WCU |',
    '|---|---|---|---|---|',
    ...cost.rows.map(
      (row) =>
        `| ${row.case} | ${row.deliveries} | ${n2(row.dispatch.calls)}, ${n2(row.dispatch.rcu)}, ${n2(row.dispatch.wcu)} | ${n2(row.delivery.calls)}, ${n2(row.delivery.rcu)}, ${n2(row.delivery.wcu)} | ${n2(row.total.calls)}, ${n2(row.total.rcu)}, ${n2(row.total.wcu)} |`,
    ),
    '',
    `ratio ~1,000/10 endpoints: calls ${n2(cost.ratio_1000_over_10.calls)}, RCU ${n2(cost.ratio_1000_over_10.rcu)}, WCU ${n2(cost.ratio_1000_over_10.wcu)}: ${cost.ratio_1000_over_10.verdict}`,
    `calls per delivery (${cost.rows[0]?.case}): ${Object.entries(cost.rows[0]?.total.calls_by_kind ?? {})
      .map(([kind, n]) => `${kind} ${n2(n)}`)
      .join(', ')}`,
    '',
    `3. Slow receiver: 4 endpoints of one merchant, the fourth hanging until the 15 s cut; latency of the other three, in blocks all answer, one hangs, one hangs, all answer; target ratio <= ${slow.target_ratio} and p99 <= ${ms(latency.target_p99_ms)}`,
    '',
    `| run | events | deliveries (3 endpoints) | 4th endpoint reached | p50 | p95 | p99 | max | ${STAGE_HEADER} |`,
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...slow.runs.map(
      (run) =>
        `| ${run.run} | ${run.events} at ${CONFIG.slowRate}/s | ${run.deliveries} | ${run.fourth_endpoint_arrivals} | ${ms(run.p50_ms)} | ${ms(run.p95_ms)} | ${ms(run.p99_ms)} | ${ms(run.max_ms)} | ${stages(run)} |`,
    ),
    '',
    `pooled: all answer p50 ${ms(slow.pooled.all_answer.p50_ms)}, p99 ${ms(slow.pooled.all_answer.p99_ms)}; one hangs p50 ${ms(slow.pooled.one_hangs.p50_ms)}, p99 ${ms(slow.pooled.one_hangs.p99_ms)}`,
    `p99 one hangs / all answer: ${n2(slow.ratio_p99)}: ${slow.verdict}`,
    '',
    `whole mode ${report.seconds.toFixed(0)} s; load ${report.machine.loadavg_end.map(n2).join(' ')} at the end`,
  ];
  return lines.join('\n');
}
