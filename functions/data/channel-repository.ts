import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, GetCommand, paginateQuery, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { MessageChannel } from '#core/messages';
import { type SendingCounts, type SendingPause, pauseReason, windowDays } from '#core/sending-pause';
import { env } from '#shared/env';
import { documentClient } from './client';
import { CHANNEL_ENTITY, channelKeys, customerTags, queries } from './keys';

type Item = Record<string, unknown>;

/**
 * Items of the sending channels (keys.ts `channelKeys`): what an adapter sent for a message (so a
 * resend returns the first result), the local SMS/WhatsApp sender's messages, customers'
 * unsubscribes, and the merchant's sending counters and pause.
 */

/** What an adapter sent for a message: ids only. */
export interface SentMarker {
  readonly provider: string;
  readonly providerMessageId: string;
}

/** The first send of a message by an adapter, if it was sent already. */
export async function getSentMarker(merchantId: string, messageBody: string): Promise<SentMarker | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: env.TABLE_NAME, Key: channelKeys.sentMarker(merchantId, messageBody), ConsistentRead: true }),
  );
  return Item === undefined ? undefined : { provider: String(Item.provider), providerMessageId: String(Item.provider_message_id) };
}

/** Records a send; the first one wins (a concurrent second send gets the first's marker back). */
export async function putSentMarker(
  merchantId: string,
  customerId: string,
  messageBody: string,
  sent: SentMarker,
  now: Date = new Date(),
): Promise<SentMarker> {
  const key = channelKeys.sentMarker(merchantId, messageBody);
  try {
    await documentClient.send(
      new PutCommand({
        TableName: env.TABLE_NAME,
        Item: {
          ...key,
          entity: CHANNEL_ENTITY.sentMarker,
          provider: sent.provider,
          provider_message_id: sent.providerMessageId,
          created_at: now.toISOString(),
          ...customerTags.record(merchantId, customerId, key),
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
    return sent;
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    return (await getSentMarker(merchantId, messageBody)) ?? sent;
  }
}

/** An SMS or WhatsApp message as the local messaging sender keeps it. */
export interface LocalMessage {
  readonly id: string;
  readonly merchant_id: string;
  readonly customer_id: string;
  readonly message_id: string;
  readonly channel: Exclude<MessageChannel, 'email'>;
  readonly to: string;
  readonly body: string;
  readonly content_sid: string | null;
  readonly created_at: string;
}

const localMessageOf = (item: Item): LocalMessage => {
  const { PK: _pk, SK: _sk, entity: _entity, GSI2PK: _1, GSI2SK: _2, ...message } = item;
  return message as unknown as LocalMessage;
};

/** Stores one local SMS/WhatsApp (once per message: a second store keeps the first). */
export async function putLocalMessage(message: LocalMessage, messageBody: string): Promise<LocalMessage> {
  const key = channelKeys.localMessage(message.merchant_id, messageBody);
  try {
    await documentClient.send(
      new PutCommand({
        TableName: env.TABLE_NAME,
        Item: { ...key, entity: CHANNEL_ENTITY.localMessage, ...message, ...customerTags.record(message.merchant_id, message.customer_id, key) },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
    return message;
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: key, ConsistentRead: true }));
    return Item === undefined ? message : localMessageOf(Item);
  }
}

/** The merchant's local SMS/WhatsApp, newest first, optionally of one channel (operator CLI `messages list`). */
export async function listLocalMessages(merchantId: string, query: { readonly channel?: 'sms' | 'whatsapp'; readonly limit: number }): Promise<LocalMessage[]> {
  const out: LocalMessage[] = [];
  const input = { TableName: env.TABLE_NAME, ...queries.partitionPrefix(channelKeys.localMessagePrefix(merchantId)), ScanIndexForward: false };
  for await (const page of paginateQuery({ client: documentClient, pageSize: Math.min(Math.max(query.limit, 25), 1000) }, input)) {
    for (const item of page.Items ?? []) {
      const message = localMessageOf(item);
      if (query.channel !== undefined && message.channel !== query.channel) continue;
      out.push(message);
      if (out.length >= query.limit) return out;
    }
  }
  return out;
}

/** A customer's unsubscribe: nothing more is sent to them, on any channel. */
export interface UnsubscribeRecord {
  readonly merchant_id: string;
  readonly customer_id: string;
  /** The channel of the message whose link or header they used. */
  readonly channel: MessageChannel;
  readonly message_id: string;
  readonly created_at: string;
}

/** Records an unsubscribe (the first is kept). True when it is new. */
export async function putUnsubscribe(record: UnsubscribeRecord): Promise<boolean> {
  const key = channelKeys.unsubscribe(record.merchant_id, record.customer_id);
  try {
    await documentClient.send(
      new PutCommand({
        TableName: env.TABLE_NAME,
        Item: { ...key, entity: CHANNEL_ENTITY.unsubscribe, ...record, ...customerTags.record(record.merchant_id, record.customer_id, key) },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

export async function getUnsubscribe(merchantId: string, customerId: string): Promise<UnsubscribeRecord | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: env.TABLE_NAME, Key: channelKeys.unsubscribe(merchantId, customerId), ConsistentRead: true }),
  );
  if (Item === undefined) return undefined;
  const { PK: _pk, SK: _sk, entity: _entity, GSI2PK: _1, GSI2SK: _2, ...record } = Item;
  return record as unknown as UnsubscribeRecord;
}

export type SendingCounter = keyof SendingCounts;

/**
 * Adds to one of the merchant's counters of the day (`sent` by the consumer, `bounced` and
 * `complained` by the delivery callbacks). One UpdateItem ADD; a retried callback may count
 * twice (the callbacks count only a first-recorded event, which keeps that rare).
 */
export async function countSending(merchantId: string, counter: SendingCounter, now: Date = new Date(), by = 1): Promise<void> {
  const day = now.toISOString().slice(0, 10);
  await documentClient.send(
    new UpdateCommand({
      TableName: env.TABLE_NAME,
      Key: channelKeys.sendingStatsDay(merchantId, day),
      UpdateExpression: 'SET entity = :entity, #day = :day ADD #counter :by',
      ExpressionAttributeNames: { '#counter': counter, '#day': 'day' },
      ExpressionAttributeValues: { ':entity': CHANNEL_ENTITY.sendingStats, ':day': day, ':by': by },
    }),
  );
}

/** The merchant's counts over the window ending at `now` (one BatchGetItem of the day items). */
export async function sendingCounts(merchantId: string, now: Date = new Date()): Promise<SendingCounts> {
  const keys = windowDays(now).map((day) => channelKeys.sendingStatsDay(merchantId, day));
  let pending: Item[] = keys.map((key) => ({ ...key }));
  const total = { sent: 0, bounced: 0, complained: 0 };
  for (let attempt = 0; pending.length > 0 && attempt < 5; attempt += 1) {
    const result = await documentClient.send(new BatchGetCommand({ RequestItems: { [env.TABLE_NAME]: { Keys: pending, ConsistentRead: true } } }));
    for (const item of result.Responses?.[env.TABLE_NAME] ?? []) {
      total.sent += Number(item.sent ?? 0);
      total.bounced += Number(item.bounced ?? 0);
      total.complained += Number(item.complained ?? 0);
    }
    pending = (result.UnprocessedKeys?.[env.TABLE_NAME]?.Keys as Item[] | undefined) ?? [];
  }
  return total;
}

/** The pause item: `paused` (sending held) or `lifted` (by an operator; its counts are the baseline judged from). */
type PauseItem = (SendingPause & { readonly state: 'paused' }) | { readonly state: 'lifted'; readonly lifted_at: string; readonly baseline: SendingCounts };

async function getPauseItem(merchantId: string): Promise<PauseItem | undefined> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: channelKeys.sendingPause(merchantId), ConsistentRead: true }));
  if (Item === undefined) return undefined;
  const { PK: _pk, SK: _sk, entity: _entity, ...rest } = Item;
  return rest as unknown as PauseItem;
}

const pauseOf = (item: PauseItem & { readonly state: 'paused' }): SendingPause => {
  const { state: _state, ...pause } = item;
  return pause;
};

/** The merchant's standing sending pause, or undefined when it sends (the campaign detail shows it). */
export async function getSendingPause(merchantId: string): Promise<SendingPause | undefined> {
  const item = await getPauseItem(merchantId);
  return item?.state === 'paused' ? pauseOf(item) : undefined;
}

/**
 * Judges the merchant's counts and pauses its sending when a threshold is passed: puts the
 * `sending_paused` record (the first pause is kept: its `since` says since when). After an
 * operator lifted a pause, only what happened since counts (the counts at the lift are a
 * baseline), so one bad month does not pause the merchant again at once. Returns the pause in
 * force, if any.
 */
export async function judgeSending(merchantId: string, now: Date = new Date()): Promise<SendingPause | undefined> {
  const standing = await getPauseItem(merchantId);
  if (standing?.state === 'paused') return pauseOf(standing);
  const window = await sendingCounts(merchantId, now);
  const base = standing?.state === 'lifted' ? standing.baseline : { sent: 0, bounced: 0, complained: 0 };
  const counts: SendingCounts = {
    sent: Math.max(0, window.sent - base.sent),
    bounced: Math.max(0, window.bounced - base.bounced),
    complained: Math.max(0, window.complained - base.complained),
  };
  const reason = pauseReason(counts);
  if (reason === undefined) return undefined;
  const pause: SendingPause = {
    merchant_id: merchantId,
    reason,
    bounce_rate: counts.bounced / counts.sent,
    complaint_rate: counts.complained / counts.sent,
    counts,
    since: now.toISOString(),
  };
  try {
    await documentClient.send(
      new PutCommand({
        TableName: env.TABLE_NAME,
        Item: { ...channelKeys.sendingPause(merchantId), entity: CHANNEL_ENTITY.sendingPause, state: 'paused', ...pause },
        ConditionExpression: 'attribute_not_exists(PK) OR #state = :lifted',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':lifted': 'lifted' },
      }),
    );
    return pause;
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    return getSendingPause(merchantId);
  }
}

/**
 * Lifts the merchant's sending pause (operator: `admin sending resume`): held messages go out at
 * their next release, and judging starts again from the counts of this moment (see judgeSending).
 * Returns the pause lifted, or undefined when there was none (nothing is written then).
 */
export async function resumeSending(merchantId: string, now: Date = new Date()): Promise<SendingPause | undefined> {
  const standing = await getPauseItem(merchantId);
  if (standing?.state !== 'paused') return undefined;
  const baseline = await sendingCounts(merchantId, now);
  try {
    await documentClient.send(
      new PutCommand({
        TableName: env.TABLE_NAME,
        Item: { ...channelKeys.sendingPause(merchantId), entity: CHANNEL_ENTITY.sendingPause, state: 'lifted', lifted_at: now.toISOString(), baseline },
        ConditionExpression: '#state = :paused',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':paused': 'paused' },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    return undefined;
  }
  return pauseOf(standing);
}
