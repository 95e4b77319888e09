import { dynamo } from '#data/client';

/**
 * Calls and reported capacity units of the functions' DynamoDB client while `counting` is set:
 * an SDK middleware of its own, beside the bench meter's (capacity.ts), for measurements that run
 * many requests at once (a queue drain, a run of the retry executor) rather than one labelled
 * request at a time.
 */
export const tally = { counting: false, calls: new Map<string, number>(), rcu: 0, wcu: 0 };
const READS = new Set(['GetItemCommand', 'QueryCommand', 'BatchGetItemCommand', 'ScanCommand', 'TransactGetItemsCommand']);
let installed = false;

export function installCallTally(): void {
  if (installed) return;
  installed = true;
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const input = { ...(args.input as Record<string, unknown>), ReturnConsumedCapacity: 'TOTAL' };
      const result = await next({ ...args, input });
      if (tally.counting) {
        const name = String(context.commandName ?? 'Unknown');
        tally.calls.set(name, (tally.calls.get(name) ?? 0) + 1);
        const consumed = (result.output as { ConsumedCapacity?: unknown }).ConsumedCapacity;
        const units = (Array.isArray(consumed) ? consumed : [consumed]).reduce(
          (sum: number, c) => sum + Number((c as { CapacityUnits?: number } | undefined)?.CapacityUnits ?? 0),
          0,
        );
        if (READS.has(name)) tally.rcu += units;
        else tally.wcu += units;
      }
      return result;
    },
    { step: 'initialize', priority: 'low', name: 'benchCallTally' },
  );
}

/** Runs `work` with the tally reset and counting; its result and the seconds it took. */
export async function counted<T>(work: () => Promise<T>): Promise<{ result: T; seconds: number }> {
  tally.calls.clear();
  tally.rcu = 0;
  tally.wcu = 0;
  tally.counting = true;
  const started = process.hrtime.bigint();
  try {
    const result = await work();
    return { result, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
  } finally {
    tally.counting = false;
  }
}

/** `GetItem 2.00, TransactWriteItems 2.00, …; RCU x, WCU y` per unit of work. */
export function perUnit(units: number): string {
  const calls = [...tally.calls.entries()].map(([name, n]) => `${name.replace(/Command$/, '')} ${(n / units).toFixed(2)}`).join(', ');
  return `${calls}; RCU ${(tally.rcu / units).toFixed(2)}, WCU ${(tally.wcu / units).toFixed(2)} (as DynamoDB Local reported them)`;
}
