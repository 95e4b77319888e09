import { paginateQuery } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '#data/client';
import { keys } from '#data/keys';

/** Every item of a merchant's partition (PK = the merchant's), to show that a refused request wrote nothing. */
export async function merchantItems(merchantId: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  const input = {
    TableName: process.env.TABLE_NAME as string,
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.merchant(merchantId).PK },
    ConsistentRead: true,
  };
  for await (const page of paginateQuery({ client: documentClient }, input)) items.push(...(page.Items ?? []));
  return items;
}
