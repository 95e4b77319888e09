/**
 * Physical key formats of the single table. Nothing outside this module spells a key.
 *
 * Access patterns (pattern | key condition | index):
 * | pattern                                   | key condition                                      | index |
 * |-------------------------------------------|----------------------------------------------------|-------|
 * | merchant by id                            | PK = M#<merchant_id>, SK = MERCHANT                | table |
 * | API key by hash (authentication)          | PK = APIKEY#<sha256>, SK = APIKEY                  | table |
 * | API keys of a merchant                    | PK = M#<merchant_id>, SK begins_with KEY#          | table |
 * | API key by id (revoke)                    | PK = KEYID#<key_id>, SK = APIKEY                   | table |
 * | provider webhook secret of a merchant     | PK = M#<merchant_id>, SK = PSP#<psp>               | table |
 * | provider secrets of a merchant            | PK = M#<merchant_id>, SK begins_with PSP#          | table |
 * | merchants (operator listing, offline)     | GSI1PK = MERCHANTS, GSI1SK = <created_at>#<id>     | GSI1  |
 * | rate-limit window of a key's bucket       | PK = RL#M#<merchant_id>, SK = <bucket>#<start>     | table |
 * | rate-limit window of an IP (widget init)  | PK = RL#IP#<ip>, SK = <bucket>#<start>             | table |
 * | record of an Idempotency-Key              | PK = M#<merchant_id>, SK = IDEM#<sha256 of key>    | table |
 *
 * A few kinds of item do not start with `M#`, by necessity: the API-key hash item (the
 * merchant is not known until the key is read), the key-id lookup (the operator CLI revokes
 * by key id), and rate-limit windows. Windows live under their own `RL#` prefix so that IAM can
 * let read-only functions count requests there and write nowhere else (`dynamodb:LeadingKeys`);
 * a merchant's windows still carry the merchant in the key, and per-IP windows (widget init)
 * count an address across merchants. The first two carry the merchant id as an attribute and are written in the same
 * transaction as the merchant's own key item. Rate-limit windows and idempotency records expire
 * through the TTL attribute.
 *
 * The key-id lookup is an item of the table rather than a GSI1 key so that revoking a key right
 * after creating it reads it with a strongly consistent GetItem (a GSI is eventually consistent),
 * and so that its `attribute_not_exists` condition keeps key ids unique.
 */

export const ENTITY = {
  merchant: 'merchant',
  apiKey: 'api_key',
  apiKeyHash: 'api_key_hash',
  providerSecret: 'provider_secret',
  apiKeyId: 'api_key_id',
  rateLimitWindow: 'rate_limit_window',
  idempotencyRecord: 'idempotency_record',
} as const;

export interface ItemKey {
  readonly PK: string;
  readonly SK: string;
}

const merchantPk = (merchantId: string): string => `M#${merchantId}`;

/** Leading characters of every rate-limit window's partition key (IAM scopes read-only functions' writes to it). */
export const RATE_LIMIT_PREFIX = 'RL#';

export const keys = {
  merchant: (merchantId: string): ItemKey => ({ PK: merchantPk(merchantId), SK: 'MERCHANT' }),
  merchantListing: (createdAt: string, merchantId: string) => ({ GSI1PK: 'MERCHANTS', GSI1SK: `${createdAt}#${merchantId}` }),

  apiKeyByHash: (hash: string): ItemKey => ({ PK: `APIKEY#${hash}`, SK: 'APIKEY' }),
  apiKey: (merchantId: string, keyId: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `KEY#${keyId}` }),
  apiKeyPrefix: (merchantId: string) => ({ PK: merchantPk(merchantId), SKPrefix: 'KEY#' }),
  apiKeyById: (keyId: string): ItemKey => ({ PK: `KEYID#${keyId}`, SK: 'APIKEY' }),

  providerSecret: (merchantId: string, psp: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `PSP#${psp}` }),
  providerSecretPrefix: (merchantId: string) => ({ PK: merchantPk(merchantId), SKPrefix: 'PSP#' }),

  rateLimitWindow: (merchantId: string, bucket: string, windowStart: number): ItemKey => ({ PK: `${RATE_LIMIT_PREFIX}M#${merchantId}`, SK: `${bucket}#${windowStart}` }),
  ipRateLimitWindow: (ip: string, bucket: string, windowStart: number): ItemKey => ({ PK: `${RATE_LIMIT_PREFIX}IP#${ip}`, SK: `${bucket}#${windowStart}` }),

  idempotencyRecord: (merchantId: string, keyHash: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `IDEM#${keyHash}` }),
} as const;

/** Conditions on an item's own key: it exists, or it does not yet. */
export const conditions = {
  exists: 'attribute_exists(PK)',
  absent: 'attribute_not_exists(PK)',
} as const;

/** Key conditions of the Query patterns above, ready to spread into a QueryCommand input. */
export const queries = {
  /** Items of one partition whose sort key starts with a prefix (`apiKeyPrefix`, `providerSecretPrefix`). */
  partitionPrefix: ({ PK, SKPrefix }: { PK: string; SKPrefix: string }) => ({
    KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :sk)',
    ExpressionAttributeNames: { '#pk': 'PK', '#sk': 'SK' },
    ExpressionAttributeValues: { ':pk': PK, ':sk': SKPrefix },
  }),
  /** Every merchant, oldest first: one GSI1 partition, so for the operator and offline use only. */
  merchantListing: () => ({
    IndexName: 'GSI1',
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': 'GSI1PK' },
    ExpressionAttributeValues: { ':pk': 'MERCHANTS' },
  }),
} as const;

