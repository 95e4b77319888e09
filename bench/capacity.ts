import { type AttributeValue, type DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';

/**
 * Counts the DynamoDB calls made while a labelled request runs and the capacity they consume.
 *
 * It is an SDK middleware added from the bench onto the functions' own client (so production
 * code is untouched): it asks every call for `ReturnConsumedCapacity: 'TOTAL'` and sums what
 * comes back. It also records the key of each single-item call so that `byRules` can compute the
 * same units from DynamoDB's published rules (item size = attribute names + values; strongly
 * consistent read 1 RCU per 4 KB, eventually consistent half that; write 1 WCU per 1 KB), which
 * is the fallback when a call comes back without ConsumedCapacity and a cross-check otherwise.
 */

const READ_OPERATIONS = new Set(['GetItem', 'Query', 'Scan', 'BatchGetItem', 'TransactGetItems', 'ExecuteStatement', 'BatchExecuteStatement']);
const SINGLE_ITEM_OPERATIONS = new Set(['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem']);

interface CallTally {
  readonly operation: string;
  /** The operation and the shape of the key it touched, e.g. `GetItem APIKEY#* / APIKEY` (printed without spaces). */
  readonly kind: string;
  readonly table: string;
  readonly consistent: boolean;
  readonly key: Record<string, AttributeValue> | undefined;
  count: number;
  reportedUnits: number;
  unreported: number;
}

export interface Usage {
  readonly requests: number;
  /** Calls per request by `<operation> <key shape>`. */
  readonly calls_per_request: Record<string, number>;
  readonly calls_total_per_request: number;
  /** As DynamoDB Local reported them; null when some call came back without ConsumedCapacity. */
  readonly reported: { readonly rcu_per_request: number; readonly wcu_per_request: number } | null;
  /** From the published rules and the sizes of the items touched; null when some call is not a single-item one. */
  readonly by_rules: { readonly rcu_per_request: number; readonly wcu_per_request: number } | null;
}

/** A key value with its ids, hashes and timestamps masked: `key:key_9xQ…:read#1763830260` becomes `key:*:read#*`. */
// Ids (uuids, time-ordered ids, hashes, numbers, IPv4 addresses) become `*`, so one access pattern is one line.
const shapeOf = (value: string): string =>
  value
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '*')
    .replace(/\b\d{1,3}(?:\.\d{1,3}){3}\b/g, '*')
    .replace(/[A-Za-z0-9_.+@-]{12,}|\d{6,}/g, '*');

/** The key as AttributeValues, whether the call was made through the document client or not. */
function keyOf(input: Record<string, unknown>): Record<string, AttributeValue> | undefined {
  const source = (input.Key ?? input.Item) as Record<string, unknown> | undefined;
  if (source === undefined) return undefined;
  const key: Record<string, AttributeValue> = {};
  for (const name of ['PK', 'SK']) {
    const value = source[name];
    if (typeof value === 'string') key[name] = { S: value };
    else if (typeof value === 'object' && value !== null && typeof (value as { S?: unknown }).S === 'string') key[name] = { S: (value as { S: string }).S };
  }
  return Object.keys(key).length === 0 ? undefined : key;
}

function unitsOf(consumed: unknown): number | undefined {
  if (consumed === undefined || consumed === null) return undefined;
  const list = (Array.isArray(consumed) ? consumed : [consumed]) as Array<{ CapacityUnits?: number }>;
  return list.reduce((sum, entry) => sum + (entry.CapacityUnits ?? 0), 0);
}

/** Approximate stored size of an item by DynamoDB's rules: names plus values, in bytes. */
export function itemSize(item: Record<string, AttributeValue>): number {
  let size = 0;
  for (const [name, value] of Object.entries(item)) size += Buffer.byteLength(name) + valueSize(value);
  return size;
}

function valueSize(value: AttributeValue): number {
  if (value.S !== undefined) return Buffer.byteLength(value.S);
  if (value.N !== undefined) return numberSize(value.N);
  if (value.B !== undefined) return value.B.length;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.SS !== undefined) return value.SS.reduce((sum, s) => sum + Buffer.byteLength(s), 0);
  if (value.NS !== undefined) return value.NS.reduce((sum, n) => sum + numberSize(n), 0);
  if (value.BS !== undefined) return value.BS.reduce((sum, b) => sum + b.length, 0);
  if (value.L !== undefined) return 3 + value.L.reduce((sum, element) => sum + 1 + valueSize(element), 0);
  if (value.M !== undefined) return 3 + Object.entries(value.M).reduce((sum, [name, element]) => sum + 1 + Buffer.byteLength(name) + valueSize(element), 0);
  return 0;
}

