import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { embedPayment, forgetPayment } from '#services/vectors';
import { isEmbeddable } from '#core/vectors/recovery-features';
import { ENTITY } from '#data/keys';
import { paymentFromItem } from '#data/payment-repository';
import { logger } from '#shared/logger';

type Image = Record<string, unknown>;
const imageOf = (image: Record<string, AttributeValue> | undefined): Image | undefined => (image === undefined ? undefined : (unmarshall(image) as Image));

/**
 * What feeds this processor (the event source mapping's filter on AWS, the local poller's
 * `entities` locally): records of payment items. Only a payment that has just become recovered or
 * terminal is embedded; the others are passed over here (a filter cannot compare the two images).
 */
export const EMBED_SOURCE_ENTITIES = [ENTITY.payment] as const;

/** The payment a record makes recovered or terminal, or undefined when it does not. */
function paymentReaching(record: DynamoDBRecord) {
  const newImage = imageOf(record.dynamodb?.NewImage as Record<string, AttributeValue> | undefined);
  if (newImage === undefined || newImage.entity !== ENTITY.payment) return undefined;
  const oldImage = imageOf(record.dynamodb?.OldImage as Record<string, AttributeValue> | undefined);
  const payment = paymentFromItem(newImage);
  if (!isEmbeddable(payment) || oldImage?.status === payment.status) return undefined;
  return payment;
}

/** The payment a REMOVE record deleted (erasure): its vector goes too. */
function removedPayment(record: DynamoDBRecord): { merchantId: string; id: string } | undefined {
  if (record.eventName !== 'REMOVE') return undefined;
  const oldImage = imageOf(record.dynamodb?.OldImage as Record<string, AttributeValue> | undefined);
  if (oldImage?.entity !== ENTITY.payment || typeof oldImage.merchant_id !== 'string' || typeof oldImage.id !== 'string') return undefined;
  return { merchantId: oldImage.merchant_id, id: oldImage.id };
}

/**
 * Auto-embedding (issue 15: "Recovered and terminal payments embed themselves"): a small
 * processor of the table's stream, apart from the counters' consumer (its own event source
 * mapping, filtered to payment records, so a failure here never holds the counters back, nor the
 * other way round). Each payment that has just become recovered or terminal is embedded under its
 * own id (services/vectors.ts embedPayment), so a record delivered twice writes the same vector
 * again: idempotent. A payment deleted (erasure) takes its vector with it: records of one item come
 * in order, so its embedding is never applied after its removal. A failure is reported as a
 * partial batch failure, and the batch is retried from that record.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  for (const record of event.Records) {
    try {
      const removed = removedPayment(record);
      if (removed !== undefined) await forgetPayment(removed.merchantId, removed.id);
      const payment = paymentReaching(record);
      if (payment !== undefined) await embedPayment(payment);
    } catch (error) {
      logger.error('payment not embedded', { event_id: record.eventID, error });
      return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber as string }] };
    }
  }
  return { batchItemFailures: [] };
}
