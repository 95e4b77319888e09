import type { DeclineCategory } from '#core/decline-codes/types';
import { timeOrderedIdFloor } from '#core/ids';
import { type PaymentRecord, type PaymentStatus, paymentBodyOf } from '#core/payments';
import type { Pagination } from '#api/pipeline/paging';
import { env } from '#shared/env';
import { customerKeys, paymentKeys } from './keys';
import { countOf, type QueryInput, readUpTo } from './query-reads';
import { getPayment, paymentCounters, paymentFromItem } from './payment-repository';

type Item = Record<string, unknown>;

export interface PaymentFilter {
  /** Any of these statuses (B's aliases already expanded); all when absent. */
  readonly statuses?: readonly PaymentStatus[];
  readonly declineCategory?: DeclineCategory;
  readonly psp?: string;
  /** Inclusive. */
  readonly createdAfter?: Date;
  /** Exclusive. */
  readonly createdBefore?: Date;
  /** Only this customer's payments (served by the customer's index; other filters apply on it). */
  readonly customerId?: string;
  /** Only payments enrolled in this campaign: no index covers it, so a residual filter (counted, not from counters). */
  readonly campaignId?: string;
}

const FAR_PAST = new Date('2000-01-01T00:00:00.000Z');
const FAR_FUTURE = new Date('2999-01-01T00:00:00.000Z');

/**
 * The created range as key bounds: within [FAR_PAST, FAR_FUTURE] (no payment lies outside, and
 * time-ordered ids have no floor before 1970), and never upside down, since a BETWEEN whose lower
 * bound passes its upper is a ValidationException rather than an empty list.
 */
function createdRange(filter: PaymentFilter): { after: Date; before: Date } {
  const clamp = (at: Date): Date => new Date(Math.min(FAR_FUTURE.getTime(), Math.max(FAR_PAST.getTime(), at.getTime())));
  const after = clamp(filter.createdAfter ?? FAR_PAST);
  const before = clamp(filter.createdBefore ?? FAR_FUTURE);
  return { after, before: before < after ? after : before };
}

/** Filters that no key condition covers, as a FilterExpression. */
function residualFilter(filter: PaymentFilter, covered: { category: boolean; customer: boolean; status?: boolean }) {
  const clauses: string[] = [];
  const values: Record<string, unknown> = {};
  const names: Record<string, string> = {};
  if (filter.statuses !== undefined && covered.status === false) {
    names['#status'] = 'status';
    clauses.push(`#status IN (${filter.statuses.map((_, i) => `:status${i}`).join(', ')})`);
    filter.statuses.forEach((status, i) => {
      values[`:status${i}`] = status;
    });
  }
  if (filter.psp !== undefined) {
    clauses.push('#psp = :psp');
    names['#psp'] = 'psp';
    values[':psp'] = filter.psp;
  }
  if (filter.declineCategory !== undefined && !covered.category) {
    clauses.push('#cat = :cat');
    names['#cat'] = 'decline_category';
    values[':cat'] = filter.declineCategory;
  }
  if (filter.campaignId !== undefined) {
    clauses.push('#camp = :camp');
    names['#camp'] = 'campaign_id';
    values[':camp'] = filter.campaignId;
  }
  if (filter.customerId !== undefined && !covered.customer) {
    clauses.push('#cust = :cust');
    names['#cust'] = 'customer_id';
    values[':cust'] = filter.customerId;
  }
  return { clauses, names, values };
}

/**
 * The queries whose union, newest first, is the filtered list (keys.ts access patterns): one per
 * status on GSI1, or the category index GSI3, or the customer's index GSI2, else the table; the
 * created range as a key condition; what remains as a filter. Each yields items with a
 * `created_at#body`-ordered sort value for merging.
 */
