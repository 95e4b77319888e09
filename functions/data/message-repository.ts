import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { timeOrderedId } from '../core/ids';
import { type MessageRecord, type MessageStatus, messageBodyOf, messageIdFor } from '../core/messages';
import type { PaymentRecord } from '../core/payments';
import { env } from '../shared/env';
import { documentClient } from './client';
import type { TransactItem } from './customer-repository';
import { ENTITY, messageKeys } from './keys';

type Item = Record<string, unknown>;

/**
 * The communication log: one item per message (`msg_<time-ordered body>`), among its customer's
 * data (GSI2) so that erasure removes it. Status changes are conditional writes on the status
 * (and claim) they expect, which is what makes the notifications consumer idempotent.
 */
const bodyOf = (message: MessageRecord): string => messageBodyOf(message.id) as string;

function messageFromItem(item: Item): MessageRecord {
  const { PK: _pk, SK: _sk, entity: _entity, GSI2PK: _1, GSI2SK: _2, ...record } = item;
  return record as unknown as MessageRecord;
}

function messageItem(message: MessageRecord): Item {
  const body = bodyOf(message);
  return {
    ...messageKeys.message(message.merchant_id, body),
    entity: ENTITY.message,
    ...message,
    ...messageKeys.customerData(message.merchant_id, message.customer_id, `MSG#${body}`),
  };
}

export async function getMessage(merchantId: string, messageId: string): Promise<MessageRecord | undefined> {
  const body = messageBodyOf(messageId);
  if (body === undefined) return undefined;
  const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: messageKeys.message(merchantId, body), ConsistentRead: true }));
  return Item === undefined ? undefined : messageFromItem(Item);
}

/** Records a dunning email for a recovery, `queued`, addressed to the payment's customer. */
export async function createDunningMessage(
  payment: PaymentRecord,
  request: { readonly templateId: string | null; readonly subject: string | null },
  now: Date = new Date(),
): Promise<MessageRecord> {
  const at = now.toISOString();
  const message: MessageRecord = {
    id: messageIdFor(timeOrderedId(now)),
    merchant_id: payment.merchant_id,
    customer_id: payment.customer_id,
    payment_id: payment.id,
    recovery_id: payment.recovery_id,
    channel: 'email',
    purpose: 'dunning',
    status: 'queued',
    to: payment.customer_email,
    template_id: request.templateId,
    subject: request.subject,
    sending_at: null,
    sent_at: null,
    provider: null,
    provider_message_id: null,
    status_reason: null,
    created_at: at,
    updated_at: at,
  };
  await documentClient.send(new PutCommand({ TableName: env.TABLE_NAME, Item: messageItem(message), ConditionExpression: 'attribute_not_exists(PK)' }));
  return message;
}

export type ClaimResult =
  | { readonly outcome: 'claimed'; readonly message: MessageRecord }
  /** Already sent, cancelled or failed: nothing more to do. */
  | { readonly outcome: 'done'; readonly message: MessageRecord }
  /** Another consumer holds a fresh claim; try again later. */
  | { readonly outcome: 'busy'; readonly message: MessageRecord }
  /** No such message (never created, or erased with its customer). */
  | { readonly outcome: 'missing' };

/**
 * Takes a message for sending: `queued` → `sending`, or takes over a `sending` claim older than
 * `staleAfterMs` (a consumer that died mid-send; the email port deduplicates by message id, so a
 * take-over sends nothing twice). One conditional UpdateItem: of two concurrent consumers,
 * exactly one claims.
 */
export async function claimMessage(merchantId: string, messageId: string, now: Date, staleAfterMs: number): Promise<ClaimResult> {
  const body = messageBodyOf(messageId);
  if (body === undefined) return { outcome: 'missing' };
  const at = now.toISOString();
  try {
    const { Attributes } = await documentClient.send(
      new UpdateCommand({
        TableName: env.TABLE_NAME,
        Key: messageKeys.message(merchantId, body),
        UpdateExpression: 'SET #status = :sending, sending_at = :now, updated_at = :now',
        ConditionExpression: '#status = :queued OR (#status = :sending AND sending_at < :stale)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':queued': 'queued', ':sending': 'sending', ':now': at, ':stale': new Date(now.getTime() - staleAfterMs).toISOString() },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return { outcome: 'claimed', message: messageFromItem(Attributes as Item) };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    const message = await getMessage(merchantId, messageId);
    if (message === undefined) return { outcome: 'missing' };
    return { outcome: message.status === 'sending' || message.status === 'queued' ? 'busy' : 'done', message };
  }
}

/**
 * `sending` → `sent`, with the sender's id, and `alsoWrite` (the payment's `dunning_sent`
 * timeline entry) in the same transaction. Guarded by this consumer's own claim, so when a claim
 * was taken over only one completes; false when this claim no longer holds (nothing written).
 */
export async function markMessageSent(
  message: MessageRecord,
  sent: { readonly provider: string; readonly providerMessageId: string },
  now: Date,
  alsoWrite: readonly TransactItem[] = [],
): Promise<boolean> {
  const at = now.toISOString();
  const update: TransactItem = {
    Update: {
      TableName: env.TABLE_NAME,
      Key: messageKeys.message(message.merchant_id, bodyOf(message)),
      UpdateExpression: 'SET #status = :sent, sent_at = :now, updated_at = :now, provider = :provider, provider_message_id = :pmid',
      ConditionExpression: '#status = :sending AND sending_at = :claimed',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':sent': 'sent', ':sending': 'sending', ':claimed': message.sending_at, ':now': at, ':provider': sent.provider, ':pmid': sent.providerMessageId },
    },
  };
  try {
    await documentClient.send(new TransactWriteCommand({ TransactItems: [update, ...alsoWrite] }));
    return true;
  } catch (error) {
    if (error instanceof TransactionCanceledException && error.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') return false;
    throw error;
  }
}

/**
 * Ends a message without sending it: `cancelled` (from this consumer's `sending` claim) or
 * `failed` (from `queued`, when it could not be enqueued). False when it was no longer in
 * the expected state.
 */
export async function closeMessage(message: MessageRecord, status: Extract<MessageStatus, 'cancelled' | 'failed'>, reason: string, now: Date): Promise<boolean> {
  const at = now.toISOString();
  const fromClaim = status === 'cancelled';
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: env.TABLE_NAME,
        Key: messageKeys.message(message.merchant_id, bodyOf(message)),
        UpdateExpression: 'SET #status = :to, status_reason = :reason, updated_at = :now',
        ConditionExpression: fromClaim ? '#status = :from AND sending_at = :claimed' : '#status = :from',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':to': status, ':reason': reason, ':now': at, ':from': fromClaim ? 'sending' : 'queued', ...(fromClaim ? { ':claimed': message.sending_at } : {}) },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
