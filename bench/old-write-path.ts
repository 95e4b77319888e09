import { monthOf } from '#core/recovery-goal';
import { dynamo } from '#data/client';
import { counterUpdate } from '#data/counter-update';
import { customerKeys, ENTITY, paymentKeys, recoveryCounterKeys } from '#data/keys';
import { paymentCounterNames } from '#data/projections/payment-counters';

/**
 * "Before" of issue 12's throughput comparison: the write path as it was until the counters moved
 * to the table-stream consumer, reproduced on today's code by an SDK middleware on the functions'
 * DynamoDB client (production code untouched, as capacity.ts).
 *
 * While `oldWritePath.enabled`, every TransactWriteItems that writes a payment item or a customer
 * item gets back the counter Updates the old code put in that same transaction (main before the
 * stream branch: `recordFailedPayment` and `changePayment` in data/payment-repository.ts,
 * `putCustomer` in data/customer-repository.ts, `periodCounterUpdates` in
 * data/recovery-period-counters.ts), with the same keys, the same expression and the same deltas:
 * - `COUNT#PAY` (`SET entity ADD <names>`): a new payment (its Put is conditioned on
 *   `attribute_not_exists(PK)`) adds 1 under each of its `paymentCounterNames`; a changed payment
 *   (conditioned on `version = :version`) moves from its old names to its new ones, and the Update
 *   is there only when some name changes (status, decline category or psp), as `counterDeltas`;
 * - `COUNT#MONTH#<month it failed in>`: a new payment adds `failed_count` 1 and
 *   `failed_amount_<currency>`; a payment becoming recovered adds `recovered_count` 1 and
 *   `recovered_amount_<currency>`; nothing otherwise;
 * - `COUNT#CUST`: a new customer adds `all` 1 (and `has_failed` 1 when it has an open payment); a
 *   customer gaining or losing its last open payment moves `has_failed` by ±1; nothing otherwise.
 *
 * The old deltas need the payment and the customer as they were read: the old code had them in
 * hand (`changePayment` reads the payment, and the customer when the status changes, with a
 * consistent GetItem). The middleware keeps the image each GetItem of a payment or customer
 * returns, by key and version, and takes the one the Put's `version = :version` condition names,
 * so it adds no call. A versioned Put whose read it did not see fails the bench (no guess).
 * A counter item the transaction already writes is left as it is (never two writes of one item).
 */
export const oldWritePath = {
  enabled: false,
  /** Transactions given old counter Updates, and the Updates added by counter item. */
  transactions: 0,
  added: { 'COUNT#PAY': 0, 'COUNT#CUST': 0, 'COUNT#MONTH': 0 } as Record<'COUNT#PAY' | 'COUNT#CUST' | 'COUNT#MONTH', number>,
  reset(): void {
    this.transactions = 0;
    for (const name of Object.keys(this.added) as (keyof typeof this.added)[]) this.added[name] = 0;
    images.clear();
  },
};

type Item = Record<string, unknown>;
type TransactItem = { Put?: { Item?: Item; ConditionExpression?: string; ExpressionAttributeValues?: Item }; Update?: { Key?: Item } } & Item;

/** Images of payments and customers as GetItem returned them: `<PK>|<SK>|<version>`. */
const images = new Map<string, Item>();
const imageId = (item: Item, version: unknown): string => `${String(item.PK)}|${String(item.SK)}|${String(version)}`;

/** The counter Update the old write path carried (data/counter-update.ts), on the intercepted transaction's table. */
const oldCounterUpdate = (tableName: unknown, key: { PK: string; SK: string }, deltas: Record<string, number>): TransactItem => {
  const { Update } = counterUpdate(key, deltas);
  return { Update: { ...Update, TableName: tableName } } as TransactItem;
};

/** The image the Put replaces: none for a new item, else the one read at the version its condition names. */
function beforeOf(put: NonNullable<TransactItem['Put']>): Item | undefined {
  if (put.ConditionExpression === 'attribute_not_exists(PK)') return undefined;
  const version = put.ExpressionAttributeValues?.[':version'];
  const item = put.Item as Item;
  const before = images.get(imageId(item, version));
  if (before === undefined) {
    throw new Error(
      `bench old write path: a Put of ${String(item.PK)}/${String(item.SK)} (condition ${String(put.ConditionExpression)}) whose previous image was not read by GetItem; the old counters cannot be reproduced`,
    );
  }
  return before;
}

