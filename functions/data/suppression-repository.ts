import { BatchGetCommand, GetCommand, paginateQuery, type QueryCommandInput, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { type Pagination, queryOffsetPage } from '#api/pipeline/paging';
import { SUPPRESSION_REASONS, type SuppressionReason } from '#core/suppressions';
import { env } from '#shared/env';
import { documentClient } from './client';
import { counterUpdate } from './counter-update';
import { suppressionEntity } from './entities/suppression';
import { ENTITY, queries, suppressionKeys, suppressionListKeys } from './keys';
import { transactOptimistically } from './transact';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
type QueryInput = Omit<QueryCommandInput, 'ExclusiveStartKey' | 'Limit'>;

export { SUPPRESSION_REASONS, type SuppressionReason } from '#core/suppressions';

/** One address on a merchant's email suppression list. */
export interface SuppressionRecord {
  readonly merchant_id: string;
  /** Lowercased and trimmed. */
  readonly email: string;
  readonly customer_id: string;
  readonly reason: SuppressionReason;
  /** The message whose callback (or unsubscribe link) suppressed the address (`msg_…`); null when added by hand. */
  readonly source_message_id: string | null;
  /** When the address was (last) suppressed. */
  readonly created_at: string;
  /** When the merchant lifted the suppression; absent while it is in force. Lifted items are kept as history. */
  readonly lifted_at?: string;
}

/** The form addresses are kept and looked up in. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

export const isActiveSuppression = (record: SuppressionRecord): boolean => record.lifted_at === undefined;

/** Days the statistics' "added" count looks back over. */
export const SUPPRESSION_STATS_DAYS = 30;
/** Day counters outlive the window they are read in by this many days, then expire (TTL). */
const DAY_COUNTER_KEEP_DAYS = 40;
const DAY_MS = 86_400_000;

const activeReasonCounter = (reason: SuppressionReason): string => `active_${reason}`;
const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

/** The day counter's update: one more suppression made that day, expiring after DAY_COUNTER_KEEP_DAYS. */
function dayCounterUpdate(merchantId: string, now: Date): TransactItem {
  const expiresAt = Math.floor((Date.parse(`${dayOf(now)}T00:00:00.000Z`) + DAY_COUNTER_KEEP_DAYS * DAY_MS) / 1000);
  return {
    Update: {
      TableName: env.TABLE_NAME,
      Key: suppressionListKeys.day(merchantId, dayOf(now)),
      UpdateExpression: 'SET #entity = :entity, expires_at = :expires ADD added :one',
      ExpressionAttributeNames: { '#entity': 'entity' },
      ExpressionAttributeValues: { ':entity': ENTITY.counters, ':expires': expiresAt, ':one': 1 },
    },
  };
}

async function readSuppression(merchantId: string, email: string): Promise<SuppressionRecord | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: env.TABLE_NAME, Key: suppressionKeys.entry(merchantId, normaliseEmail(email)), ConsistentRead: true }),
  );
  return Item === undefined ? undefined : suppressionEntity.fromItem(Item);
}

/**
 * Adds an address to the merchant's suppression list (`PK M#<m>, SK SUPP#<email>`), tagged with the
 * customer's data key (GSI2) so that erasing the customer removes it, and counts it (stats) in the
 * same transaction. While a suppression is in force the first reason is kept: a later bounce or
 * complaint for the same address changes nothing. A suppression the merchant lifted is replaced
 * by the new one: a new bounce, complaint or unsubscribe is new evidence, and it is sent to again
 * only if the merchant lifts it again. True when the address was suppressed now.
 */
export async function suppressEmail(input: Omit<SuppressionRecord, 'created_at' | 'lifted_at'>, now: Date = new Date()): Promise<boolean> {
  const email = normaliseEmail(input.email);
  const record: SuppressionRecord = { ...input, email, created_at: now.toISOString() };
  return transactOptimistically(async () => {
    const current = await readSuppression(input.merchant_id, email);
    if (current !== undefined && isActiveSuppression(current)) return { items: [], result: false };
    const put: TransactItem =
      current === undefined
        ? { Put: { TableName: env.TABLE_NAME, Item: suppressionEntity.toItem(record), ConditionExpression: 'attribute_not_exists(PK)' } }
        : {
            Put: {
              TableName: env.TABLE_NAME,
              Item: suppressionEntity.toItem(record),
              ConditionExpression: 'lifted_at = :lifted',
              ExpressionAttributeValues: { ':lifted': current.lifted_at },
            },
          };
    const deltas = { ...(current === undefined ? { total: 1 } : { lifted: -1 }), active: 1, [activeReasonCounter(record.reason)]: 1 };
    return {
      result: true,
      items: [put, counterUpdate(suppressionListKeys.counters(input.merchant_id), deltas), dayCounterUpdate(input.merchant_id, now)],
    };
  });
}

