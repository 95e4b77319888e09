import { GetCommand, paginateQuery, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { type CustomerRecord, customerBodyOf, foldForSearch } from '#core/customers';
import { timeOrderedIdFloor } from '#core/ids';
import type { PaymentRecord, PaymentStatus } from '#core/payments';
import { type Pagination, queryOffsetPage } from '#api/pipeline/paging';
import { env } from '#shared/env';
import { batchGetItems } from './batch-get';
import { documentClient } from './client';
import { customerCounts, customerFromItem, getCustomer } from './customer-repository';
import { customerKeys, customerSearchKeys, paymentKeys } from './keys';
import { paymentFromItem } from './payment-repository';

type Item = Record<string, unknown>;
type QueryInput = Omit<QueryCommandInput, 'ExclusiveStartKey' | 'Limit'>;

export interface CustomerFilter {
  /** true: customers with an open recovery (pending, retrying or paused); false: those without. */
  readonly hasFailedPayment?: boolean;
  /** Prefix of the email, the name or any word of either (case- and accent-insensitive), or the exact provider customer id. */
  readonly search?: string;
  /** Inclusive. */
  readonly createdAfter?: Date;
  /** Exclusive. */
  readonly createdBefore?: Date;
}

const FAR_PAST = new Date('2000-01-01T00:00:00.000Z');
const FAR_FUTURE = new Date('2999-01-01T00:00:00.000Z');

/**
 * The created range, clamped to [FAR_PAST, FAR_FUTURE] (time-ordered ids have no floor before
 * 1970) and never upside down: a BETWEEN whose lower bound passes its upper is a
 * ValidationException, whereas an inverted range simply selects nothing.
 */
function createdRange(filter: CustomerFilter): { after: Date; before: Date } {
  const clamp = (at: Date): Date => new Date(Math.min(FAR_FUTURE.getTime(), Math.max(FAR_PAST.getTime(), at.getTime())));
  const after = clamp(filter.createdAfter ?? FAR_PAST);
  const before = clamp(filter.createdBefore ?? FAR_FUTURE);
  return { after, before: before < after ? after : before };
}

const hasRange = (filter: CustomerFilter): boolean => filter.createdAfter !== undefined || filter.createdBefore !== undefined;

async function readAll(input: QueryInput): Promise<Item[]> {
  const items: Item[] = [];
  for await (const page of paginateQuery({ client: documentClient, pageSize: 1000 }, input)) items.push(...(page.Items ?? []));
  return items;
}

async function countOf(input: QueryInput): Promise<number> {
  let count = 0;
  for await (const page of paginateQuery({ client: documentClient, pageSize: 1000 }, { ...input, Select: 'COUNT' })) count += page.Count ?? 0;
  return count;
}

/**
 * The one Query that lists customers, newest first, when no search is given (keys.ts): the sparse
 * open-recovery index GSI4 for has_failed_payment=true; else the customer items of the merchant
 * partition (SK = CUST#<time-ordered body>, so the created range is a key range), filtered on
 * open_payments = 0 for has_failed_payment=false (no index holds "no open recovery").
 */
function listQuery(merchantId: string, filter: CustomerFilter): QueryInput {
  const { after, before } = createdRange(filter);
  if (filter.hasFailedPayment === true) {
    // GSI4SK is `<created_at>#<body>`: every key of an instant t sorts after t and before t + 1 ms.
    return {
      TableName: env.TABLE_NAME,
      IndexName: 'GSI4',
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :after AND :before',
      ExpressionAttributeNames: { '#pk': 'GSI4PK', '#sk': 'GSI4SK' },
      ExpressionAttributeValues: { ':pk': customerKeys.openIndexPk(merchantId), ':after': after.toISOString(), ':before': before.toISOString() },
      ScanIndexForward: false,
    };
  }
  return {
    TableName: env.TABLE_NAME,
    KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :after AND :before',
    ExpressionAttributeNames: { '#pk': 'PK', '#sk': 'SK', ...(filter.hasFailedPayment === false ? { '#open': 'open_payments' } : {}) },
    ExpressionAttributeValues: {
      ':pk': customerKeys.customer(merchantId, '').PK,
      ':after': customerKeys.customer(merchantId, timeOrderedIdFloor(after)).SK,
      ':before': customerKeys.customer(merchantId, timeOrderedIdFloor(before)).SK,
      ...(filter.hasFailedPayment === false ? { ':zero': 0 } : {}),
    },
    ...(filter.hasFailedPayment === false ? { FilterExpression: '#open = :zero' } : {}),
    ScanIndexForward: false,
  };
}

/** pagination.total of a list without search: the COUNT#CUST counters, or a count of the range's query. */
async function totalOf(merchantId: string, filter: CustomerFilter, query: QueryInput): Promise<number> {
  if (hasRange(filter)) return countOf(query);
  const counts = await customerCounts(merchantId);
  if (filter.hasFailedPayment === true) return Math.max(0, counts.has_failed);
  if (filter.hasFailedPayment === false) return Math.max(0, counts.all - counts.has_failed);
  return Math.max(0, counts.all);
}

const prefixQuery = (index: 'GSI1' | 'GSI3', pk: string, prefix: string): QueryInput => ({
  TableName: env.TABLE_NAME,
  IndexName: index,
  KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
  ExpressionAttributeNames: { '#pk': `${index}PK`, '#sk': `${index}SK` },
  ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
});

async function byProviderCustomerId(merchantId: string, providerCustomerId: string): Promise<CustomerRecord | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: env.TABLE_NAME, Key: customerKeys.byProviderId(merchantId, providerCustomerId), ConsistentRead: true }),
  );
  return Item === undefined ? undefined : getCustomer(merchantId, Item.customer_id as string);
}

