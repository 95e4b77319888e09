import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { StateConflictError } from '#core/errors';
import { timeOrderedId } from '#core/ids';
import {
  type DeliveryEvent,
  type DeliveryStatus,
  deliveryRank,
  type MessageChannel,
  type MessagePurpose,
  MAX_DELIVERY_EVENTS,
  type MessageRecord,
  type MessageStatus,
  messageBodyOf,
  messageIdFor,
} from '#core/messages';
import type { PaymentRecord } from '#core/payments';
import type { WinBackOffer } from '#core/win-back';
import { env } from '#shared/env';
import { documentClient } from './client';
import { findDueEntries } from './due-index';
import type { TransactItem } from './customer-repository';
import { messageEntity } from './entities/message';
import { ENTITY, MESSAGE_DUE_SHARDS, MESSAGE_ENTITY, messageDueKeys, messageKeys } from './keys';

type Item = Record<string, unknown>;

/**
 * The communication log: one item per message (`msg_<time-ordered body>`), among its customer's
 * data (GSI2) so that erasure removes it. Status changes are conditional writes on the status
 * (and claim) they expect, which is what makes the notifications consumer idempotent.
 */
const bodyOf = (message: MessageRecord): string => messageBodyOf(message.id) as string;

const messageFromItem = (item: Item): MessageRecord => messageEntity.fromItem(item);
const messageItem = (message: MessageRecord): Item => messageEntity.toItem(message);

export async function getMessage(merchantId: string, messageId: string): Promise<MessageRecord | undefined> {
  const body = messageBodyOf(messageId);
  if (body === undefined) return undefined;
  const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: messageKeys.message(merchantId, body), ConsistentRead: true }));
  return Item === undefined ? undefined : messageFromItem(Item);
}

/**
 * Records on a sent message that its recipient unsubscribed through it (`unsubscribed_at`, the
 * first use only): one conditional UpdateItem. False when the message is gone (erased) or already
 * carries an unsubscribe.
 */
export async function markMessageUnsubscribed(merchantId: string, messageId: string, now: Date): Promise<boolean> {
  const body = messageBodyOf(messageId);
  if (body === undefined) return false;
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: env.TABLE_NAME,
        Key: messageKeys.message(merchantId, body),
        UpdateExpression: 'SET unsubscribed_at = :now',
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(unsubscribed_at)',
        ExpressionAttributeValues: { ':now': now.toISOString() },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** A manual dunning email refused because the customer got one less than the cooldown ago. */
export class DunningCooldownError extends StateConflictError {}

export interface NewDunningMessage {
  readonly templateId: string | null;
  readonly subject: string | null;
  /** When to send it: null or absent for now (`queued`), else the end of the quiet period (`scheduled`). */
  readonly scheduledAt?: Date | null;
  /** Manual dunning: the customer takes no other manual dunning email until then (the cooldown item's end). */
  readonly cooldownUntil?: Date;
}

/** Who and what a dunning email about a payment is: to its customer, about it and its recovery. */
export const dunningEmailOf = (payment: PaymentRecord) =>
  ({
    merchantId: payment.merchant_id,
    customerId: payment.customer_id,
    paymentId: payment.id,
    recoveryId: payment.recovery_id,
    channel: 'email',
    purpose: 'dunning',
    to: payment.customer_email,
  }) as const;

/**
 * Records a dunning email for a recovery, addressed to the payment's customer: `queued`
 * to be sent now, or `scheduled` (in the due index) for `scheduledAt`. For manual dunning
 * (`cooldownUntil`), the customer's cooldown item is put in the same transaction, on condition
 * that no cooldown of the customer is still running: of concurrent requests for one customer,
 * exactly one records a message; the others get DunningCooldownError (409) naming when the next
 * is allowed. The cooldown item holds ids only, is filed among the customer's data (erasure) and
 * expires at its end.
 */
export async function createDunningMessage(payment: PaymentRecord, request: NewDunningMessage, now: Date = new Date()): Promise<MessageRecord> {
  const at = now.toISOString();
  const message = newMessageRecord(
    {
      ...dunningEmailOf(payment),
      templateId: request.templateId,
      subject: request.subject,
      scheduledAt: request.scheduledAt ?? null,
    },
    now,
  );
  if (request.cooldownUntil === undefined) {
    await documentClient.send(new PutCommand({ TableName: env.TABLE_NAME, Item: messageItem(message), ConditionExpression: 'attribute_not_exists(PK)' }));
    return message;
  }
  const until = request.cooldownUntil.toISOString();
  try {
    await documentClient.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: env.TABLE_NAME, Item: messageItem(message), ConditionExpression: 'attribute_not_exists(PK)' } },
          {
            Put: {
              TableName: env.TABLE_NAME,
              Item: {
                ...messageDueKeys.cooldown(payment.merchant_id, payment.customer_id),
                ...messageDueKeys.cooldownTag(payment.merchant_id, payment.customer_id),
                entity: MESSAGE_ENTITY.dunningCooldown,
                customer_id: payment.customer_id,
                recovery_id: payment.recovery_id,
                message_id: message.id,
                until,
                expires_at: Math.ceil(request.cooldownUntil.getTime() / 1000),
              },
              ConditionExpression: 'attribute_not_exists(PK) OR #until <= :now',
              ExpressionAttributeNames: { '#until': 'until' },
              ExpressionAttributeValues: { ':now': at },
            },
          },
        ],
      }),
    );
  } catch (error) {
    const reason = error instanceof TransactionCanceledException ? error.CancellationReasons?.[1] : undefined;
    if (reason?.Code !== 'ConditionalCheckFailed') throw error;
    const { Item: standing } = await documentClient.send(
      new GetCommand({ TableName: env.TABLE_NAME, Key: messageDueKeys.cooldown(payment.merchant_id, payment.customer_id), ConsistentRead: true }),
    );
    const next = typeof standing?.until === 'string' ? standing.until : 'later';
    const same = standing?.recovery_id === payment.recovery_id ? 'this recovery' : `recovery ${String(standing?.recovery_id ?? '')} of the same customer`;
    throw new DunningCooldownError(`A dunning email was already sent or scheduled for ${same}; the customer can get the next manual one at ${next}.`);
  }
  return message;
}

