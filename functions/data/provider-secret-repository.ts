import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import {
  InvalidProviderSecretError,
  MerchantNotFoundError,
  type ProviderSecret,
  type ProviderSecretRepository,
  type ProviderSecretSummary,
  UnknownPspError,
} from '#core/merchants';
import { isPsp, type Psp } from '#core/providers';
import { env } from '#shared/env';
import { documentClient } from './client';
import { conditions, ENTITY, type ItemKey, keys } from './keys';

/**
 * Providers' webhook signing secrets, one item per merchant and psp.
 *
 * The secret is a plain attribute: the table is encrypted at rest (DynamoDB always encrypts; the
 * data stack chooses the key), only the webhook verifiers read it, and it never leaves through
 * the API, the CLI or the logs: writers get a ProviderSecretSummary back, which has no secret.
 */
const MAX_SECRET_LENGTH = 4096;

function checkedPsp(psp: string): Psp {
  if (!isPsp(psp)) throw new UnknownPspError(psp);
  return psp;
}

/**
 * Stores one credential of a merchant for a provider (webhook secret or API key) in its own item,
 * refusing an unknown merchant in the same transaction.
 */
async function storeCredential(
  merchantId: string,
  provider: Psp,
  key: ItemKey,
  entity: string,
  attribute: 'secret' | 'api_key',
  value: string,
): Promise<ProviderSecretSummary> {
  const now = new Date().toISOString();
  try {
    await documentClient.send(
      new TransactWriteCommand({
        TransactItems: [
          { ConditionCheck: { TableName: env.TABLE_NAME, Key: keys.merchant(merchantId), ConditionExpression: conditions.exists } },
          {
            Update: {
              TableName: env.TABLE_NAME,
              Key: key,
              UpdateExpression:
                'SET #entity = :entity, #merchant = :merchant, #psp = :psp, #value = :value, #updated = :now, #created = if_not_exists(#created, :now)',
              ExpressionAttributeNames: {
                '#entity': 'entity',
                '#merchant': 'merchant_id',
                '#psp': 'psp',
                '#value': attribute,
                '#updated': 'updated_at',
                '#created': 'created_at',
              },
              ExpressionAttributeValues: { ':entity': entity, ':merchant': merchantId, ':psp': provider, ':value': value, ':now': now },
            },
          },
        ],
      }),
    );
  } catch (error) {
    const reasons = error instanceof TransactionCanceledException ? error.CancellationReasons : undefined;
    if (reasons?.[0]?.Code === 'ConditionalCheckFailed') throw new MerchantNotFoundError(merchantId, { cause: error });
    throw error;
  }
  return { merchant_id: merchantId, psp: provider, updated_at: now };
}

/** One stored credential item, read consistently; undefined when none is set. */
async function readCredential(key: ItemKey): Promise<Record<string, unknown> | undefined> {
  return (await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: key, ConsistentRead: true }))).Item;
}

/**
 * Stores (or replaces) a merchant's webhook secret for one provider. Throws UnknownPspError,
 * InvalidProviderSecretError, or MerchantNotFoundError when the merchant does not exist.
 *
 * @example await setProviderSecret('merch_…', 'stripe', 'whsec_…') // { merchant_id, psp: 'stripe', updated_at }
 */
export async function setProviderSecret(merchantId: string, psp: string, secret: string): Promise<ProviderSecretSummary> {
  const provider = checkedPsp(psp);
  if (secret.length === 0 || secret.length > MAX_SECRET_LENGTH || secret.trim() !== secret) {
    throw new InvalidProviderSecretError(`secret must be 1 to ${MAX_SECRET_LENGTH} characters without surrounding spaces`, { param: 'secret' });
  }
  return storeCredential(merchantId, provider, keys.providerSecret(merchantId, provider), ENTITY.providerSecret, 'secret', secret);
}

/** The stored secret, for the provider's webhook verifier only; undefined when none is set. */
export async function getProviderSecret(merchantId: string, psp: string): Promise<ProviderSecret | undefined> {
  const provider = checkedPsp(psp);
  const Item = await readCredential(keys.providerSecret(merchantId, provider));
  if (Item === undefined) return undefined;
  return { merchant_id: merchantId, psp: provider, secret: Item.secret as string, updated_at: Item.updated_at as string };
}

export const providerSecretRepository: ProviderSecretRepository = { setProviderSecret, getProviderSecret };

/**
 * Providers' API credentials, one item per merchant and psp (`PSPAPI#<psp>`), apart from the
 * webhook secret: the consumer uses them to fetch what thin webhook events only name (a Mollie
 * API key `live_…`/`test_…`, a GoCardless access token …). Stored and guarded like the secrets:
 * never returned by a writer, never logged.
 */
export interface ProviderApiKey extends ProviderSecretSummary {
  readonly api_key: string;
}

/**
 * Stores (or replaces) a merchant's API key for one provider. Throws UnknownPspError,
 * InvalidProviderSecretError (param `key`), or MerchantNotFoundError when the merchant does not exist.
 *
 * @example await setProviderApiKey('merch_…', 'mollie', 'live_…') // { merchant_id, psp: 'mollie', updated_at }
 */
export async function setProviderApiKey(merchantId: string, psp: string, apiKey: string): Promise<ProviderSecretSummary> {
  const provider = checkedPsp(psp);
  if (apiKey.length === 0 || apiKey.length > MAX_SECRET_LENGTH || apiKey.trim() !== apiKey || /[\r\n]/.test(apiKey)) {
    throw new InvalidProviderSecretError(`key must be 1 to ${MAX_SECRET_LENGTH} characters on one line without surrounding spaces`, { param: 'key' });
  }
  return storeCredential(merchantId, provider, keys.providerApiKey(merchantId, provider), ENTITY.providerApiKey, 'api_key', apiKey);
}

/** The stored API key, for the provider API adapters only; undefined when none is set. */
export async function getProviderApiKey(merchantId: string, psp: string): Promise<ProviderApiKey | undefined> {
  const provider = checkedPsp(psp);
  const Item = await readCredential(keys.providerApiKey(merchantId, provider));
  if (Item === undefined) return undefined;
  return { merchant_id: merchantId, psp: provider, api_key: Item.api_key as string, updated_at: Item.updated_at as string };
}
