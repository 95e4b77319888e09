import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ExportCounts, ExportJobRecord } from '#core/exports';
import { timeOrderedId } from '#core/ids';
import { env } from '#shared/env';
import { documentClient } from './client';
import { exportJobBodyOf, exportJobEntity, exportJobIdFor } from './entities/export-job';
import { conditions, internalKeys } from './keys';

export { exportJobBodyOf } from './entities/export-job';

const NO_COUNTS: ExportCounts = { payments: 0, recoveries: 0, customers: 0 };

/** Records a new export job of the merchant, `running` (a conditional put: ids never collide). */
export async function createExportJob(merchantId: string, contentType: string, now: Date = new Date()): Promise<ExportJobRecord> {
  const job: ExportJobRecord = {
    id: exportJobIdFor(timeOrderedId(now)),
    merchant_id: merchantId,
    state: 'running',
    content_type: contentType,
    counts: NO_COUNTS,
    size: 0,
    location: null,
    error: null,
    created_at: now.toISOString(),
    finished_at: null,
  };
  await documentClient.send(new PutCommand({ TableName: env.TABLE_NAME, Item: exportJobEntity.toItem(job), ConditionExpression: conditions.absent }));
  return job;
}

/** How a job ended. */
export type ExportJobOutcome =
  | { readonly state: 'succeeded'; readonly counts: ExportCounts; readonly size: number; readonly location: string }
  | { readonly state: 'failed'; readonly counts: ExportCounts; readonly error: string };

/**
 * Ends a running job: a conditional update on `state = running`, so a job ends once. Returns the
 * job as it now is; undefined when it is not running (ended already, or absent).
 */
export async function finishExportJob(job: ExportJobRecord, outcome: ExportJobOutcome, now: Date = new Date()): Promise<ExportJobRecord | undefined> {
  const body = exportJobBodyOf(job.id);
  if (body === undefined) return undefined;
  const ended: ExportJobRecord = {
    ...job,
    state: outcome.state,
    counts: outcome.counts,
    size: outcome.state === 'succeeded' ? outcome.size : 0,
    location: outcome.state === 'succeeded' ? outcome.location : null,
    error: outcome.state === 'failed' ? outcome.error : null,
    finished_at: now.toISOString(),
  };
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: env.TABLE_NAME,
        Key: internalKeys.exportJob(job.merchant_id, body),
        UpdateExpression: 'SET #state = :state, counts = :counts, #size = :size, #location = :location, #error = :error, finished_at = :finished',
        ConditionExpression: `${conditions.exists} AND #state = :running`,
        ExpressionAttributeNames: { '#state': 'state', '#size': 'size', '#location': 'location', '#error': 'error' },
        ExpressionAttributeValues: {
          ':state': ended.state,
          ':counts': ended.counts,
          ':size': ended.size,
          ':location': ended.location,
          ':error': ended.error,
          ':finished': ended.finished_at,
          ':running': 'running',
        },
      }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
  return ended;
}

/** One of the merchant's export jobs; undefined for an id of another shape, another merchant's job, or none. */
export async function getExportJob(merchantId: string, id: string): Promise<ExportJobRecord | undefined> {
  const body = exportJobBodyOf(id);
  if (body === undefined) return undefined;
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: env.TABLE_NAME, Key: internalKeys.exportJob(merchantId, body), ConsistentRead: true }),
  );
  return Item === undefined ? undefined : exportJobEntity.fromItem(Item);
}