/** Any message, of any channel and purpose (campaign steps, SMS, WhatsApp, dunning). */
export interface NewMessage {
  readonly merchantId: string;
  readonly customerId: string;
  /** Null for a customer-level notice (core/messages.ts). */
  readonly paymentId: string | null;
  readonly recoveryId: string | null;
  readonly channel: MessageChannel;
  readonly purpose: MessagePurpose;
  /** An email address for `email`, an E.164 number for `sms` and `whatsapp`. */
  readonly to: string;
  readonly templateId?: string | null;
  readonly subject?: string | null;
  readonly campaignId?: string | null;
  readonly stepIndex?: number | null;
  readonly variant?: string | null;
  /** A WhatsApp template's Content SID (needed outside the 24 h session window). */
  readonly contentSid?: string | null;
  /** The offer of a win-back message. */
  readonly offer?: WinBackOffer | null;
  /** The upcoming charge of a pre-dunning notice (MessageRecord.charge). */
  readonly charge?: MessageRecord['charge'];
  /** When to send it: null or absent for now (`queued`), else later (`scheduled`, in the due index). */
  readonly scheduledAt?: Date | null;
}

/** The record createMessage writes (exported for callers that write it inside their own transaction). */
export function newMessageRecord(input: NewMessage, now: Date = new Date()): MessageRecord {
  const at = now.toISOString();
  return {
    id: messageIdFor(timeOrderedId(now)),
    merchant_id: input.merchantId,
    customer_id: input.customerId,
    payment_id: input.paymentId,
    recovery_id: input.recoveryId,
    channel: input.channel,
    purpose: input.purpose,
    campaign_id: input.campaignId ?? null,
    step_index: input.stepIndex ?? null,
    variant: input.variant ?? null,
    status: input.scheduledAt ? 'scheduled' : 'queued',
    to: input.to,
    template_id: input.templateId ?? null,
    subject: input.subject ?? null,
    content_sid: input.contentSid ?? null,
    ...(input.offer ? { offer: input.offer } : {}),
    ...(input.charge ? { charge: input.charge } : {}),
    scheduled_at: input.scheduledAt?.toISOString() ?? null,
    sending_at: null,
    sent_at: null,
    provider: null,
    provider_message_id: null,
    status_reason: null,
    created_at: at,
    updated_at: at,
  };
}

