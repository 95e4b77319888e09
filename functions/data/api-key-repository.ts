import { GetCommand, paginateQuery, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import {
  ApiKeyNotFoundError,
  type ApiKeyRecord,
  type ApiKeyRepository,
  displayPartsOf,
  generateApiKey,
  hashApiKey,
  type NewApiKey,
  newApiKeyId,
} from '#core/api-keys';
import { InvalidExpiryError, MerchantNotFoundError } from '#core/merchants';
import { parseScopes } from '#core/scopes';
import { env } from '#shared/env';
import { documentClient } from './client';
import { failedConditionAt } from './transact';
import { apiKeyEntity, apiKeyHashEntity, apiKeyIdEntity } from './entities/api-key';
import { conditions, type ItemKey, keys, queries } from './keys';

export { isUsable } from '#core/api-keys';

const SHA256_HEX = /^[0-9a-f]{64}$/;

function expiryFrom(createdAt: Date, expiresInSeconds: number | undefined): string | null {
  if (expiresInSeconds === undefined) return null;
  if (!Number.isSafeInteger(expiresInSeconds) || expiresInSeconds <= 0) {
    throw new InvalidExpiryError('expires in must be a positive whole number of seconds', { param: 'expires_in' });
  }
  return new Date(createdAt.getTime() + expiresInSeconds * 1000).toISOString();
}

/** Which item of a cancelled transaction failed its condition, by position. */
/**
 * Creates a key for an existing merchant and returns it with its record; the key is never stored
 * and cannot be shown again. One transaction writes the merchant's key item, the hash item read
 * by authentication and the key-id lookup, and checks that the merchant exists.
 *
 * `expires_at` holds an ISO string: the table's TTL attribute has the same name, but TTL ignores
 * non-numeric values, so an expired key stays listed (and refused) instead of vanishing.
 *
 * @example const { record, key } = await createApiKey({ merchantId, scopes: ['read'], mode: 'test' });
 */
export async function createApiKey(input: NewApiKey): Promise<{ record: ApiKeyRecord; key: string }> {
  const scopes = parseScopes(input.scopes);
  const mode = input.mode ?? 'live';
  const createdAt = new Date();
  const expiresAt = expiryFrom(createdAt, input.expiresInSeconds);
  const key = generateApiKey(mode);
  const hash = hashApiKey(key);
  const record: ApiKeyRecord = {
    id: newApiKeyId(),
    merchant_id: input.merchantId,
    scopes,
    mode,
    ...displayPartsOf(key),
    created_at: createdAt.toISOString(),
    expires_at: expiresAt,
    revoked_at: null,
  };
  try {
    await documentClient.send(
      new TransactWriteCommand({
        TransactItems: [
          { ConditionCheck: { TableName: env.TABLE_NAME, Key: keys.merchant(input.merchantId), ConditionExpression: conditions.exists } },
          {
            Put: {
              TableName: env.TABLE_NAME,
              Item: apiKeyEntity.toItem(record),
              ConditionExpression: conditions.absent,
            },
          },
          {
            Put: {
              TableName: env.TABLE_NAME,
              Item: apiKeyHashEntity.toItem(record, { key_hash: hash }),
              ConditionExpression: conditions.absent,
            },
          },
          {
            Put: {
              TableName: env.TABLE_NAME,
              Item: apiKeyIdEntity.toItem({ id: record.id, merchant_id: record.merchant_id, key_hash: hash }),
              ConditionExpression: conditions.absent,
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (failedConditionAt(error) === 0) throw new MerchantNotFoundError(input.merchantId, { cause: error });
    throw error;
  }
  return { record, key };
}

/**
 * The record of the key with this SHA-256 hex hash, read strongly consistently so that a revoke
 * takes effect on the next request. Usable or not: check `isUsable` before trusting it.
 */
export async function findApiKeyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
  if (!SHA256_HEX.test(hash)) return undefined;
  const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: keys.apiKeyByHash(hash), ConsistentRead: true }));
  return Item === undefined ? undefined : apiKeyHashEntity.fromItem(Item);
}

/**
 * Revokes a key on both of its items at once. Idempotent: revoking again keeps the first
 * `revoked_at`. Throws ApiKeyNotFoundError for an unknown id.
 */
export async function revokeApiKey(keyId: string): Promise<ApiKeyRecord> {
  const { Item: lookupItem } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: keys.apiKeyById(keyId), ConsistentRead: true }));
  if (lookupItem === undefined) throw new ApiKeyNotFoundError(keyId);
  const lookup = apiKeyIdEntity.fromItem(lookupItem);
  const merchantId = lookup.merchant_id;
  const now = new Date().toISOString();
  const revoke = (key: ItemKey) => ({
    Update: {
      TableName: env.TABLE_NAME,
      Key: key,
      UpdateExpression: 'SET revoked_at = :now',
      ConditionExpression: `${conditions.exists} AND (attribute_not_exists(revoked_at) OR attribute_type(revoked_at, :null))`,
      ExpressionAttributeValues: { ':now': now, ':null': 'NULL' },
    },
  });
  try {
    await documentClient.send(
      new TransactWriteCommand({ TransactItems: [revoke(keys.apiKey(merchantId, keyId)), revoke(keys.apiKeyByHash(lookup.key_hash))] }),
    );
  } catch (error) {
    // Both items are only ever revoked together, so a failed condition means already revoked:
    // the first revoked_at stands.
    if (failedConditionAt(error) === undefined) throw error;
  }
  const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: keys.apiKey(merchantId, keyId), ConsistentRead: true }));
  if (Item === undefined) throw new ApiKeyNotFoundError(keyId);
  return apiKeyEntity.fromItem(Item);
}

/** Every key of a merchant (revoked and expired ones included), oldest first. */
export async function listApiKeys(merchantId: string): Promise<ApiKeyRecord[]> {
  const records: ApiKeyRecord[] = [];
  const input = { TableName: env.TABLE_NAME, ConsistentRead: true, ...queries.partitionPrefix(keys.apiKeyPrefix(merchantId)) };
  for await (const page of paginateQuery({ client: documentClient }, input)) {
    for (const item of page.Items ?? []) records.push(apiKeyEntity.fromItem(item));
  }
  return records.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
}

export const apiKeyRepository: ApiKeyRepository = { createApiKey, findApiKeyByHash, revokeApiKey, listApiKeys };
