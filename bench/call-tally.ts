import { AsyncLocalStorage } from 'node:async_hooks';
import { dynamo } from '#data/client';

/**
 * Calls and reported capacity units of the functions' DynamoDB client while `counting` is set:
 * an SDK middleware of its own, beside the bench meter's (capacity.ts), for measurements that run
 * many requests at once (a queue drain, a run of the retry executor) rather than one labelled
 * request at a time.
 *
 * Calls made inside `asConsumer` (the table-stream consumer run beside a measurement, see
 * stream-consumer.ts) go to `consumer` instead of `tally`, so that what the writers cost and what
 * the consumer costs are told apart. Each side also counts its cancelled transactions:
 * `conflicts` (TransactionCanceledException with a TransactionConflict reason: another
 * transaction held one of its items) and `conditionFailures` (cancelled on a condition, e.g. a
 * version read before another writer's commit); the functions retry both (data/transact.ts).
 */
export interface Tally {
  calls: Map<string, number>;
  rcu: number;
  wcu: number;
  conflicts: number;
  conditionFailures: number;
}

const emptyTally = (): Tally => ({ calls: new Map(), rcu: 0, wcu: 0, conflicts: 0, conditionFailures: 0 });

export const tally: Tally & { counting: boolean } = { counting: false, ...emptyTally() };
/** What the table-stream consumer's calls cost while `tally.counting` (see `asConsumer`). */
export const consumerTally: Tally = emptyTally();
const READS = new Set(['GetItemCommand', 'QueryCommand', 'BatchGetItemCommand', 'ScanCommand', 'TransactGetItemsCommand']);
let installed = false;
const consumerContext = new AsyncLocalStorage<true>();

/** Runs `work` as the table-stream consumer: its DynamoDB calls are tallied in `consumerTally`. */
export const asConsumer = <T>(work: () => Promise<T>): Promise<T> => consumerContext.run(true, work);

function resetTally(target: Tally): void {
  target.calls.clear();
  target.rcu = 0;
  target.wcu = 0;
  target.conflicts = 0;
  target.conditionFailures = 0;
}

function unitsOf(consumed: unknown): number {
  return (Array.isArray(consumed) ? consumed : [consumed]).reduce(
    (sum: number, c) => sum + Number((c as { CapacityUnits?: number } | undefined)?.CapacityUnits ?? 0),
    0,
  );
}

export function installCallTally(): void {
  if (installed) return;
  installed = true;
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const input = { ...(args.input as Record<string, unknown>), ReturnConsumedCapacity: 'TOTAL' };
      const target = consumerContext.getStore() === true ? consumerTally : tally;
      const name = String(context.commandName ?? 'Unknown');
      try {
        const result = await next({ ...args, input });
        if (tally.counting) {
          target.calls.set(name, (target.calls.get(name) ?? 0) + 1);
          const units = unitsOf((result.output as { ConsumedCapacity?: unknown }).ConsumedCapacity);
          if (READS.has(name)) target.rcu += units;
          else target.wcu += units;
        }
        return result;
      } catch (error) {
        if (tally.counting) {
          target.calls.set(name, (target.calls.get(name) ?? 0) + 1);
          const reasons = (error as { name?: string; CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
          if ((error as Error).name === 'TransactionCanceledException') {
            if (reasons.some((reason) => reason.Code === 'TransactionConflict')) target.conflicts += 1;
            else if (reasons.some((reason) => reason.Code === 'ConditionalCheckFailed')) target.conditionFailures += 1;
          }
        }
        throw error;
      }
    },
    { step: 'initialize', priority: 'low', name: 'benchCallTally' },
  );
}

/** Runs `work` with the tallies reset and counting; its result and the seconds it took. */
export async function counted<T>(work: () => Promise<T>): Promise<{ result: T; seconds: number }> {
  resetTally(tally);
  resetTally(consumerTally);
  tally.counting = true;
  const started = process.hrtime.bigint();
  try {
    const result = await work();
    return { result, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
  } finally {
    tally.counting = false;
  }
}

/** `GetItem 2.00, TransactWriteItems 2.00, …; RCU x, WCU y` per unit of work (of the writers, or of `of`). */
export function perUnit(units: number, of: Tally = tally): string {
  const calls = [...of.calls.entries()].map(([name, n]) => `${name.replace(/Command$/, '')} ${(n / units).toFixed(2)}`).join(', ');
  return `${calls}; RCU ${(of.rcu / units).toFixed(2)}, WCU ${(of.wcu / units).toFixed(2)} (as DynamoDB Local reported them)`;
}
