import { customerIdFor } from '#core/customers';
import { itemsOfPartitions } from './due-index';
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
  const shards = Array.from({ length: CARD_EXPIRY_SHARDS }, (_, shard) => cardExpiryKeys.shardPk(month, shard));
  for await (const item of itemsOfPartitions(shards, ['GSI1SK', 'month', 'year'])) {
    const parsed = cardExpiryKeys.parse(item.GSI1SK as string);
    if (parsed === undefined) continue;
    yield { merchantId: parsed.merchantId, customerId: customerIdFor(parsed.customerBody), month: item.month as number, year: item.year as number };
  }
}
