import { BatchGetCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type CampaignAction, type CampaignFields, transitionCampaign, updateCampaign } from '#core/campaigns/lifecycle';
import type { MatchableCampaign } from '#core/campaigns/matching';
import { CAMPAIGN_STAT_NAMES, type CampaignRecord, type CampaignStats, type CampaignStatus, campaignBodyOf } from '#core/campaigns/types';
import { type CustomerRecord, customerBodyOf } from '#core/customers';
import type { DeclineCategory } from '#core/decline-codes/types';
import { ResourceNotFoundError } from '#core/errors';
import { timeOrderedIdFloor } from '#core/ids';
import type { PaymentRecord } from '#core/payments';
import { env } from '#shared/env';
import { documentClient } from './client';
import { customerFromItem, type TransactItem } from './customer-repository';
import { campaignEntity } from './entities/campaign';
import { CAMPAIGN_ENTITY, campaignKeys, conditions, customerKeys, paymentKeys } from './keys';
import { countOf, type QueryInput, readUpTo } from './query-reads';
import { paymentFromItem } from './payment-repository';
import { transactOptimistically } from './transact';

type Item = Record<string, unknown>;

/** One active campaign as the enrollment path needs it: what matching reads, and its step count. */
export interface ActiveCampaignEntry extends MatchableCampaign {
  readonly activated_at: string;
  readonly steps_count: number;
  /** When its first step is due and the hours its steps run in (enrollment schedules the first step without reading the campaign); absent on entries written before. */
  readonly delay_hours?: number;
  readonly first_step_delay_hours?: number;
  readonly start_hour?: number;
  readonly end_hour?: number;
}

/**
 * The merchant's active campaigns in one item (keys.ts `campaignKeys.activeIndex`), so that
 * enrolling a newly failed payment costs one GetItem. `version` guards its rewrites.
 */
export interface ActiveCampaignIndex {
  readonly campaigns: readonly ActiveCampaignEntry[];
  readonly version: number;
}

const EMPTY_INDEX: ActiveCampaignIndex = { campaigns: [], version: 0 };

const get = async (key: { PK: string; SK: string }): Promise<Item | undefined> =>
  (await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: key, ConsistentRead: true }))).Item;

export const campaignFromItem = (item: Item): CampaignRecord => campaignEntity.fromItem(item);

/** A campaign of the merchant, or undefined (another merchant's id, or not a `camp_` id). */
export async function getCampaign(merchantId: string, campaignId: string): Promise<CampaignRecord | undefined> {
  const body = campaignBodyOf(campaignId);
  if (body === undefined) return undefined;
  const item = await get(campaignKeys.campaign(merchantId, body));
  return item === undefined ? undefined : campaignFromItem(item);
}

/** The merchant's active campaigns (one consistent GetItem): what enrollment matches a failed payment against. */
export async function getActiveCampaignIndex(merchantId: string): Promise<ActiveCampaignIndex> {
  const item = await get(campaignKeys.activeIndex(merchantId));
  if (item === undefined) return EMPTY_INDEX;
  return { campaigns: (item.campaigns ?? []) as ActiveCampaignEntry[], version: (item.version as number | undefined) ?? 0 };
}

/** Writes a new draft campaign (its id is new, so the put only checks the key is free). */
export async function createCampaign(campaign: CampaignRecord): Promise<CampaignRecord> {
  await documentClient.send(new PutCommand({ TableName: env.TABLE_NAME, Item: campaignEntity.toItem(campaign), ConditionExpression: conditions.absent }));
  return campaign;
}

/**
 * The campaign's fields as an UpdateItem SET, with its status index. `stats` is left out: the
 * engine changes it with ADD (incrementCampaignStats), which a whole-item Put would overwrite.
 */
