import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { timeOrderedId } from '#core/ids';
import type { Psp } from '#core/providers';
import { env } from '#shared/env';
import { documentClient } from './client';
import { deadLetteredEventEntity, deadLetteredEventIdFor } from './entities/dead-lettered-event';
import { deadLetterKeys, queries } from './keys';

/** As long as the DLQ keeps the message and the stored delivery it names (30 days, the longer). */
export const DEAD_LETTERED_EVENT_RETENTION_SECONDS = 30 * 24 * 3600;

/**
 * Inbound provider events the service dropped: their queue message failed `maxReceiveCount` times
 * and went to the dead-letter queue. One item per dead-lettered message, under the merchant, so
 * the integrations health routes (a later issue) can show a merchant the deliveries it lost.
 * Ids, the provider, a reason code and a time only: no payload, no personal data (the payload
 * stays in the stored delivery, which erasure and its own 30-day expiry govern).
 */
export interface DeadLetteredEvent {
  /** `dle_<time-ordered body>`. */
  readonly id: string;
  readonly merchant_id: string;
  readonly provider: Psp;
  /** The provider's event ids the delivery carries (a batch carries several); empty when its body could not be read. */
  readonly event_ids: readonly string[];
  /** The stored delivery (`whk_…`) a redrive processes again. */
  readonly webhook_log_id: string;
  /** Why the last attempt failed: a code from the error's class (`provider_api_key_missing`, `unknown_webhook_customer`, …), never its message. */
  readonly reason: string;
  readonly dead_lettered_at: string;
  /** When an operator redrove it (`dlq redrive`); absent until then. */
  readonly redriven_at?: string;
  /**
   * What the redrive did with it: `succeeded` (processed now) or `dead_lettered` (failed again: a
   * new record names the new failure). Marked by the local redrive, which runs the consumer; on
   * AWS a redrive is SQS's move task, which reports no message's fate, so records stay unmarked.
   */
  readonly redrive_outcome?: DeadLetterRedriveOutcome;
}

export type DeadLetterRedriveOutcome = 'succeeded' | 'dead_lettered';

export interface NewDeadLetteredEvent {
  readonly merchantId: string;
  readonly provider: Psp;
  readonly eventIds: readonly string[];
  readonly webhookLogId: string;
  readonly reason: string;
}

/** The reason code of an error: its class name in snake case without `Error` (`ProviderApiKeyMissingError` → `provider_api_key_missing`). */
export function deadLetterReasonOf(error: unknown): string {
  const name = error instanceof Error ? error.name : '';
  const code = name
    .replace(/Error$|Exception$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9_]/g, '')
    .toLowerCase();
  return code === '' ? 'processing_error' : code;
}

export async function recordDeadLetteredEvent(input: NewDeadLetteredEvent, now: Date = new Date()): Promise<DeadLetteredEvent> {
  const body = timeOrderedId(now);
  const record: DeadLetteredEvent = {
    id: deadLetteredEventIdFor(body),
    merchant_id: input.merchantId,
    provider: input.provider,
    event_ids: [...input.eventIds],
    webhook_log_id: input.webhookLogId,
    reason: input.reason,
    dead_lettered_at: now.toISOString(),
  };
  await documentClient.send(
    new PutCommand({
      TableName: env.TABLE_NAME,
      Item: deadLetteredEventEntity.toItem({ ...record, expires_at: Math.floor(now.getTime() / 1000) + DEAD_LETTERED_EVENT_RETENTION_SECONDS }),
    }),
  );
  return record;
}

/** The merchant's dead-lettered inbound events, newest first. */
export async function listDeadLetteredEvents(merchantId: string, limit = 50): Promise<DeadLetteredEvent[]> {
  const { Items } = await documentClient.send(
    new QueryCommand({
      TableName: env.TABLE_NAME,
      ...queries.partitionPrefix(deadLetterKeys.inboundEventPrefix(merchantId)),
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return (Items ?? []).map((item) => deadLetteredEventEntity.fromItem(item));
}

/**
 * Marks the dead-lettered events of a redriven queue message (its body names the merchant and the
 * stored delivery) with the redrive's time and outcome. Only records not marked before change (a
 * conditional update): a second redrive of the same delivery leaves the first mark. One Query of
 * the merchant's records (30 days at most, by their expiry) and one UpdateItem per record; an
 * operator action, never on the request path. Answers how many records it marked.
 */
export async function markDeadLetteredEventsRedriven(messageBody: unknown, outcome: DeadLetterRedriveOutcome, now: Date = new Date()): Promise<number> {
  const named = messageBody as { merchant_id?: unknown; webhook_log_id?: unknown } | null;
  if (typeof named?.merchant_id !== 'string' || typeof named.webhook_log_id !== 'string') return 0;
  const prefix = queries.partitionPrefix(deadLetterKeys.inboundEventPrefix(named.merchant_id));
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: env.TABLE_NAME,
      ...prefix,
      FilterExpression: 'webhook_log_id = :delivery AND attribute_not_exists(redriven_at)',
      ExpressionAttributeValues: { ...prefix.ExpressionAttributeValues, ':delivery': named.webhook_log_id },
    }),
  );
  let marked = 0;
  for (const item of Items) {
    try {
      await documentClient.send(
        new UpdateCommand({
          TableName: env.TABLE_NAME,
          Key: { PK: item.PK, SK: item.SK },
          UpdateExpression: 'SET redriven_at = :at, redrive_outcome = :outcome',
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(redriven_at)',
          ExpressionAttributeValues: { ':at': now.toISOString(), ':outcome': outcome },
        }),
      );
      marked += 1;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
  return marked;
}
