import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { env } from '#shared/env';
import { documentClient } from './client';
import { callbackTokenEntity } from './entities/callback-token';
import { conditions } from './keys';

/**
 * Single-use tokens of signed delivery callbacks. Mailgun-style webhooks sign only
 * `timestamp + token`, not the event data, so a captured signature could carry other event data
 * while its timestamp is fresh; Mailgun's answer is to "cache the token value locally and not
 * honor any subsequent request with the same token"
 * (https://documentation.mailgun.com/docs/mailgun/user-manual/webhooks/securing-webhooks).
 *
 * Each token is one item, `PK CBTOKEN#<sha256 of the token>, SK CBTOKEN#<source>` (not under a
 * merchant: the callbacks come from the service's own provider account, whose tokens are global
 * to the service), written with `attribute_not_exists(PK)`, so of any number of concurrent
 * requests with one token exactly one wins. Only the hash is stored: the item says nothing about
 * the message, the recipient or the merchant, so customer erasure has nothing to find here.
 */

/** The callbacks whose tokens are spent here (one provider account each). */
export type CallbackTokenSource = 'legacy_email';

/**
 * Seconds a token item outlives the last moment its signature could still pass the timestamp
 * check: covers clock differences between the functions that check it. DynamoDB's TTL deletes
 * lazily, never early, so an item is only ever kept longer than this, which refuses nothing more
 * (a token that old fails the timestamp check first).
 */
export const CALLBACK_TOKEN_RETENTION_MARGIN_SECONDS = 300;

/** Lowercase hex SHA-256 of a token: the only form in which tokens are stored. */
export const callbackTokenHash = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

export interface CallbackTokenClaim {
  readonly source: CallbackTokenSource;
  /** The token as the provider sent it (hashed before it is stored). */
  readonly token: string;
  /** Epoch seconds until which the token's signature passes the timestamp check (signed timestamp + tolerance). */
  readonly acceptableUntil: number;
}

/**
 * Spends a verified callback's token: records its hash unless it is recorded already. Call it
 * after the signature verifies and before anything else is written or even parsed, so every
 * verified token is spent whatever becomes of the request (a body we ignore or refuse included).
 * The item expires (TTL `expires_at`) {@link CALLBACK_TOKEN_RETENTION_MARGIN_SECONDS} after
 * `acceptableUntil` (or after `now`, if later).
 *
 * @returns true when the token was not seen before (the request may proceed), false when it was.
 * @example if (!(await claimCallbackToken({ source: 'legacy_email', token, acceptableUntil: timestamp + 300 }))) throw invalidSignature();
 */
export async function claimCallbackToken(claim: CallbackTokenClaim, now: Date = new Date()): Promise<boolean> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  try {
    await documentClient.send(
      new PutCommand({
        TableName: env.TABLE_NAME,
        Item: callbackTokenEntity.toItem(
          {
            source: claim.source,
            created_at: now.toISOString(),
            expires_at: Math.max(claim.acceptableUntil, nowSeconds) + CALLBACK_TOKEN_RETENTION_MARGIN_SECONDS,
          },
          { token_hash: callbackTokenHash(claim.token) },
        ),
        ConditionExpression: conditions.absent,
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