function setFields(campaign: CampaignRecord, expected: { status: CampaignStatus; version: number }) {
  const body = campaignBodyOf(campaign.id) as string;
  const fields: Item = { ...campaign, ...campaignKeys.statusIndex(campaign.merchant_id, campaign.status, body) };
  for (const name of ['id', 'merchant_id', 'stats', 'created_at']) delete fields[name];
  const names: Record<string, string> = { '#status': 'status', '#version': 'version' };
  const values: Item = { ':expectedStatus': expected.status, ':expectedVersion': expected.version };
  const sets = Object.entries(fields).map(([name, value], i) => {
    names[`#f${i}`] = name;
    values[`:f${i}`] = value;
    return `#f${i} = :f${i}`;
  });
  return {
    TableName: env.TABLE_NAME,
    Key: campaignKeys.campaign(campaign.merchant_id, body),
    UpdateExpression: `SET ${sets.join(', ')}`,
    ConditionExpression: `${conditions.exists} AND #status = :expectedStatus AND #version = :expectedVersion`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

const entryOf = (campaign: CampaignRecord): ActiveCampaignEntry => ({
  id: campaign.id,
  trigger: campaign.trigger,
  filters: campaign.filters,
  activated_at: campaign.activated_at ?? campaign.updated_at,
  steps_count: campaign.steps.length,
  delay_hours: campaign.delay_hours,
  first_step_delay_hours: campaign.steps[0]?.delay_hours ?? 0,
  start_hour: campaign.start_hour,
  end_hour: campaign.end_hour,
});

/** The active index's rewrite, guarded by the version read (absent item: version 0). */
function putIndex(merchantId: string, before: ActiveCampaignIndex, campaigns: readonly ActiveCampaignEntry[]) {
  return {
    Put: {
      TableName: env.TABLE_NAME,
      Item: { ...campaignKeys.activeIndex(merchantId), entity: CAMPAIGN_ENTITY.activeIndex, campaigns, version: before.version + 1 },
      ConditionExpression: before.version === 0 ? conditions.absent : '#version = :indexVersion',
      ...(before.version === 0 ? {} : { ExpressionAttributeNames: { '#version': 'version' }, ExpressionAttributeValues: { ':indexVersion': before.version } }),
    },
  };
}

const loadOrThrow = async (merchantId: string, campaignId: string): Promise<CampaignRecord> => {
  const campaign = await getCampaign(merchantId, campaignId);
  if (campaign === undefined) throw new ResourceNotFoundError(`No campaign ${campaignId}.`, { param: 'id' });
  return campaign;
};

/**
 * A status action (activate, pause, archive, complete): one transaction that writes the campaign
 * on the condition that its status and version are those read, and, when it enters or leaves
 * `active`, rewrites the active index under the index's version, with `alsoWrite`'s items for the
 * campaign as changed (its outbound event: services/campaign-status.ts). Of two concurrent
 * activations one commits; the other re-reads, finds it active and gets 409. 404 for an unknown
 * campaign.
 */
export async function changeCampaignStatus(
  merchantId: string,
  campaignId: string,
  action: Exclude<CampaignAction, 'update'>,
  now: Date = new Date(),
  alsoWrite: (before: CampaignRecord, after: CampaignRecord) => readonly TransactItem[] = () => [],
): Promise<CampaignRecord> {
  return transactOptimistically(async () => {
    const before = await loadOrThrow(merchantId, campaignId);
    const after = transitionCampaign(before, action, now);
    const items: TransactItem[] = [{ Update: setFields(after, { status: before.status, version: before.version }) }, ...alsoWrite(before, after)];
    if ((before.status === 'active') !== (after.status === 'active')) {
      const index = await getActiveCampaignIndex(merchantId);
      const others = index.campaigns.filter((entry) => entry.id !== after.id);
      items.push(putIndex(merchantId, index, after.status === 'active' ? [...others, entryOf(after)] : others));
    }
    return { items, result: after };
  });
}

/**
 * A partial update of a draft or paused campaign (409 otherwise; 404 if unknown), conditional on
 * the status and version read. Neither status is in the active index, so the index is untouched.
 */
export async function updateCampaignFields(
  merchantId: string,
  campaignId: string,
  changes: Partial<CampaignFields>,
  now: Date = new Date(),
): Promise<CampaignRecord> {
  return transactOptimistically(async () => {
    const before = await loadOrThrow(merchantId, campaignId);
    const after = updateCampaign(before, changes, now);
    return { items: [{ Update: setFields(after, { status: before.status, version: before.version }) }], result: after };
  });
}

/**
 * Adds to a campaign's counters with one UpdateItem ADD (no read; negative deltas subtract, e.g.
 * `active: -1` when an enrollment ends). Conditional on the campaign existing.
 *
 * @example incrementCampaignStats(merchantId, campaignId, { enrolled: 1, active: 1 })
 */
export async function incrementCampaignStats(merchantId: string, campaignId: string, deltas: Partial<CampaignStats>): Promise<void> {
  const body = campaignBodyOf(campaignId);
  if (body === undefined) throw new ResourceNotFoundError(`No campaign ${campaignId}.`, { param: 'campaign_id' });
  const names: Record<string, string> = { '#stats': 'stats' };
  const values: Item = {};
  const adds: string[] = [];
  for (const name of CAMPAIGN_STAT_NAMES) {
    const delta = deltas[name];
    if (delta === undefined || delta === 0) continue;
    names[`#${name}`] = name;
    values[`:${name}`] = delta;
    adds.push(`#stats.#${name} :${name}`);
  }
  if (adds.length === 0) return;
  await documentClient.send(
    new UpdateCommand({
      TableName: env.TABLE_NAME,
      Key: campaignKeys.campaign(merchantId, body),
      UpdateExpression: `ADD ${adds.join(', ')}`,
      ConditionExpression: conditions.exists,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
}

export interface CampaignListFilter {
  readonly status?: CampaignStatus;
  readonly trigger?: string;
}

/**
 * One page of the merchant's campaigns, newest first: all of them from the table's `CAMP#` range,
 * one status from GSI1; `trigger` as a filter on either (a merchant has tens of campaigns, not
 * thousands, so the count reads the same range: documented in keys.ts).
 */
export async function listCampaigns(
  merchantId: string,
  filter: CampaignListFilter,
  page: number,
  perPage: number,
): Promise<{ campaigns: CampaignRecord[]; total: number }> {
  const base: QueryInput =
    filter.status === undefined
      ? {
          TableName: env.TABLE_NAME,
          KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :sk)',
          ExpressionAttributeNames: { '#pk': 'PK', '#sk': 'SK' },
          ExpressionAttributeValues: { ':pk': campaignKeys.campaignPrefix(merchantId).PK, ':sk': campaignKeys.campaignPrefix(merchantId).SKPrefix },
        }
      : {
          TableName: env.TABLE_NAME,
          IndexName: 'GSI1',
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': 'GSI1PK' },
          ExpressionAttributeValues: { ':pk': campaignKeys.statusIndexPk(merchantId, filter.status) },
        };
  const input: QueryInput = {
    ...base,
    ScanIndexForward: false,
    ...(filter.trigger === undefined
      ? {}
      : {
          FilterExpression: '#trigger = :trigger',
          ExpressionAttributeNames: { ...base.ExpressionAttributeNames, '#trigger': 'trigger' },
          ExpressionAttributeValues: { ...base.ExpressionAttributeValues, ':trigger': filter.trigger },
        }),
  };
  const [total, items] = await Promise.all([countOf(input), readUpTo(input, page * perPage)]);
  return { campaigns: items.slice((page - 1) * perPage).map(campaignFromItem), total };
}

/** Past failed payments read for overlap and simulate, with what the read cost. */
export interface PastFailures {
  readonly payments: readonly PaymentRecord[];
  readonly items_read: number;
  /** True when the bound stopped the read before the window's start. */
  readonly truncated: boolean;
}

/**
 * The merchant's payments recorded as failed since `since`, newest first, from the existing
 * payment indexes (never a Scan): the category index (GSI3) per category when `categories` limits
 * them, else the table's time-ordered `PAY#` range. At most `bound` items are read in all.
 */
export async function failedPaymentsSince(
  merchantId: string,
  options: { readonly since: Date; readonly until: Date; readonly categories?: readonly DeclineCategory[] | undefined; readonly bound: number },
): Promise<PastFailures> {
  const after = options.since.toISOString();
  const before = `${options.until.toISOString()}~`;
  const queries: QueryInput[] =
    options.categories === undefined
      ? [
          {
            TableName: env.TABLE_NAME,
            KeyConditionExpression: 'PK = :pk AND SK BETWEEN :after AND :before',
            ExpressionAttributeValues: {
              ':pk': paymentKeys.payment(merchantId, '').PK,
              ':after': `${paymentKeys.paymentPrefix}${timeOrderedIdFloor(options.since)}`,
              ':before': `${paymentKeys.paymentPrefix}${timeOrderedIdFloor(options.until)}~`,
            },
            ScanIndexForward: false,
          },
        ]
      : options.categories.map((category) => ({
          TableName: env.TABLE_NAME,
          IndexName: 'GSI3',
          KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :after AND :before',
          ExpressionAttributeNames: { '#pk': 'GSI3PK', '#sk': 'GSI3SK' },
          ExpressionAttributeValues: { ':pk': paymentKeys.categoryIndexPk(merchantId, category), ':after': after, ':before': before },
          ScanIndexForward: false,
        }));
  const payments: PaymentRecord[] = [];
  let truncated = false;
  for (const query of queries) {
    const left = options.bound - payments.length;
    const items = await readUpTo(query, left + 1);
    if (items.length > left) truncated = true;
    payments.push(...items.slice(0, left).map(paymentFromItem));
  }
  return { payments, items_read: payments.length, truncated };
}

/** Customers by id, 100 per BatchGetItem (unprocessed keys retried); ids that are not ours are skipped. */
export async function customersByIds(merchantId: string, customerIds: readonly string[]): Promise<Map<string, CustomerRecord>> {
  const found = new Map<string, CustomerRecord>();
  const keys = [...new Set(customerIds)]
    .map((id) => customerBodyOf(id))
    .filter((body): body is string => body !== undefined)
    .map((body): Item => ({ ...customerKeys.customer(merchantId, body) }));
  for (let i = 0; i < keys.length; i += 100) {
    let pending: Item[] | undefined = keys.slice(i, i + 100);
    for (let attempt = 0; pending !== undefined && pending.length > 0 && attempt < 8; attempt += 1) {
      const answer = await documentClient.send(new BatchGetCommand({ RequestItems: { [env.TABLE_NAME]: { Keys: pending } } }));
      for (const item of answer.Responses?.[env.TABLE_NAME] ?? []) {
        const customer = customerFromItem(item);
        found.set(customer.id, customer);
      }
      pending = answer.UnprocessedKeys?.[env.TABLE_NAME]?.Keys as Item[] | undefined;
      if (pending !== undefined && pending.length > 0) await new Promise((done) => setTimeout(done, 20 * (attempt + 1)));
    }
  }
  return found;
}

/**
 * Up to `limit` of the merchant's campaigns, newest first, after the campaign `afterId` (the last
 * of the previous page) when given: one Query of the `CAMP#` range starting after its key, reading
 * one more item to know whether another page follows. For cursor-paged lists (campaign analytics).
 */
export async function campaignsPage(merchantId: string, afterId: string | undefined, limit: number): Promise<{ campaigns: CampaignRecord[]; more: boolean }> {
  const prefix = campaignKeys.campaignPrefix(merchantId);
  const afterBody = afterId === undefined ? undefined : campaignBodyOf(afterId);
  const items: Item[] = [];
  let startKey: Item | undefined = afterBody === undefined ? undefined : { ...campaignKeys.campaign(merchantId, afterBody) };
  do {
    const page = await documentClient.send(
      new QueryCommand({
        TableName: env.TABLE_NAME,
        KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :sk)',
        ExpressionAttributeNames: { '#pk': 'PK', '#sk': 'SK' },
        ExpressionAttributeValues: { ':pk': prefix.PK, ':sk': prefix.SKPrefix },
        ScanIndexForward: false,
        Limit: limit + 1 - items.length,
        ...(startKey === undefined ? {} : { ExclusiveStartKey: startKey }),
      }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey !== undefined && items.length <= limit);
  return { campaigns: items.slice(0, limit).map(campaignFromItem), more: items.length > limit };
}