function paymentDeltas(before: Item | undefined, after: Item): Record<string, number> {
  const deltas: Record<string, number> = {};
  const names = (p: Item): string[] => paymentCounterNames(p as unknown as Parameters<typeof paymentCounterNames>[0]);
  for (const name of before === undefined ? [] : names(before)) deltas[name] = (deltas[name] ?? 0) - 1;
  for (const name of names(after)) deltas[name] = (deltas[name] ?? 0) + 1;
  for (const [name, delta] of Object.entries(deltas)) if (delta === 0) delete deltas[name];
  return deltas;
}

function periodDeltas(before: Item | undefined, after: Item): Record<string, number> {
  const deltas: Record<string, number> = {};
  if (before === undefined) {
    deltas.failed_count = 1;
    deltas[`failed_amount_${String(after.currency)}`] = Number(after.amount);
  }
  if (before?.status !== 'recovered' && after.status === 'recovered') {
    deltas.recovered_count = 1;
    deltas[`recovered_amount_${String(after.currency)}`] = Number(after.amount);
  }
  return deltas;
}

function customerDeltas(before: Item | undefined, after: Item): Record<string, number> {
  const wasOpen = Number(before?.open_payments ?? 0) > 0;
  const open = Number(after.open_payments ?? 0) > 0;
  const deltas: Record<string, number> = {};
  if (before === undefined) deltas.all = 1;
  if (wasOpen !== open) deltas.has_failed = open ? 1 : -1;
  return deltas;
}

/** The old counter Updates of one transaction (document-client form), or none. */
function oldCounterItems(items: readonly TransactItem[]): { items: TransactItem[]; kinds: (keyof typeof oldWritePath.added)[] } {
  const written = new Set(
    items.map((item) => ((item.Update?.Key ?? item.Put?.Item) as Item | undefined) ?? {}).map((key) => `${String(key.PK)}|${String(key.SK)}`),
  );
  const added: TransactItem[] = [];
  const kinds: (keyof typeof oldWritePath.added)[] = [];
  const add = (kind: keyof typeof oldWritePath.added, table: unknown, key: { PK: string; SK: string }, deltas: Record<string, number>): void => {
    if (Object.keys(deltas).length === 0 || written.has(`${key.PK}|${key.SK}`)) return;
    written.add(`${key.PK}|${key.SK}`);
    added.push(oldCounterUpdate(table, key, deltas));
    kinds.push(kind);
  };
  for (const item of items) {
    const put = item.Put;
    const after = put?.Item;
    if (put === undefined || after === undefined || typeof after.PK !== 'string' || typeof after.merchant_id !== 'string') continue;
    const table = (put as Item).TableName;
    if (after.entity === ENTITY.payment) {
      const before = beforeOf(put);
      add('COUNT#PAY', table, paymentKeys.counters(after.merchant_id), paymentDeltas(before, after));
      add('COUNT#MONTH', table, recoveryCounterKeys.month(after.merchant_id, monthOf(String(after.created_at))), periodDeltas(before, after));
    } else if (after.entity === ENTITY.customer) {
      add('COUNT#CUST', table, customerKeys.counters(after.merchant_id), customerDeltas(beforeOf(put), after));
    }
  }
  return { items: added, kinds };
}

let installed = false;

/** Adds the middleware (once); it does nothing until `oldWritePath.enabled` is set. */
export function installOldWritePath(): void {
  if (installed) return;
  installed = true;
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      if (!oldWritePath.enabled) return next(args);
      const command = String(context.commandName ?? '');
      if (command === 'TransactWriteItemsCommand') {
        const input = args.input as { TransactItems?: TransactItem[] };
        const { items, kinds } = oldCounterItems(input.TransactItems ?? []);
        if (items.length === 0) return next(args);
        oldWritePath.transactions += 1;
        for (const kind of kinds) oldWritePath.added[kind] += 1;
        return next({ ...args, input: { ...input, TransactItems: [...(input.TransactItems ?? []), ...items] } });
      }
      const result = await next(args);
      if (command === 'GetItemCommand') {
        const item = (result.output as { Item?: Item }).Item;
        if (item !== undefined && typeof item.PK === 'string' && (item.entity === ENTITY.payment || item.entity === ENTITY.customer))
          images.set(imageId(item, item.version), item);
      }
      return result;
    },
    { step: 'initialize', priority: 'high', name: 'benchOldWritePath' },
  );
}