/** 1 byte per two significant digits, plus 1. */
function numberSize(n: string): number {
  const digits = n.replace(/^[-+]/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(1, digits.length) / 2) + 1;
}

function unitsByRules(operation: string, consistent: boolean, size: number): number {
  if (READ_OPERATIONS.has(operation)) return (consistent ? 1 : 0.5) * Math.max(1, Math.ceil(size / 4096));
  return Math.max(1, Math.ceil(size / 1024));
}

export class CapacityMeter {
  private label: string | undefined;
  private readonly tallies = new Map<string, Map<string, CallTally>>();
  private readonly requests = new Map<string, number>();

  constructor(private readonly client: DynamoDBClient) {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const input = { ...(args.input as Record<string, unknown>), ReturnConsumedCapacity: 'TOTAL' };
        const result = await next({ ...args, input });
        if (this.label !== undefined)
          this.record(this.label, String(context.commandName ?? 'Unknown'), input, (result.output as { ConsumedCapacity?: unknown }).ConsumedCapacity);
        return result;
      },
      { step: 'initialize', priority: 'low', name: 'benchCapacityMeter' },
    );
  }

  /** Runs one request under `label`: the calls it makes are counted for that label. */
  async track(label: string, request: () => Promise<void>): Promise<void> {
    this.label = label;
    try {
      await request();
    } finally {
      this.label = undefined;
      this.requests.set(label, (this.requests.get(label) ?? 0) + 1);
    }
  }

  reset(): void {
    this.tallies.clear();
    this.requests.clear();
  }

  private record(label: string, command: string, input: Record<string, unknown>, consumed: unknown): void {
    const operation = command.replace(/Command$/, '');
    const key = keyOf(input);
    const shape = key === undefined ? '' : ` ${shapeOf(key.PK?.S ?? '')}/${shapeOf(key.SK?.S ?? '')}`;
    const consistent = input.ConsistentRead === true;
    const id = `${operation}|${String(input.TableName)}|${consistent}|${JSON.stringify(key ?? null)}`;
    let byLabel = this.tallies.get(label);
    if (byLabel === undefined) this.tallies.set(label, (byLabel = new Map()));
    let tally = byLabel.get(id);
    if (tally === undefined) {
      tally = { operation, kind: `${operation}${shape}`, table: String(input.TableName), consistent, key, count: 0, reportedUnits: 0, unreported: 0 };
      byLabel.set(id, tally);
    }
    tally.count++;
    const units = unitsOf(consumed);
    if (units === undefined) tally.unreported++;
    else tally.reportedUnits += units;
  }

  /** Calls and capacity per request of a label since the last reset; reads the touched items once (uncounted) for the rules. */
  async usage(label: string): Promise<Usage> {
    const requests = this.requests.get(label) ?? 0;
    const tallies = [...(this.tallies.get(label)?.values() ?? [])];
    const per = (n: number): number => (requests === 0 ? 0 : n / requests);
    const calls: Record<string, number> = {};
    for (const tally of tallies) calls[tally.kind] = (calls[tally.kind] ?? 0) + per(tally.count);
    const split = (unitsOfTally: (tally: CallTally) => number) => ({
      rcu_per_request: per(tallies.filter((t) => READ_OPERATIONS.has(t.operation)).reduce((sum, t) => sum + unitsOfTally(t), 0)),
      wcu_per_request: per(tallies.filter((t) => !READ_OPERATIONS.has(t.operation)).reduce((sum, t) => sum + unitsOfTally(t), 0)),
    });
    const reported = tallies.every((t) => t.unreported === 0) ? split((t) => t.reportedUnits) : null;
    let byRules: Usage['by_rules'] = null;
    if (tallies.every((t) => SINGLE_ITEM_OPERATIONS.has(t.operation) && t.key !== undefined)) {
      const sizes = new Map<CallTally, number>();
      for (const tally of tallies) sizes.set(tally, await this.sizeOf(tally));
      // A write is charged on the larger of the item before and after; the item now is the after.
      byRules = split((t) => t.count * unitsByRules(t.operation, t.consistent, sizes.get(t) ?? 0));
    }
    return {
      requests,
      calls_per_request: calls,
      calls_total_per_request: Object.values(calls).reduce((sum, n) => sum + n, 0),
      reported,
      by_rules: byRules,
    };
  }

  private async sizeOf(tally: CallTally): Promise<number> {
    const { Item } = await this.client.send(new GetItemCommand({ TableName: tally.table, Key: tally.key, ConsistentRead: true }));
    return Item === undefined ? 0 : itemSize(Item);
  }
}
