import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { env } from '#shared/env';
import { documentClient } from './client';
import { type UpdatePaymentLink, updatePaymentTokenEntity } from './entities/update-payment-token';
import { conditions, hostedKeys } from './keys';

export type { UpdatePaymentLink } from './entities/update-payment-token';

/** Stores a new link under the hash of its token (a token is never stored, and never reused). */
export async function putUpdatePaymentLink(link: UpdatePaymentLink, tokenHash: string): Promise<void> {
  await documentClient.send(
    new PutCommand({
      TableName: env.TABLE_NAME,
      Item: updatePaymentTokenEntity.toItem(link, { token_hash: tokenHash }),
      ConditionExpression: conditions.absent,
    }),
  );
}

/** The link of a token's hash, expired or not (the caller checks `expires_at`: TTL deletion is lazy), or undefined. */
export async function getUpdatePaymentLink(tokenHash: string): Promise<UpdatePaymentLink | undefined> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: hostedKeys.updatePaymentToken(tokenHash) }));
  return Item === undefined ? undefined : updatePaymentTokenEntity.fromItem(Item);
}

/**
 * Counts a click on the link (`clicks`, and `clicked_at` the first time): the record of clicks on
 * links no message carries (the widget's). A link erased meanwhile is left alone.
 */
export async function markUpdatePaymentLinkClicked(tokenHash: string, at: Date): Promise<void> {
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: env.TABLE_NAME,
        Key: hostedKeys.updatePaymentToken(tokenHash),
        UpdateExpression: 'SET clicked_at = if_not_exists(clicked_at, :at) ADD clicks :one',
        ConditionExpression: conditions.exists,
        ExpressionAttributeValues: { ':at': at.toISOString(), ':one': 1 },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}