/** The item of a new message, for a caller's own TransactWriteItems (a Put, on condition that it does not exist). */
export function messagePut(message: MessageRecord): TransactItem {
  return { Put: { TableName: env.TABLE_NAME, Item: messageItem(message), ConditionExpression: 'attribute_not_exists(PK)' } };
}

/**
 * Records a message of any channel and purpose: `queued` (the caller then puts
 * `{ kind: 'send_message', merchant_id, message_id }` on `notifications`) or `scheduled` for
 * `scheduledAt` (the every-minute job releases it). The campaign engine queues its steps with it.
 */
export async function createMessage(input: NewMessage, now: Date = new Date()): Promise<MessageRecord> {
  const message = newMessageRecord(input, now);
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
 * Takes a message for sending: `queued` → `sending`, or `scheduled` → `sending` (only the
 * dispatch job puts a scheduled message on the queue, once due, and it enqueues before it marks
 * the message `queued`; no clock comparison here, so the job's and the consumer's clocks need not
 * agree), or takes over a `sending` claim older than
 * `staleAfterMs` (a consumer that died mid-send; the email port deduplicates by message id, so a
 * take-over sends nothing twice). One conditional UpdateItem: of two concurrent consumers,
 * exactly one claims. The claim takes the message out of the due index.
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
        UpdateExpression: 'SET #status = :sending, sending_at = :now, updated_at = :now REMOVE GSI4PK, GSI4SK',
        ConditionExpression: '#status IN (:queued, :scheduled) OR (#status = :sending AND sending_at < :stale)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':queued': 'queued',
          ':scheduled': 'scheduled',
          ':sending': 'sending',
          ':now': at,
          ':stale': new Date(now.getTime() - staleAfterMs).toISOString(),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return { outcome: 'claimed', message: messageFromItem(Attributes as Item) };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    const message = await getMessage(merchantId, messageId);
    if (message === undefined) return { outcome: 'missing' };
    return { outcome: message.status === 'sending' || message.status === 'queued' || message.status === 'scheduled' ? 'busy' : 'done', message };
  }
}

/** The global reference from the sender's message id to the message (see keys.ts), put with the `sent` transition. */
function providerRefPut(message: MessageRecord, sent: { readonly provider: string; readonly providerMessageId: string }, at: string): TransactItem {
  const key = messageKeys.providerRef(sent.providerMessageId);
  return {
    Put: {
      TableName: env.TABLE_NAME,
      Item: {
        ...key,
        entity: ENTITY.messageRef,
        merchant_id: message.merchant_id,
        message_id: message.id,
        provider: sent.provider,
        provider_message_id: sent.providerMessageId,
        created_at: at,
        ...messageKeys.providerRefTag(message.merchant_id, message.customer_id, sent.providerMessageId),
      },
    },
  };
}

/**
 * `sending` → `sent`, with the sender's id, and `alsoWrite` (the payment's `dunning_sent`
 * timeline entry) in the same transaction, with the `MSGREF#<provider message id>` reference
 * that delivery callbacks find the message by. Guarded by this consumer's own claim, so when a claim
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
      ExpressionAttributeValues: {
        ':sent': 'sent',
        ':sending': 'sending',
        ':claimed': message.sending_at,
        ':now': at,
        ':provider': sent.provider,
        ':pmid': sent.providerMessageId,
      },
    },
  };
  try {
    await documentClient.send(new TransactWriteCommand({ TransactItems: [update, providerRefPut(message, sent, at), ...alsoWrite] }));
    return true;
  } catch (error) {
    if (error instanceof TransactionCanceledException && error.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') return false;
    throw error;
  }
}

/**
 * Ends a message without sending it: `cancelled`, `suppressed` (suppressed address or
 * unsubscribed customer) or `failed` (the channel refused it, e.g. a free-form WhatsApp outside
 * the session window), from this consumer's `sending` claim. False when the claim no longer holds.
 */
