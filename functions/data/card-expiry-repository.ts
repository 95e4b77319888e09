import { paginateQuery } from '@aws-sdk/lib-dynamodb';
import { customerIdFor } from '#core/customers';
import { env } from '#shared/env';
import { documentClient } from './client';
import { CARD_EXPIRY_SHARDS, cardExpiryKeys } from './keys';

/** A customer whose card expires in the month asked for, as the index gives it (eventually consistent: callers re-read the customer). */
export interface ExpiringCard {
  readonly merchantId: string;
  readonly customerId: string;
  readonly month: number;
  readonly year: number;
}

/**
 * Every customer, of every merchant, whose card on file expires in `month` (`YYYY-MM`): one paged
 * Query per shard of the card-expiry index (GSI1, keys.ts `cardExpiryKeys`), never a Scan.
 *
 * @example for await (const card of cardsExpiringIn('2026-12')) ...
 */
export async function* cardsExpiringIn(month: string): AsyncGenerator<ExpiringCard> {
  for (let shard = 0; shard < CARD_EXPIRY_SHARDS; shard += 1) {
    const pages = paginateQuery(
      { client: documentClient, pageSize: 500 },
      {
        TableName: env.TABLE_NAME,
        IndexName: 'GSI1',
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': 'GSI1PK', '#sk': 'GSI1SK', '#month': 'month', '#year': 'year' },
        ExpressionAttributeValues: { ':pk': cardExpiryKeys.shardPk(month, shard) },
        ProjectionExpression: '#sk, #month, #year',
      },
    );
    for await (const page of pages) {
      for (const item of page.Items ?? []) {
        const parsed = cardExpiryKeys.parse(item.GSI1SK as string);
        if (parsed === undefined) continue;
        yield { merchantId: parsed.merchantId, customerId: customerIdFor(parsed.customerBody), month: item.month as number, year: item.year as number };
      }
    }
  }
}