/** The suppression in force for an address of a merchant, or undefined when it may be emailed (never suppressed, or lifted). */
export async function getSuppression(merchantId: string, email: string): Promise<SuppressionRecord | undefined> {
  const record = await readSuppression(merchantId, email);
  return record !== undefined && isActiveSuppression(record) ? record : undefined;
}

/**
 * Lifts the suppression of an address: the item stays, with `lifted_at`, as history, and the
 * address may be emailed again (getSuppression answers undefined). Undefined when the address is
 * not suppressed (never, or already lifted).
 */
export async function liftSuppression(merchantId: string, email: string, now: Date = new Date()): Promise<SuppressionRecord | undefined> {
  return transactOptimistically(async () => {
    const current = await readSuppression(merchantId, email);
    if (current === undefined || !isActiveSuppression(current)) return { items: [], result: undefined };
    const lifted: SuppressionRecord = { ...current, lifted_at: now.toISOString() };
    return {
      result: lifted,
      items: [
        {
          Put: {
            TableName: env.TABLE_NAME,
            Item: suppressionEntity.toItem(lifted),
            ConditionExpression: 'created_at = :created AND attribute_not_exists(lifted_at)',
            ExpressionAttributeValues: { ':created': current.created_at },
          },
        },
        counterUpdate(suppressionListKeys.counters(merchantId), { active: -1, lifted: 1, [activeReasonCounter(current.reason)]: -1 }),
      ],
    };
  });
}

export interface SuppressionFilter {
  /** Prefix of the address, any case. */
  readonly search?: string | undefined;
  readonly reason?: SuppressionReason | undefined;
  /** true (the default): only suppressions in force; false: lifted ones too. */
  readonly activeOnly: boolean;
}

interface SuppressionCounters {
  readonly total: number;
  readonly active: number;
  readonly lifted: number;
  readonly byReason: Readonly<Record<SuppressionReason, number>>;
}

async function readCounters(merchantId: string): Promise<SuppressionCounters> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: env.TABLE_NAME, Key: suppressionListKeys.counters(merchantId), ConsistentRead: true }),
  );
  const count = (name: string): number => Math.max(0, Number(Item?.[name] ?? 0));
  return {
    total: count('total'),
    active: count('active'),
    lifted: count('lifted'),
    byReason: Object.fromEntries(SUPPRESSION_REASONS.map((reason) => [reason, count(activeReasonCounter(reason))])) as Record<SuppressionReason, number>,
  };
}

function listQuery(merchantId: string, filter: SuppressionFilter): QueryInput {
  const keyCondition = queries.partitionPrefix(suppressionListKeys.prefix(merchantId, normaliseEmail(filter.search ?? '')));
  const clauses: string[] = [];
  const names: Record<string, string> = { ...keyCondition.ExpressionAttributeNames };
  const values: Record<string, unknown> = { ...keyCondition.ExpressionAttributeValues };
  if (filter.activeOnly) {
    clauses.push('attribute_not_exists(#lifted)');
    names['#lifted'] = 'lifted_at';
  }
  if (filter.reason !== undefined) {
    clauses.push('#reason = :reason');
    names['#reason'] = 'reason';
    values[':reason'] = filter.reason;
  }
  return {
    TableName: env.TABLE_NAME,
    ...keyCondition,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ...(clauses.length === 0 ? {} : { FilterExpression: clauses.join(' AND ') }),
  };
}

async function countOf(input: QueryInput): Promise<number> {
  let count = 0;
  for await (const page of paginateQuery({ client: documentClient, pageSize: 1000 }, { ...input, Select: 'COUNT' })) count += page.Count ?? 0;
  return count;
}