function listQueries(merchantId: string, filter: PaymentFilter): QueryInput[] {
  const range = createdRange(filter);
  const after = range.after.toISOString();
  const before = range.before.toISOString();
  const withFilter = (input: QueryInput, covered: { category: boolean; customer: boolean; status?: boolean }): QueryInput => {
    const residual = residualFilter(filter, covered);
    const names = { ...input.ExpressionAttributeNames, ...residual.names };
    return {
      ...input,
      ScanIndexForward: false,
      ...(residual.clauses.length > 0 ? { FilterExpression: residual.clauses.join(' AND ') } : {}),
      ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: { ...input.ExpressionAttributeValues, ...residual.values },
    };
  };
  const byIndex = (index: string, pk: string): QueryInput => ({
    TableName: env.TABLE_NAME,
    IndexName: index,
    KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :after AND :before',
    ExpressionAttributeNames: { '#pk': `${index}PK`, '#sk': `${index}SK` },
    ExpressionAttributeValues: { ':pk': pk, ':after': after, ':before': before },
  });
  if (filter.customerId !== undefined) {
    // The customer's index holds its payments under PAY#<time-ordered body>.
    return [
      withFilter(
        {
          TableName: env.TABLE_NAME,
          IndexName: 'GSI2',
          KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :after AND :before',
          ExpressionAttributeNames: { '#pk': 'GSI2PK', '#sk': 'GSI2SK' },
          ExpressionAttributeValues: {
            ':pk': customerKeys.data(merchantId, filter.customerId),
            ':after': `${paymentKeys.paymentPrefix}${timeOrderedIdFloor(range.after)}`,
            ':before': `${paymentKeys.paymentPrefix}${timeOrderedIdFloor(range.before)}`,
          },
        },
        { category: false, customer: true, status: false },
      ),
    ];
  }
  if (filter.statuses !== undefined) {
    return filter.statuses.map((status) => withFilter(byIndex('GSI1', paymentKeys.statusIndexPk(merchantId, status)), { category: false, customer: false }));
  }
  if (filter.declineCategory !== undefined) {
    return [withFilter(byIndex('GSI3', paymentKeys.categoryIndexPk(merchantId, filter.declineCategory)), { category: true, customer: false })];
  }
  return [
    withFilter(
      {
        TableName: env.TABLE_NAME,
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :after AND :before',
        ExpressionAttributeValues: {
          ':pk': paymentKeys.payment(merchantId, '').PK,
          ':after': `${paymentKeys.paymentPrefix}${timeOrderedIdFloor(range.after)}`,
          ':before': `${paymentKeys.paymentPrefix}${timeOrderedIdFloor(range.before)}`,
        },
      },
      { category: false, customer: false },
    ),
  ];
}

/**
 * `pagination.total` without a pass over the payments: from the counter item when no created
 * range or customer narrows the list; otherwise by counting the range's index entries (cost in
 * proportion to the range, which is what the caller asked for). A campaign has no counter yet, so
 * its filter is counted over the index it is applied to.
 */
async function totalOf(merchantId: string, filter: PaymentFilter, queries: QueryInput[]): Promise<number> {
  if (filter.createdAfter !== undefined || filter.createdBefore !== undefined || filter.customerId !== undefined || filter.campaignId !== undefined) {
    const counts = await Promise.all(queries.map(countOf));
    return counts.reduce((sum, n) => sum + n, 0);
  }
  const counters = await paymentCounters(merchantId);
  const statuses = filter.statuses ?? [undefined];
  let total = 0;
  for (const status of statuses) {
    const parts = [status && `s:${status}`, filter.declineCategory && `c:${filter.declineCategory}`, filter.psp && `p:${filter.psp}`].filter(Boolean);
    total += counters[parts.length === 0 ? 'all' : parts.join('|')] ?? 0;
  }
  return total;
}

const createdOrder = (item: Item): string => `${item.created_at as string}#${paymentBodyOf(item.id as string)}`;

/**
 * One page of payments, newest first, with its pagination block. The counters trail writes by the
 * stream's lag, so `total` is never less than what the pages read show.
 */
export async function listPayments(
  merchantId: string,
  filter: PaymentFilter,
  page: number,
  perPage: number,
): Promise<{ payments: PaymentRecord[]; pagination: Pagination }> {
  const queries = listQueries(merchantId, filter);
  const wanted = page * perPage;
  const [counted, ...results] = await Promise.all([totalOf(merchantId, filter, queries), ...queries.map((query) => readUpTo(query, wanted))]);
  const merged = results.flat().sort((a, b) => (createdOrder(a) < createdOrder(b) ? 1 : -1));
  const payments = merged.slice((page - 1) * perPage, wanted).map(paymentFromItem);
  const total = Math.max(counted, merged.length);
  return { payments, pagination: { total, page, per_page: perPage, total_pages: Math.ceil(total / perPage) } };
}

export interface TimelineEntry {
  readonly type: string;
  readonly timestamp: string;
  readonly detail: string;
  readonly details: Readonly<Record<string, unknown>>;
}

/** A payment's timeline, oldest first. */
export async function paymentTimeline(merchantId: string, payment: PaymentRecord): Promise<TimelineEntry[]> {
  const { PK, SKPrefix } = paymentKeys.timelinePrefix(merchantId, paymentBodyOf(payment.id) as string);
  const items = await readUpTo(
    { TableName: env.TABLE_NAME, KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)', ExpressionAttributeValues: { ':pk': PK, ':sk': SKPrefix } },
    10_000,
  );
  return items.map((item) => ({
    type: item.type as string,
    timestamp: item.timestamp as string,
    detail: item.detail as string,
    details: (item.details ?? {}) as Record<string, unknown>,
  }));
}

/** The failed invoices (payments) of a subscription, newest first. */
export async function subscriptionPayments(merchantId: string, subscriptionId: string): Promise<PaymentRecord[]> {
  const { PK, SKPrefix } = paymentKeys.subscriptionInvoicePrefix(merchantId, subscriptionId);
  const refs = await readUpTo(
    {
      TableName: env.TABLE_NAME,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
      ExpressionAttributeValues: { ':pk': PK, ':sk': SKPrefix },
      ScanIndexForward: false,
    },
    10_000,
  );
  const payments = await Promise.all(refs.map((ref) => getPayment(merchantId, ref.payment_id as string)));
  return payments.filter((payment): payment is PaymentRecord => payment !== undefined);
}
