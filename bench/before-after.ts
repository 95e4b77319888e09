import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import { dynamo } from '#data/client';
import { env } from '#shared/env';
import { type DynamoLocal, startDynamoLocal } from '#lib/local/dynamo-local';
import { deleteTable, ensureTable } from '#lib/local/dynamo-table';
import { consumerTally, counted, installCallTally, perUnit, tally } from './call-tally';
import { installOldWritePath, oldWritePath } from './old-write-path';
import { cpuNow, cpuSince } from './process-cpu';
import { ConsumerLoop, type ConsumerRun } from './stream-consumer';

/** Issue 12's target: after / before throughput. */
export const THROUGHPUT_TARGET = 3;
/**
 * The order of the blocks: alternated, so that drift of the machine falls on each alike. `deferred`
 * is "after" with the consumer started only once the writes have ended: the write path's own
 * throughput, and then the consumer's alone (BENCH_AB_DEFERRED=0 leaves it out).
 */
const ORDER = (
  process.env.BENCH_AB_DEFERRED === '0' ? ['before', 'after', 'before', 'after'] : ['before', 'after', 'deferred', 'before', 'after', 'deferred']
) as Mode[];
export type Mode = 'before' | 'after' | 'deferred';

/** What one block of a before/after measurement does, in a fresh table of its own (already `env.TABLE_NAME`). */
export interface BeforeAfterWork {
  /** e.g. `attempts`, `events` (per second is printed). */
  readonly unit: string;
  /** Units each block processes. */
  readonly count: number;
  /** Seeds what the block processes (not timed) and returns the timed work. */
  prepare(mode: Mode): Promise<() => Promise<void>>;
  /** After the counters are complete: throws unless they match what was written; a short line saying what was checked. */
  verify(mode: Mode): Promise<string>;
}

interface Block {
  readonly mode: Mode;
  readonly seconds: number;
  readonly conflicts: number;
  readonly conditionFailures: number;
  readonly perUnit: string;
  /** CPU seconds from the first write until the counters were complete: DynamoDB Local's (undefined off Linux) and this process's. */
  readonly cpu: { readonly dynamoLocal: number | undefined; readonly node: number };
  readonly consumer?: ConsumerRun & { readonly perRecord: string; readonly conflicts: number };
  readonly oldUpdates?: string;
  readonly verified: string;
}

/**
 * Issue 12's side-by-side throughput: the same work run four times, before, after, before, after,
 * each in a fresh table. "before" is today's code with the old write path put back by
 * old-write-path.ts (the counter Updates in every payment and customer transaction); "after" is
 * today's code as it is, with the table-stream consumer running beside it on the same DynamoDB
 * Local (stream-consumer.ts), which has then to finish: the lag from the last write until the
 * counters are complete is printed, and the counters are checked against what was written.
 */
/**
 * Points the functions' client (and its document client) at another DynamoDB Local until the
 * returned function is called. The SDK reads `config.endpoint` at each request.
 */
function pointClientAt(endpoint: string): () => void {
  const config = dynamo.config as unknown as { endpoint: () => Promise<unknown> };
  const saved = config.endpoint;
  const url = new URL(endpoint);
  config.endpoint = async () => ({ hostname: url.hostname, port: Number(url.port), protocol: url.protocol, path: '/', query: undefined });
  return () => {
    config.endpoint = saved;
  };
}

/**
 * Each block on a DynamoDB Local of its own (BENCH_AB_ISOLATE=0: all on the bench's). DynamoDB
 * Local gets slower as its streams hold more records (tables deleted or not; see
 * dynamo-local-profile.ts): on a shared one, each block would pay for the records of the blocks
 * before it, and the later blocks (after) would be charged the drift.
 */
const ISOLATE = process.env.BENCH_AB_ISOLATE !== '0';