/**
 * pagination.total: the counters when the filter is one they hold (everything, in force, in force
 * for one reason); with a search, or lifted ones of one reason, a COUNT of the same Query (its cost
 * grows with the addresses the search prefix selects).
 */
async function totalOf(merchantId: string, filter: SuppressionFilter, input: QueryInput): Promise<number> {
  if (filter.search === undefined || filter.search.trim() === '') {
    if (filter.reason === undefined) {
      const counters = await readCounters(merchantId);
      return filter.activeOnly ? counters.active : counters.total;
    }
    if (filter.activeOnly) return (await readCounters(merchantId)).byReason[filter.reason];
  }
  return countOf(input);
}

/**
 * One page of the merchant's suppression list, alphabetical by address: one Query of the
 * merchant's `SUPP#` items (a search narrows its key range to the prefix); `reason` and
 * `active_only` are filters on it.
 */
export async function listSuppressions(
  merchantId: string,
  filter: SuppressionFilter,
  page: number,
  perPage: number,
): Promise<{ suppressions: SuppressionRecord[]; pagination: Pagination }> {
  const input = listQuery(merchantId, filter);
  const total = await totalOf(merchantId, filter, input);
  const { items, pagination } = await queryOffsetPage(input, page, perPage, total);
  return { suppressions: items.map((item) => suppressionEntity.fromItem(item)), pagination };
}

export interface SuppressionStats {
  /** Addresses on the list, in force or lifted. */
  readonly total: number;
  readonly active: number;
  readonly lifted: number;
  /** Suppressions in force, by reason. */
  readonly by_reason: Readonly<Record<SuppressionReason, number>>;
  /** Suppressions made (first or again) in the last SUPPRESSION_STATS_DAYS UTC days, today included. */
  readonly added_last_30_days: number;
}

/**
 * The list's statistics from its counters: one GetItem and one BatchGetItem of 30 day counters,
 * whatever the size of the list.
 */
export async function suppressionStats(merchantId: string, now: Date = new Date()): Promise<SuppressionStats> {
  const days = Array.from({ length: SUPPRESSION_STATS_DAYS }, (_, back) => dayOf(new Date(now.getTime() - back * DAY_MS)));
  const [counters, added] = await Promise.all([readCounters(merchantId), addedOn(merchantId, days)]);
  return { total: counters.total, active: counters.active, lifted: counters.lifted, by_reason: counters.byReason, added_last_30_days: added };
}

async function addedOn(merchantId: string, days: readonly string[]): Promise<number> {
  let keys: Record<string, unknown>[] = days.map((day) => ({ ...suppressionListKeys.day(merchantId, day) }));
  let added = 0;
  while (keys.length > 0) {
    const response = await documentClient.send(new BatchGetCommand({ RequestItems: { [env.TABLE_NAME]: { Keys: keys, ProjectionExpression: 'added' } } }));
    for (const item of response.Responses?.[env.TABLE_NAME] ?? []) added += Number(item.added ?? 0);
    keys = (response.UnprocessedKeys?.[env.TABLE_NAME]?.Keys ?? []) as Record<string, unknown>[];
  }
  return added;
}

/**
 * Deletes an address's suppression entry (in force or lifted) and takes it out of the counters in
 * the same transaction: customer erasure's way to remove it, so that the statistics stay true.
 * False when there was no entry.
 */
export async function eraseSuppression(merchantId: string, email: string): Promise<boolean> {
  return transactOptimistically(async () => {
    const current = await readSuppression(merchantId, email);
    if (current === undefined) return { items: [], result: false };
    const deltas: Record<string, number> = isActiveSuppression(current)
      ? { total: -1, active: -1, [activeReasonCounter(current.reason)]: -1 }
      : { total: -1, lifted: -1 };
    return {
      result: true,
      items: [
        {
          Delete: {
            TableName: env.TABLE_NAME,
            Key: suppressionKeys.entry(merchantId, current.email),
            ConditionExpression: 'created_at = :created',
            ExpressionAttributeValues: { ':created': current.created_at },
          },
        },
        counterUpdate(suppressionListKeys.counters(merchantId), deltas),
      ],
    };
  });
}
