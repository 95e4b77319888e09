import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { outboundEventEntity } from '#data/entities/outbound-event';
import { ENTITY } from '#data/keys';
import { dispatchOutboundEvent } from '#services/dispatch-outbound-event';
import { logger } from '#shared/logger';

/**
 * The dispatcher: a second consumer of the table's stream, invoked only for INSERTs of outbound
 * event items (the outbox; on AWS the event source mapping's filter criteria,
 * lib/constructs/outbound-dispatch-consumer.ts; locally the second LocalTableStream of
 * lib/local/local-runtime.ts). Each event is fanned out to its targets
 * (services/dispatch-outbound-event.ts), in parallel across the batch: a slow enqueue of one
 * event does not hold the others. A record that fails is reported (the lowest sequence number of
 * the failures), so Lambda retries from it; the events after it that did dispatch are claimed, and
 * their redelivery is a no-op.
 */
export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const outcomes = await Promise.all(
    event.Records.map(async (record) => {
      const image = record.dynamodb?.NewImage;
      if (record.eventName !== 'INSERT' || image === undefined) return undefined;
      const item = unmarshall(image as Record<string, AttributeValue>);
      if (item.entity !== ENTITY.outboundEvent) return undefined;
      try {
        const outbound = outboundEventEntity.fromItem(item);
        const result = await dispatchOutboundEvent(outbound);
        logger.debug('outbound event dispatched', { merchant_id: outbound.merchant_id, event_id: outbound.id, ...result });
        return undefined;
      } catch (error) {
        logger.error('outbound event dispatch failed', { event_id: record.eventID, error });
        return record.dynamodb?.SequenceNumber ?? '';
      }
    }),
  );
  const failed = outcomes.filter((sequence): sequence is string => sequence !== undefined);
  // Stream sequence numbers are decimal strings of one shard: the earliest sorts first by length, then value.
  failed.sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  return { batchItemFailures: failed.length === 0 ? [] : [{ itemIdentifier: failed[0] as string }] };
};