export async function closeMessage(
  message: MessageRecord,
  status: Extract<MessageStatus, 'cancelled' | 'suppressed' | 'failed'>,
  reason: string,
  now: Date,
): Promise<boolean> {
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: env.TABLE_NAME,
        Key: messageKeys.message(message.merchant_id, bodyOf(message)),
        UpdateExpression: 'SET #status = :to, status_reason = :reason, updated_at = :now',
        ConditionExpression: '#status = :sending AND sending_at = :claimed',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':to': status, ':reason': reason, ':now': now.toISOString(), ':sending': 'sending', ':claimed': message.sending_at },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * A `queued` message that could not be put on the queue: `failed`; then the customer's
 * manual-dunning cooldown is lifted if this message started it (nothing was sent, so a retry of
 * the request must not be refused; a cooldown another message holds stays). False when the
 * message was no longer `queued` (nothing written).
 */
export async function failUnqueuedMessage(message: MessageRecord, reason: string, now: Date): Promise<boolean> {
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: env.TABLE_NAME,
        Key: messageKeys.message(message.merchant_id, bodyOf(message)),
        UpdateExpression: 'SET #status = :failed, status_reason = :reason, updated_at = :now',
        ConditionExpression: '#status = :queued',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':failed': 'failed', ':queued': 'queued', ':reason': reason, ':now': now.toISOString() },
      }),
    );
    await documentClient.send(
      new DeleteCommand({
        TableName: env.TABLE_NAME,
        Key: messageDueKeys.cooldown(message.merchant_id, message.customer_id),
        ConditionExpression: 'message_id = :id',
        ExpressionAttributeValues: { ':id': message.id },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * Puts a claimed message back to `scheduled` for `scheduledAt` (into the due index, which the
 * every-minute job releases to the queue when due): the consumer found the merchant inside its
 * quiet hours at send time. Guarded by this consumer's own claim; false when it no longer holds.
 */
export async function deferMessage(message: MessageRecord, scheduledAt: Date, now: Date, reason: string | null = null): Promise<boolean> {
  const at = scheduledAt.toISOString();
  const due = messageDueKeys.entry(message.merchant_id, bodyOf(message), at);
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: env.TABLE_NAME,
        Key: messageKeys.message(message.merchant_id, bodyOf(message)),
        UpdateExpression:
          'SET #status = :scheduled, scheduled_at = :at, updated_at = :now, sending_at = :none, status_reason = :reason, GSI4PK = :duePk, GSI4SK = :dueSk',
        ConditionExpression: '#status = :sending AND sending_at = :claimed',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':scheduled': 'scheduled',
          ':sending': 'sending',
          ':claimed': message.sending_at,
          ':at': at,
          ':now': now.toISOString(),
          ':duePk': due.GSI4PK,
          ':dueSk': due.GSI4SK,
          ':none': null,
          ':reason': reason,
        },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** Where a provider's message id points: the merchant and our message id. */
export interface MessageRef {
  readonly merchant_id: string;
  readonly message_id: string;
  readonly provider: string;
}

/** The message a provider's message id names (delivery callbacks), or undefined when unknown. */
export async function getMessageByProviderId(providerMessageId: string): Promise<MessageRecord | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: env.TABLE_NAME, Key: messageKeys.providerRef(providerMessageId), ConsistentRead: true }),
  );
  if (Item === undefined) return undefined;
  const ref = Item as unknown as MessageRef;
  return getMessage(ref.merchant_id, ref.message_id);
}

export type DeliveryEventOutcome = 'recorded' | 'duplicate' | 'missing';

const DELIVERY_AT: Readonly<Record<DeliveryStatus, string>> = {
  delivered: 'delivered_at',
  opened: 'opened_at',
  clicked: 'clicked_at',
  bounced: 'bounced_at',
  complained: 'complained_at',
};

/**
 * Records one delivery callback on a message, idempotently and whatever the order:
 * 1. appends the event and sets its state's timestamp (`opened_at`, first report wins), unless
 *    the event id was already recorded (a conditional write on the set of event ids);
 * 2. moves `delivery_status` only forward (a conditional write on the stored rank), so a late
 *    `delivered` after `clicked` changes nothing.
 * Step 2 runs even for a duplicate, so a callback retried after a failure between the two
 * completes it. `deferred` (soft bounce) events are kept but move nothing.
 */