export async function measureBeforeAfter(work: BeforeAfterWork): Promise<string[]> {
  installCallTally();
  installOldWritePath();
  const mutableEnv = env as { TABLE_NAME: string };
  const benchTable = mutableEnv.TABLE_NAME;
  const blocks: Block[] = [];
  for (const mode of ORDER) {
    const table = `recovery-bench-ab-${mode}-${randomBytes(3).toString('hex')}`;
    const local: DynamoLocal | undefined = ISOLATE ? await startDynamoLocal() : undefined;
    const endpoint = local?.endpoint ?? (env.DYNAMODB_ENDPOINT as string);
    const restoreClient = local === undefined ? () => undefined : pointClientAt(local.endpoint);
    await ensureTable(dynamo, table);
    mutableEnv.TABLE_NAME = table;
    oldWritePath.reset();
    oldWritePath.enabled = mode === 'before';
    const consumer = mode === 'before' ? undefined : new ConsumerLoop(table, endpoint);
    try {
      const run = await work.prepare(mode);
      // The seeded items are in the stream too: applied before the clock starts, so the consumer's run is the measured writes'.
      await consumer?.catchUp();
      let writes = 0;
      let consumerRun: ConsumerRun | undefined;
      let cpu: Block['cpu'] = { dynamoLocal: undefined, node: 0 };
      await counted(async () => {
        const cpuStart = cpuNow(endpoint);
        if (mode === 'after') consumer?.start();
        const started = process.hrtime.bigint();
        await run();
        writes = Number(process.hrtime.bigint() - started) / 1e9;
        if (mode === 'deferred') consumer?.start();
        consumerRun = await consumer?.finish();
        cpu = cpuSince(cpuStart, endpoint);
      });
      oldWritePath.enabled = false;
      const verified = await work.verify(mode);
      blocks.push({
        mode,
        seconds: writes,
        conflicts: tally.conflicts,
        conditionFailures: tally.conditionFailures,
        perUnit: perUnit(work.count),
        cpu,
        ...(consumerRun === undefined
          ? {
              oldUpdates: `old counter Updates put back in ${oldWritePath.transactions} transactions (COUNT#PAY ${oldWritePath.added['COUNT#PAY']}, COUNT#CUST ${oldWritePath.added['COUNT#CUST']}, COUNT#MONTH ${oldWritePath.added['COUNT#MONTH']})`,
            }
          : { consumer: { ...consumerRun, perRecord: perUnit(Math.max(1, consumerRun.records), consumerTally), conflicts: consumerTally.conflicts } }),
        verified,
      });
      process.stderr.write(`bench: ${lineOf(work, blocks.at(-1) as Block, roundOf(blocks, blocks.length - 1))}\n`);
    } finally {
      oldWritePath.enabled = false;
      await consumer?.stop().catch(() => undefined);
      mutableEnv.TABLE_NAME = benchTable;
      if (local === undefined) await deleteTable(dynamo, table);
      else {
        restoreClient();
        await local.stop();
      }
    }
  }
  const rate = (mode: Mode): number => {
    const of = blocks.filter((block) => block.mode === mode);
    return (of.length * work.count) / of.reduce((sum, block) => sum + block.seconds, 0);
  };
  const ratio = rate('after') / rate('before');
  const deferred = blocks.some((block) => block.mode === 'deferred');
  const sum = (mode: Mode, figure: (block: Block) => number | undefined): number | undefined => {
    const values = blocks.filter((block) => block.mode === mode).map(figure);
    return values.some((value) => value === undefined) ? undefined : values.reduce((total: number, value) => total + (value as number), 0);
  };
  const perUnitMs = (mode: Mode, figure: (block: Block) => number | undefined): string => {
    const total = sum(mode, figure);
    const count = blocks.filter((block) => block.mode === mode).length * work.count;
    return total === undefined ? 'n/a' : `${((total * 1000) / count).toFixed(1)} ms`;
  };
  const unit = work.unit.replace(/s$/, '');
  const lines = [
    `THROUGHPUT before/after (${work.count} ${work.unit} a block, blocks ${ORDER.join(', ')}, each in a fresh table${ISOLATE ? ' on a DynamoDB Local of its own' : ''}, on ${cpus().length} cores): before ${rate('before').toFixed(1)} ${work.unit}/s, after ${rate('after').toFixed(1)} ${work.unit}/s: after/before ${ratio.toFixed(2)} (target ≥ ${THROUGHPUT_TARGET}): ${ratio >= THROUGHPUT_TARGET ? 'PASS' : 'BELOW TARGET'}`,
    ...(deferred
      ? [
          `the write path alone (deferred: the consumer started once the writes ended): ${rate('deferred').toFixed(1)} ${work.unit}/s, deferred/before ${(rate('deferred') / rate('before')).toFixed(2)}`,
        ]
      : []),
    `where the time goes, per ${unit} (before / after${deferred ? ' / deferred' : ''}; CPU until the counters were complete, the consumer's share included): TransactionConflict ${sum('before', (b) => b.conflicts)} / ${sum('after', (b) => b.conflicts)}${deferred ? ` / ${sum('deferred', (b) => b.conflicts)}` : ''} in all, ConditionalCheckFailed ${sum('before', (b) => b.conditionFailures)} / ${sum('after', (b) => b.conditionFailures)}${deferred ? ` / ${sum('deferred', (b) => b.conditionFailures)}` : ''}; CPU of DynamoDB Local ${perUnitMs('before', (b) => b.cpu.dynamoLocal)} / ${perUnitMs('after', (b) => b.cpu.dynamoLocal)}${deferred ? ` / ${perUnitMs('deferred', (b) => b.cpu.dynamoLocal)}` : ''}; CPU of node ${perUnitMs('before', (b) => b.cpu.node)} / ${perUnitMs('after', (b) => b.cpu.node)}${deferred ? ` / ${perUnitMs('deferred', (b) => b.cpu.node)}` : ''}; wall of the writes ${perUnitMs('before', (b) => b.seconds)} / ${perUnitMs('after', (b) => b.seconds)}${deferred ? ` / ${perUnitMs('deferred', (b) => b.seconds)}` : ''}`,
    ...blocks.map((block, index) => lineOf(work, block, roundOf(blocks, index))),
  ];
  return lines;
}

