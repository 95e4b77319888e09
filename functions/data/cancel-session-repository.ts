import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { CancelSessionRecord } from '#core/cancel-sessions';
import { needsSaveRecheck, saveWindowClosesOn } from '#core/cancel-sessions';
import { StateConflictError } from '#core/errors';
import type { PaymentRecord } from '#core/payments';
import { env } from '#shared/env';
import { documentClient } from './client';
import { cancelFlowBodyOf, cancelSessionEntity } from './entities/cancel-flow';
import { paymentFromItem } from './payment-repository';
import { CANCEL_FLOW_ENTITY, cancelFlowKeys, queries } from './keys';
import type { TransactItem } from './customer-repository';
import { readUpTo } from './query-reads';

/**
 * Cancel sessions, stored under their token's SHA-256 (the token itself is never stored), and the
 * customers' offer redemptions. Every transition is one transaction conditional on the version
 * read, with what it causes (a redemption counted against its cap, the outbound event), so a
 * double complete completes once and a cap is never passed.
 */
export class OfferCapReachedError extends StateConflictError {}

/** Where a completed session waits for its 30-day re-check: the day it is due, or not in the due index. */
const dueOnOf = (session: CancelSessionRecord): string | null =>
  needsSaveRecheck(session) && !session.save_window_closed && session.completed_at !== null ? saveWindowClosesOn(session.completed_at) : null;

export const sessionItem = (session: CancelSessionRecord, tokenHash: string) => cancelSessionEntity.toItem(session, { tokenHash, dueOn: dueOnOf(session) });

export async function createCancelSession(session: CancelSessionRecord, tokenHash: string): Promise<void> {
  await documentClient.send(
    new PutCommand({ TableName: env.TABLE_NAME, Item: sessionItem(session, tokenHash), ConditionExpression: 'attribute_not_exists(PK)' }),
  );
}

export async function getCancelSession(tokenHash: string): Promise<CancelSessionRecord | undefined> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: cancelFlowKeys.session(tokenHash), ConsistentRead: true }));
  return Item === undefined ? undefined : cancelSessionEntity.fromItem(Item);
}

/** The customer's redemption counts of one flow's offers, by step id (one Query). */
export async function redemptionCounts(merchantId: string, customerId: string, flowId: string): Promise<Map<string, number>> {
  const prefix = cancelFlowKeys.redemptionPrefix(merchantId, customerId, cancelFlowBodyOf(flowId) as string);
  const { Items } = await documentClient.send(new QueryCommand({ TableName: env.TABLE_NAME, ConsistentRead: true, ...queries.partitionPrefix(prefix) }));
  return new Map((Items ?? []).map((item) => [String(item.step_id), Number(item.redemptions ?? 0)]));
}

/** The ADD of one redemption of an offer, refused by its condition at the cap. */
export function redemptionItem(session: CancelSessionRecord, stepId: string, cap: number, now: Date): TransactItem {
  const flowBody = cancelFlowBodyOf(session.flow_id) as string;
  const tag = cancelFlowKeys.redemptionTag(session.merchant_id, session.customer_id, flowBody, stepId);
  return {
    Update: {
      TableName: env.TABLE_NAME,
      Key: cancelFlowKeys.redemption(session.merchant_id, session.customer_id, flowBody, stepId),
      UpdateExpression:
        'SET entity = :entity, merchant_id = :m, customer_id = :c, flow_id = :f, step_id = :s, GSI2PK = :g2pk, GSI2SK = :g2sk, last_redeemed_at = :at ADD redemptions :one',
      ConditionExpression: 'attribute_not_exists(redemptions) OR redemptions < :cap',
      ExpressionAttributeValues: {
        ':entity': CANCEL_FLOW_ENTITY.redemption,
        ':m': session.merchant_id,
        ':c': session.customer_id,
        ':f': session.flow_id,
        ':s': stepId,
        ':g2pk': tag.GSI2PK,
        ':g2sk': tag.GSI2SK,
        ':at': now.toISOString(),
        ':one': 1,
        ':cap': cap,
      },
    },
  };
}

/**
 * Writes a transition: the session as `after`, only if it is still at `before.version`, with
 * `also` (a redemption, an outbound event) in the same transaction. A lost race is 409 (the
 * caller re-reads); a redemption at its cap is OfferCapReachedError (409).
 */
export async function saveTransition(
  before: CancelSessionRecord,
  after: CancelSessionRecord,
  tokenHash: string,
  also: readonly TransactItem[] = [],
): Promise<void> {
  try {
    await documentClient.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: env.TABLE_NAME,
              Item: sessionItem(after, tokenHash),
              ConditionExpression: 'version = :v',
              ExpressionAttributeValues: { ':v': before.version },
            },
          },
          ...also,
        ],
      }),
    );
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    const reasons = error.CancellationReasons ?? [];
    if (reasons[0]?.Code === 'ConditionalCheckFailed')
      throw new StateConflictError('This cancel session was changed by another request: fetch it again.', { cause: error });
    if (reasons.slice(1).some((reason) => reason.Code === 'ConditionalCheckFailed'))
      throw new OfferCapReachedError('This customer has already redeemed this offer as many times as it allows.', { param: 'response.accepted', cause: error });
    throw error;
  }
}

/** At most this many of a customer's sessions and payments are read by the save re-check, newest first (what came after the save). */
const RECHECK_READ_LIMIT = 1000;
/** At most this many sessions are re-checked per day of the due index in one run; the rest wait for the next run's catch-up. */
const DUE_READ_LIMIT = 50_000;

/** The customer's sessions, newest first (the save re-check reads those after a save). */
export async function customerSessions(merchantId: string, customerId: string): Promise<CancelSessionRecord[]> {
  const items = await readUpTo(
    { TableName: env.TABLE_NAME, ScanIndexForward: false, ...cancelFlowKeys.customerSessions(merchantId, customerId) },
    RECHECK_READ_LIMIT,
  );
  return items.map((item) => cancelSessionEntity.fromItem(item));
}

/** The customer's payments, newest first (the save re-check looks for one that ended terminal after a save). */
export async function customerPaymentsForRecheck(merchantId: string, customerId: string): Promise<PaymentRecord[]> {
  const items = await readUpTo(
    { TableName: env.TABLE_NAME, ScanIndexForward: false, ...cancelFlowKeys.customerPayments(merchantId, customerId) },
    RECHECK_READ_LIMIT,
  );
  return items.map(paymentFromItem);
}

/** The sessions whose save window closes on `day` and that are not re-checked yet, with their token hashes (from the key). */
export async function sessionsDueOn(day: string): Promise<Array<{ session: CancelSessionRecord; tokenHash: string }>> {
  const items = await readUpTo({ TableName: env.TABLE_NAME, ...cancelFlowKeys.dueOn(day) }, DUE_READ_LIMIT);
  return items.map((item) => ({ session: cancelSessionEntity.fromItem(item), tokenHash: cancelFlowKeys.tokenHashOf(String(item.PK)) }));
}