export async function recordDeliveryEvent(message: MessageRecord, event: DeliveryEvent): Promise<DeliveryEventOutcome> {
  const key = messageKeys.message(message.merchant_id, bodyOf(message));
  const status = event.type === 'deferred' ? undefined : event.type;
  let outcome: DeliveryEventOutcome = 'recorded';
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: env.TABLE_NAME,
        Key: key,
        UpdateExpression: `SET delivery_events = list_append(if_not_exists(delivery_events, :empty), :event), updated_at = :now${status === undefined ? '' : ', #at = if_not_exists(#at, :occurred)'} ADD delivery_event_ids :ids`,
        ConditionExpression:
          'attribute_exists(PK) AND NOT contains(delivery_event_ids, :id) AND (attribute_not_exists(delivery_events) OR size(delivery_events) < :max)',
        ...(status === undefined ? {} : { ExpressionAttributeNames: { '#at': DELIVERY_AT[status] } }),
        ExpressionAttributeValues: {
          ':empty': [],
          ':event': [event],
          ':now': event.received_at,
          ':ids': new Set([event.id]),
          ':id': event.id,
          ':max': MAX_DELIVERY_EVENTS,
          ...(status === undefined ? {} : { ':occurred': event.occurred_at }),
        },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    const current = await getMessage(message.merchant_id, message.id);
    if (current === undefined) return 'missing';
    outcome = 'duplicate';
    // A full event list still lets the state and its timestamp move (below, and here).
    if (
      status !== undefined &&
      (current.delivery_events?.length ?? 0) >= MAX_DELIVERY_EVENTS &&
      !current.delivery_events?.some((kept) => kept.id === event.id)
    ) {
      await documentClient.send(
        new UpdateCommand({
          TableName: env.TABLE_NAME,
          Key: key,
          ConditionExpression: 'attribute_exists(PK)',
          UpdateExpression: 'SET #at = if_not_exists(#at, :occurred)',
          ExpressionAttributeNames: { '#at': DELIVERY_AT[status] },
          ExpressionAttributeValues: { ':occurred': event.occurred_at },
        }),
      );
    }
  }
  if (status !== undefined) {
    try {
      await documentClient.send(
        new UpdateCommand({
          TableName: env.TABLE_NAME,
          Key: key,
          UpdateExpression: 'SET delivery_status = :status, delivery_rank = :rank',
          ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(delivery_rank) OR delivery_rank < :rank)',
          ExpressionAttributeValues: { ':status': status, ':rank': deliveryRank(status) },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
  return outcome;
}

/** A scheduled message the due index says has come (GSI4 is eventually consistent: the claim re-checks). */
export interface DueMessage {
  readonly merchantId: string;
  readonly messageId: string;
  readonly dueAt: string;
}

/**
 * The scheduled messages due at `now` in every shard of the due index (keys.ts messageDueKeys),
 * at most `limit` in all, an even share from each shard: one Query per shard, never a Scan.
 */
export async function findDueMessages(now: Date, limit: number): Promise<DueMessage[]> {
  const entries = await findDueEntries({ shards: MESSAGE_DUE_SHARDS, ...messageDueKeys }, now, limit);
  return entries.map((entry) => ({ merchantId: entry.merchantId, messageId: messageIdFor(entry.body), dueAt: entry.dueAt }));
}

/**
 * `scheduled` → `queued` once the job has put the message on the queue: out of the due index.
 * False when it was no longer scheduled (a consumer claimed it first, or it was erased).
 */
export async function markScheduledMessageQueued(merchantId: string, messageId: string, now: Date): Promise<boolean> {
  const body = messageBodyOf(messageId);
  if (body === undefined) return false;
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: env.TABLE_NAME,
        Key: messageKeys.message(merchantId, body),
        UpdateExpression: 'SET #status = :queued, updated_at = :now REMOVE GSI4PK, GSI4SK',
        ConditionExpression: '#status = :scheduled',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':queued': 'queued', ':scheduled': 'scheduled', ':now': now.toISOString() },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