/** 1 for the first block of its mode, 2 for the second. */
const roundOf = (blocks: readonly Block[], index: number): number => blocks.slice(0, index + 1).filter((block) => block.mode === blocks[index]?.mode).length;

function lineOf(work: BeforeAfterWork, block: Block, index: number): string {
  const head = `${block.mode} #${index}: ${work.count} ${work.unit} in ${block.seconds.toFixed(1)} s = ${(work.count / block.seconds).toFixed(1)} ${work.unit}/s; cancelled transactions: ${block.conflicts} TransactionConflict, ${block.conditionFailures} ConditionalCheckFailed (each retried); per ${work.unit.replace(/s$/, '')}: ${block.perUnit}`;
  const tail =
    block.consumer === undefined
      ? `; ${block.oldUpdates ?? ''}`
      : `; table-stream consumer ${block.mode === 'after' ? 'beside the writes' : 'started when the writes ended'}: ${block.consumer.records} stream records in ${block.consumer.batches} batches, ${(block.consumer.records / block.consumer.seconds).toFixed(0)} records/s, counters complete ${block.consumer.lagSeconds.toFixed(1)} s after the last write, ${block.consumer.conflicts} TransactionConflict; per record: ${block.consumer.perRecord}`;
  const ms = (seconds: number | undefined): string => (seconds === undefined ? 'n/a' : `${((seconds * 1000) / work.count).toFixed(1)} ms`);
  const cpu = `; CPU per ${work.unit.replace(/s$/, '')} until the counters were complete: DynamoDB Local ${ms(block.cpu.dynamoLocal)}, node (functions, SDK${block.consumer === undefined ? '' : ', consumer'}) ${ms(block.cpu.node)}`;
  return `${head}${cpu}${tail}; ${block.verified}`;
}
