import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent, StreamRecord } from 'aws-lambda';
import { projections as allProjections } from '#data/projections/index';
import { incrementsOf } from '#data/projections/increments';
import type { Projection } from '#data/projections/projection';
import { applyChunk, chunkChanges, fitsOneTransaction, type StreamChange, type TransactionSender } from '#data/stream-apply';
import { logger } from '#shared/logger';

/**
 * The consumer of the table's stream (DESIGN §2, "Counters and analytics come from the table's
 * stream"): every counter and rollup item is the sum of the contributions of the items that
 * exist, so for each change it adds contributions(NewImage) − contributions(OldImage) of every
 * projection (functions/data/projections/index.ts).
 *
 * On AWS a Lambda on the stream (lib/constructs/table-stream-consumer.ts: batches, partial batch
 * failure, bisect, DLQ); locally the poller of DynamoDB Local's stream (lib/local/table-stream.ts)
 * calls this same handler with the same event shape.
 *
 * Delivery is at least once: records are applied in chunks of consecutive records, each chunk in
 * one transaction with an applied marker per record (functions/data/stream-apply.ts), so a record
 * delivered twice counts once. When a chunk fails, its first record is reported in
 * `batchItemFailures` and Lambda retries from there; the chunks before it stay applied, and their
 * markers make their redelivery (after a crash, say) a no-op.
 */
export type TableStreamHandler = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>;

export interface TableStreamHandlerOptions {
  /** @default every projection of functions/data/projections/index.ts */
  readonly projections?: readonly Projection[];
  /** Where each chunk's transaction is sent. @default the document client */
  readonly send?: TransactionSender;
}

type Image = Record<string, unknown>;

const imageOf = (image: StreamRecord['NewImage']): Image | undefined => (image === undefined ? undefined : unmarshall(image as Record<string, AttributeValue>));

interface RecordChange extends StreamChange {
  readonly sequenceNumber: string;
}

function changeOf(record: DynamoDBRecord, projections: readonly Projection[]): RecordChange {
  const oldImage = imageOf(record.dynamodb?.OldImage);
  const newImage = imageOf(record.dynamodb?.NewImage);
  const merchant = newImage?.merchant_id ?? oldImage?.merchant_id;
  return {
    eventId: record.eventID as string,
    sequenceNumber: record.dynamodb?.SequenceNumber as string,
    merchantId: typeof merchant === 'string' ? merchant : undefined,
    increments: incrementsOf(projections, oldImage, newImage),
  };
}

export function createTableStreamHandler(options: TableStreamHandlerOptions = {}): TableStreamHandler {
  const projections = options.projections ?? allProjections;
  const send = options.send;
  return async (event) => {
    // Changes in batch order, up to the first record that cannot be applied (an image no projection
    // can read, or more counter items than a transaction holds): that record is reported after the
    // ones before it are applied, so Lambda retries from it and, bisecting, isolates it.
    const changes: RecordChange[] = [];
    let unapplicable: string | undefined;
    for (const record of event.Records) {
      try {
        const change = changeOf(record, projections);
        if (!fitsOneTransaction(change)) throw new Error(`touches more counter items than one transaction holds (${change.increments.length})`);
        changes.push(change);
      } catch (error) {
        unapplicable = record.dynamodb?.SequenceNumber;
        logger.error('stream record not applicable', { event_id: record.eventID, sequence_number: unapplicable, error });
        break;
      }
    }
    let applied = 0;
    for (const chunk of chunkChanges(changes)) {
      try {
        await applyChunk(chunk, send === undefined ? {} : { send });
        applied += chunk.length;
      } catch (error) {
        const first = chunk[0] as RecordChange;
        logger.error('stream chunk failed', { records: event.Records.length, applied, failed_at: first.sequenceNumber, error });
        return { batchItemFailures: [{ itemIdentifier: first.sequenceNumber }] };
      }
    }
    return { batchItemFailures: unapplicable === undefined ? [] : [{ itemIdentifier: unapplicable }] };
  };
}

export const handler: TableStreamHandler = createTableStreamHandler();