/** The customer ids whose search terms (keys.ts customerSearchKeys) begin with the folded term: one Query of the merchant partition. */
async function byTermPrefix(merchantId: string, search: string): Promise<Set<string>> {
  const prefix = foldForSearch(search);
  if (prefix === '' || prefix.includes('#')) return new Set();
  const { PK, SKPrefix } = customerSearchKeys.termPrefix(merchantId, prefix);
  const items = await readAll({
    TableName: env.TABLE_NAME,
    KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
    ExpressionAttributeNames: { '#pk': 'PK', '#sk': 'SK', '#customer': 'customer_id' },
    ExpressionAttributeValues: { ':pk': PK, ':prefix': SKPrefix },
    ProjectionExpression: '#customer',
  });
  return new Set(items.map((item) => item.customer_id as string));
}

/** Customers by id (batchGetItems); ids of erased customers are skipped. */
async function customersByIds(merchantId: string, ids: readonly string[]): Promise<CustomerRecord[]> {
  const keys = ids.map((id) => customerKeys.customer(merchantId, customerBodyOf(id) as string));
  return (await batchGetItems(keys, { what: `Customers of ${merchantId}` })).map(customerFromItem);
}

const newestFirst = (a: CustomerRecord, b: CustomerRecord): number =>
  a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1;

/**
 * Every customer the search term finds, newest first: the email prefix (GSI1, emails are stored
 * lowercased), the name prefix (GSI3, names are indexed lowercased), the prefix of any word of the
 * name or email, accents and case folded (the CUSTWORD# term items, then the customers they name,
 * by BatchGetItem), and the exact provider customer id (its CUSTREF item), deduplicated, then
 * narrowed by the other filters. The prefix indexes are ordered by term, not by time, so every
 * match is read before it can be ordered: the cost grows with the number of matches, and the
 * total is exact.
 */
async function searchCustomers(merchantId: string, search: string, filter: CustomerFilter): Promise<CustomerRecord[]> {
  const prefix = search.toLowerCase();
  const [byEmail, byName, byTerm, byRef] = await Promise.all([
    readAll(prefixQuery('GSI1', customerKeys.emailIndexPk(merchantId), prefix)),
    readAll(prefixQuery('GSI3', customerKeys.nameIndexPk(merchantId), prefix)),
    byTermPrefix(merchantId, search),
    byProviderCustomerId(merchantId, search),
  ]);
  const found = new Map<string, CustomerRecord>();
  for (const customer of [...byEmail.map(customerFromItem), ...byName.map(customerFromItem), ...(byRef === undefined ? [] : [byRef])])
    found.set(customer.id, customer);
  for (const customer of await customersByIds(
    merchantId,
    [...byTerm].filter((id) => !found.has(id) && customerBodyOf(id) !== undefined),
  ))
    found.set(customer.id, customer);
  const { after, before } = createdRange(filter);
  return [...found.values()]
    .filter((customer) => filter.hasFailedPayment === undefined || customer.open_payments > 0 === filter.hasFailedPayment)
    .filter((customer) => !hasRange(filter) || (customer.created_at >= after.toISOString() && customer.created_at < before.toISOString()))
    .sort(newestFirst);
}

/**
 * One page of the merchant's customers, newest first, with its pagination block.
 *
 * `pagination.total` comes from the COUNT#CUST counters (kept as customers are written) when the
 * list has no search and no created range; with a created range it is a count of the range's
 * index entries (cost in proportion to the range, which is what the caller asked for), and with a
 * search it is the exact number of matches, all of which a search reads anyway.
 */
export async function listCustomers(
  merchantId: string,
  filter: CustomerFilter,
  page: number,
  perPage: number,
): Promise<{ customers: CustomerRecord[]; pagination: Pagination }> {
  if (filter.search !== undefined) {
    const matches = await searchCustomers(merchantId, filter.search, filter);
    const total = matches.length;
    return {
      customers: matches.slice((page - 1) * perPage, page * perPage),
      pagination: { total, page, per_page: perPage, total_pages: Math.ceil(total / perPage) },
    };
  }
  const query = listQuery(merchantId, filter);
  const total = await totalOf(merchantId, filter, query);
  const { items, pagination } = await queryOffsetPage(query, page, perPage, total);
  return { customers: items.map(customerFromItem), pagination };
}

/**
 * Every payment of a customer whose status is one of `statuses`, newest first, from the
 * customer's index (GSI2, eventually consistent: callers re-read each payment before changing it).
 */
export async function customerPaymentsIn(merchantId: string, customerId: string, statuses: readonly PaymentStatus[]): Promise<PaymentRecord[]> {
  const values: Record<string, unknown> = { ':pk': customerKeys.data(merchantId, customerId), ':pay': paymentKeys.paymentPrefix };
  statuses.forEach((status, i) => {
    values[`:s${i}`] = status;
  });
  const items = await readAll({
    TableName: env.TABLE_NAME,
    IndexName: 'GSI2',
    KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :pay)',
    FilterExpression: `#status IN (${statuses.map((_, i) => `:s${i}`).join(', ')})`,
    ExpressionAttributeNames: { '#pk': 'GSI2PK', '#sk': 'GSI2SK', '#status': 'status' },
    ExpressionAttributeValues: values,
    ScanIndexForward: false,
  });
  return items.map(paymentFromItem);
}
