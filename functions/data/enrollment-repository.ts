import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, GetCommand, paginateQuery, type QueryCommandInput, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { campaignBodyOf } from '#core/campaigns/types';
import type { EnrollmentRecord } from '#core/enrollments';
import { paymentBodyOf } from '#core/payments';
import { env } from '#shared/env';
import { documentClient } from './client';
import type { TransactItem } from './customer-repository';
import { findDueEntries } from './due-index';
import { enrollmentEntity } from './entities/enrollment';
import { CAMPAIGN_DUE_SHARDS, campaignKeys, conditions, customerKeys, enrollmentKeys, paymentKeys } from './keys';

type Item = Record<string, unknown>;

const bodyOf = (paymentId: string): string => paymentBodyOf(paymentId) as string;
const fromItem = (item: Item): EnrollmentRecord => enrollmentEntity.fromItem(item);

/** The item of an enrollment (its indexes follow its status). */
export const enrollmentItem = (enrollment: EnrollmentRecord): Item => enrollmentEntity.toItem(enrollment);

/**
 * Enrolls a payment: ONE TransactWriteItems request that puts the enrollment (on condition that the
 * payment has none: a redelivered event never enrolls twice), sets the payment's `campaign_id`, and adds 1 to the campaign's
 * `stats.enrolled` and `stats.active` (on condition that the campaign is still active: a campaign
 * paused since the index was read takes no one). False when either condition fails.
 * A customer-level enrollment (no payment, core/enrollments.ts `occasion`) is the same transaction
 * without the payment's update: its key is its occasion's, so an occasion enrolls once.
 */
export async function putEnrollment(enrollment: EnrollmentRecord): Promise<boolean> {
  const payment: TransactItem[] =
    enrollment.payment_id === null
      ? []
      : [
          {
            // The payment names its campaign, so the CAMP rollups (projections/campaign-rollups.ts) count it from its own item.
            // The version bump makes a concurrent change of the payment, which read it before, write again on fresh state.
            Update: {
              TableName: env.TABLE_NAME,
              Key: paymentKeys.payment(enrollment.merchant_id, bodyOf(enrollment.payment_id)),
              UpdateExpression: 'SET campaign_id = :campaign ADD version :one',
              ConditionExpression: conditions.exists,
              ExpressionAttributeValues: { ':campaign': enrollment.campaign_id, ':one': 1 },
            },
          },
        ];
  try {
    await documentClient.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: env.TABLE_NAME, Item: enrollmentItem(enrollment), ConditionExpression: conditions.absent } },
          ...payment,
          {
            Update: {
              TableName: env.TABLE_NAME,
              Key: campaignKeys.campaign(enrollment.merchant_id, campaignBodyOf(enrollment.campaign_id) as string),
              UpdateExpression: 'ADD #stats.#enrolled :one, #stats.#active :one',
              ConditionExpression: '#status = :active',
              ExpressionAttributeNames: { '#stats': 'stats', '#enrolled': 'enrolled', '#active': 'active', '#status': 'status' },
              ExpressionAttributeValues: { ':one': 1, ':active': 'active' },
            },
          },
        ],
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof TransactionCanceledException && (error.CancellationReasons ?? []).some((r) => r.Code === 'ConditionalCheckFailed')) return false;
    throw error;
  }
}

/** A payment's enrollment (strongly consistent), or undefined. */
export async function getEnrollment(merchantId: string, paymentId: string): Promise<EnrollmentRecord | undefined> {
  const body = paymentBodyOf(paymentId);
  return body === undefined ? undefined : getEnrollmentAt(merchantId, body);
}

/** The enrollment of a key body (a payment's or an occasion's: core/enrollments.ts enrollmentBodyOf), strongly consistent. */
export async function getEnrollmentAt(merchantId: string, body: string): Promise<EnrollmentRecord | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: env.TABLE_NAME, Key: enrollmentKeys.enrollment(merchantId, body), ConsistentRead: true }),
  );
  return Item === undefined ? undefined : fromItem(Item);
}

/** The enrollments of a page of payments (100 keys per BatchGetItem), by payment id. */
export async function enrollmentsOf(merchantId: string, paymentIds: readonly string[]): Promise<Map<string, EnrollmentRecord>> {
  const found = new Map<string, EnrollmentRecord>();
  const keys = [...new Set(paymentIds)].filter((id) => paymentBodyOf(id) !== undefined).map((id) => ({ ...enrollmentKeys.enrollment(merchantId, bodyOf(id)) }));
  for (let i = 0; i < keys.length; i += 100) {
    let pending: Item[] | undefined = keys.slice(i, i + 100);
    for (let attempt = 0; pending !== undefined && pending.length > 0 && attempt < 8; attempt += 1) {
      const answer = await documentClient.send(new BatchGetCommand({ RequestItems: { [env.TABLE_NAME]: { Keys: pending } } }));
      for (const item of answer.Responses?.[env.TABLE_NAME] ?? []) {
        const enrollment = fromItem(item);
        if (enrollment.payment_id !== null) found.set(enrollment.payment_id, enrollment);
      }
      pending = answer.UnprocessedKeys?.[env.TABLE_NAME]?.Keys as Item[] | undefined;
      if (pending !== undefined && pending.length > 0) await new Promise((done) => setTimeout(done, 20 * (attempt + 1)));
    }
  }
  return found;
}

