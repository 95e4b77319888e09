import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { env } from '#shared/env';
import { documentClient } from './client';
import { suppressionEntity } from './entities/suppression';
import { suppressionKeys } from './keys';

/** Why an address is suppressed: the provider reported a permanent bounce, or the recipient marked the email as spam. */
export type SuppressionReason = 'hard_bounce' | 'complaint' | 'unsubscribe';

/** One address on a merchant's email suppression list. */
export interface SuppressionRecord {
  readonly merchant_id: string;
  /** Lowercased and trimmed. */
  readonly email: string;
  readonly customer_id: string;
  readonly reason: SuppressionReason;
  /** The message whose callback suppressed the address (`msg_…`). */
  readonly source_message_id: string;
  readonly created_at: string;
}

/** The form addresses are kept and looked up in. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

/**
 * Adds an address to the merchant's suppression list (`PK M#<m>, SK SUPP#<email>`), tagged with the
 * customer's data key (GSI2) so that erasing the customer removes it. The first reason is kept:
 * a later bounce or complaint for the same address changes nothing. True when it was added now.
 */
export async function suppressEmail(input: Omit<SuppressionRecord, 'created_at'>, now: Date = new Date()): Promise<boolean> {
  const email = normaliseEmail(input.email);
  const record: SuppressionRecord = { ...input, email, created_at: now.toISOString() };
  try {
    await documentClient.send(
      new PutCommand({
        TableName: env.TABLE_NAME,
        Item: suppressionEntity.toItem(record),
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** The suppression of an address for a merchant, or undefined when it may be emailed. */
export async function getSuppression(merchantId: string, email: string): Promise<SuppressionRecord | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: env.TABLE_NAME, Key: suppressionKeys.entry(merchantId, normaliseEmail(email)), ConsistentRead: true }),
  );
  if (Item === undefined) return undefined;
  return suppressionEntity.fromItem(Item);
}
