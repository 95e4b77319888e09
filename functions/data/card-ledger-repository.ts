import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { type CardLedger, emptyLedger } from '#core/card-caps';
import { env } from '#shared/env';
import { documentClient } from './client';
import type { TransactItem } from './customer-repository';
import { customerKeys, ENTITY, retryKeys } from './keys';

/**
 * The card ledgers of the network caps (core/card-caps.ts): one item per merchant and card,
 * versioned, so two attempts on one card at once cannot both take its last allowed slot: each
 * claim writes the ledger with a condition on the version it read, in the same transaction as
 * the payment's attempt. Filed among the customer's data (GSI2), so erasure removes it.
 */
export interface StoredCardLedger {
  readonly ledger: CardLedger;
  /** undefined: no item yet. */
  readonly version: number | undefined;
}

export async function getCardLedger(merchantId: string, identity: string): Promise<StoredCardLedger> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: env.TABLE_NAME, Key: retryKeys.cardLedger(merchantId, identity), ConsistentRead: true }),
  );
  if (Item === undefined) return { ledger: emptyLedger(identity), version: undefined };
  return {
    ledger: {
      identity,
      attempts: (Item.attempts as CardLedger['attempts']) ?? [],
      blocked_until: (Item.blocked_until as string | null) ?? null,
      block_reason: (Item.block_reason as string | null) ?? null,
    },
    version: Item.version as number,
  };
}

/** The conditional Put of a ledger read at `stored.version` (absent when it had no item). */
export function cardLedgerPut(merchantId: string, customerId: string, stored: StoredCardLedger, ledger: CardLedger): TransactItem {
  return {
    Put: {
      TableName: env.TABLE_NAME,
      Item: {
        ...retryKeys.cardLedger(merchantId, ledger.identity),
        entity: ENTITY.cardLedger,
        identity: ledger.identity,
        attempts: ledger.attempts,
        blocked_until: ledger.blocked_until,
        block_reason: ledger.block_reason,
        version: (stored.version ?? 0) + 1,
        GSI2PK: customerKeys.data(merchantId, customerId),
        GSI2SK: retryKeys.cardLedger(merchantId, ledger.identity).SK,
      },
      ...(stored.version === undefined
        ? { ConditionExpression: 'attribute_not_exists(PK)' }
        : { ConditionExpression: 'version = :version', ExpressionAttributeValues: { ':version': stored.version } }),
    },
  };
}