/** A due step as the due index gives it (eventually consistent: the claim re-checks). */
export interface DueEnrollment {
  readonly merchantId: string;
  /** The enrollment's key body: its payment's, or a customer-level enrollment's occasion's. */
  readonly body: string;
  readonly dueAt: string;
  readonly stepIndex: number;
}

/** Enrollments whose next step is due at `now`, every merchant: one bounded Query per shard of GSI4, never a Scan. */
export async function findDueEnrollments(now: Date, limit: number): Promise<DueEnrollment[]> {
  const entries = await findDueEntries({ shards: CAMPAIGN_DUE_SHARDS, ...enrollmentKeys }, now, limit, ['step_index']);
  return entries.map((entry) => ({
    merchantId: entry.merchantId,
    body: entry.body,
    dueAt: entry.dueAt,
    stepIndex: entry.attributes.step_index as number,
  }));
}

/**
 * Claims a due step for one run: one conditional UpdateItem on the enrollment still being active
 * at `stepIndex` and due at `dueAt`, moving its due time to `leaseUntil` (a run that dies leaves
 * it due again then) and bumping its version. Of two runs, one claims; the other gets undefined.
 */
export async function claimEnrollment(
  merchantId: string,
  body: string,
  expected: { readonly stepIndex: number; readonly dueAt: string },
  leaseUntil: Date,
): Promise<EnrollmentRecord | undefined> {
  const lease = leaseUntil.toISOString();
  const due = enrollmentKeys.due(merchantId, body, lease);
  try {
    const { Attributes } = await documentClient.send(
      new UpdateCommand({
        TableName: env.TABLE_NAME,
        Key: enrollmentKeys.enrollment(merchantId, body),
        UpdateExpression: 'SET next_step_at = :lease, GSI4PK = :pk, GSI4SK = :sk, version = version + :one',
        ConditionExpression: '#status = :active AND step_index = :index AND next_step_at = :due',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':lease': lease,
          ':pk': due.GSI4PK,
          ':sk': due.GSI4SK,
          ':one': 1,
          ':active': 'active',
          ':index': expected.stepIndex,
          ':due': expected.dueAt,
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return fromItem(Attributes as Item);
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

/** The write of an enrollment's new state, for a transaction: conditional on the version the caller holds. */
export function enrollmentWrite(before: EnrollmentRecord, after: EnrollmentRecord): TransactItem {
  return {
    Put: {
      TableName: env.TABLE_NAME,
      Item: enrollmentItem({ ...after, version: before.version + 1 }),
      ConditionExpression: 'version = :version',
      ExpressionAttributeValues: { ':version': before.version },
    },
  };
}

/** The campaign counters' change for a transaction (ADD; negative deltas subtract). */
export function campaignStatsWrite(merchantId: string, campaignId: string, deltas: Readonly<Record<string, number>>): TransactItem | undefined {
  const entries = Object.entries(deltas).filter(([, delta]) => delta !== 0);
  if (entries.length === 0) return undefined;
  const names: Record<string, string> = { '#stats': 'stats' };
  const values: Item = {};
  const adds = entries.map(([name, delta], i) => {
    names[`#s${i}`] = name;
    values[`:s${i}`] = delta;
    return `#stats.#s${i} :s${i}`;
  });
  return {
    Update: {
      TableName: env.TABLE_NAME,
      Key: campaignKeys.campaign(merchantId, campaignBodyOf(campaignId) as string),
      UpdateExpression: `ADD ${adds.join(', ')}`,
      ConditionExpression: conditions.exists,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** The customer's active enrollments, from the customer's data partition (GSI2, `ENROLL#` range). */
export async function activeEnrollmentsOfCustomer(merchantId: string, customerId: string): Promise<EnrollmentRecord[]> {
  const found: EnrollmentRecord[] = [];
  const input: QueryCommandInput = {
    TableName: env.TABLE_NAME,
    IndexName: 'GSI2',
    KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :sk)',
    FilterExpression: '#status = :active',
    ExpressionAttributeNames: { '#pk': 'GSI2PK', '#sk': 'GSI2SK', '#status': 'status' },
    ExpressionAttributeValues: { ':pk': customerKeys.data(merchantId, customerId), ':sk': enrollmentKeys.customerPrefix, ':active': 'active' },
  };
  for await (const page of paginateQuery({ client: documentClient, pageSize: 100 }, input)) for (const item of page.Items ?? []) found.push(fromItem(item));
  return found;
}

/**
 * The payment ids of a campaign's enrollments, newest payment first (GSI1, the campaign's own
 * partition: a read that grows with the campaign's enrollments, not with the merchant's payments).
 */
export async function campaignEnrollmentPaymentIds(merchantId: string, campaignId: string): Promise<string[]> {
  const body = campaignBodyOf(campaignId);
  if (body === undefined) return [];
  const ids: string[] = [];
  const input: QueryCommandInput = {
    TableName: env.TABLE_NAME,
    IndexName: 'GSI1',
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': 'GSI1PK', '#payment': 'payment_id' },
    ExpressionAttributeValues: { ':pk': enrollmentKeys.byCampaignPk(merchantId, body) },
    ProjectionExpression: '#payment',
    ScanIndexForward: false,
  };
  // Customer-level enrollments (no payment) are not recoveries: they are left out here.
  for await (const page of paginateQuery({ client: documentClient, pageSize: 1000 }, input))
    for (const item of page.Items ?? []) if (typeof item.payment_id === 'string') ids.push(item.payment_id);
  return ids;
}
