import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
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
