/**
 * Physical key formats of the single table. Nothing outside this module spells a key.
 *
 * Access patterns (pattern | key condition | index):
 * | pattern                                   | key condition                                      | index |
 * |-------------------------------------------|----------------------------------------------------|-------|
 * | merchant by id                            | PK = M#<merchant_id>, SK = MERCHANT                | table |
 * | API key by hash (authentication)          | PK = APIKEY#<sha256>, SK = APIKEY                  | table |
 * | API keys of a merchant                    | PK = M#<merchant_id>, SK begins_with KEY#          | table |
 * | API key by id (revoke)                    | GSI1PK = KEYID#<key_id>                            | GSI1  |
 * | provider webhook secret of a merchant     | PK = M#<merchant_id>, SK = PSP#<psp>               | table |
 * | provider secrets of a merchant            | PK = M#<merchant_id>, SK begins_with PSP#          | table |
 * | merchants (operator listing, offline)     | GSI1PK = MERCHANTS, GSI1SK = <created_at>#<id>     | GSI1  |
 *
 * Two kinds of item do not start with the merchant, by necessity: the API-key hash item (the
 * merchant is not known until the key is read) and the key-id lookup (the operator CLI revokes
 * by key id). Both carry the merchant id as an attribute and are written in the same transaction
 * as the merchant's own key item.
 */

export const ENTITY = {
  merchant: 'merchant',
  apiKey: 'api_key',
  apiKeyHash: 'api_key_hash',
  providerSecret: 'provider_secret',
} as const;

export interface ItemKey {
  readonly PK: string;
  readonly SK: string;
}

const merchantPk = (merchantId: string): string => `M#${merchantId}`;

export const keys = {
  merchant: (merchantId: string): ItemKey => ({ PK: merchantPk(merchantId), SK: 'MERCHANT' }),
  merchantListing: (createdAt: string, merchantId: string) => ({ GSI1PK: 'MERCHANTS', GSI1SK: `${createdAt}#${merchantId}` }),

  apiKeyByHash: (hash: string): ItemKey => ({ PK: `APIKEY#${hash}`, SK: 'APIKEY' }),
  apiKey: (merchantId: string, keyId: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `KEY#${keyId}` }),
  apiKeyPrefix: (merchantId: string) => ({ PK: merchantPk(merchantId), SKPrefix: 'KEY#' }),
  apiKeyIdLookup: (keyId: string) => ({ GSI1PK: `KEYID#${keyId}`, GSI1SK: 'APIKEY' }),

  providerSecret: (merchantId: string, psp: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `PSP#${psp}` }),
  providerSecretPrefix: (merchantId: string) => ({ PK: merchantPk(merchantId), SKPrefix: 'PSP#' }),
} as const;
