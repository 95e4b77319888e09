import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { env } from '#shared/env';
import { documentClient } from './client';
import { rollupKeys } from './keys';
import { rollupFromItem } from './rollup-queries';

/**
 * The counters of the merchant's COUNT#OPEN item (the payments open now, by status and currency;
 * kept by the table-stream consumer): one GetItem whatever the number of payments, empty until
 * the consumer first writes it. Eventually consistent, like every rollup read.
 */
export async function readOpenStateCounters(merchantId: string): Promise<Readonly<Record<string, number>>> {
  const answer = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: rollupKeys.openState(merchantId) }));
  return answer.Item === undefined ? {} : rollupFromItem(answer.Item).counters;
}
