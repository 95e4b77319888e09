import { GetCommand, PutCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { InvalidMerchantError, type Merchant, type MerchantRepository, type NewMerchant, newMerchantSchema, newMerchantId } from '#core/merchants';
import { env } from '#shared/env';
import { documentClient } from './client';
import { merchantEntity } from './entities/merchant';
import { conditions, keys, queries } from './keys';

/**
 * Creates a merchant with the defaults of DESIGN §1 (plan `engine`, 100/100 requests a minute).
 * Throws InvalidMerchantError on a bad name, tier or limit.
 *
 * @example await createMerchant({ name: 'Acme' }) // { id: 'merch_…', name: 'Acme', plan_tier: 'engine', … }
 */
export async function createMerchant(input: NewMerchant): Promise<Merchant> {
  const parsed = newMerchantSchema().safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidMerchantError(issue?.message ?? 'Invalid merchant', { param: issue?.path.join('.') });
  }
  const now = new Date().toISOString();
  const merchant: Merchant = { id: newMerchantId(), ...parsed.data, created_at: now, updated_at: now };
  await documentClient.send(new PutCommand({ TableName: env.TABLE_NAME, Item: merchantEntity.toItem(merchant), ConditionExpression: conditions.absent }));
  return merchant;
}

export async function getMerchant(merchantId: string): Promise<Merchant | undefined> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: keys.merchant(merchantId), ConsistentRead: true }));
  return Item === undefined ? undefined : merchantEntity.fromItem(Item);
}

/** Merchant settings change rarely; a warm Lambda re-reads them at most this often. */
const MERCHANT_CACHE_MS = 30_000;
const merchantCache = new Map<string, { merchant: Merchant | undefined; until: number }>();

/**
 * The merchant for the request path (rate limits, status), read at most every 30 s per warm
 * function so that an authenticated request does not pay a merchant read each time.
 */
export async function getMerchantCached(merchantId: string, now: number = Date.now()): Promise<Merchant | undefined> {
  const hit = merchantCache.get(merchantId);
  if (hit !== undefined && hit.until > now) return hit.merchant;
  const merchant = await getMerchant(merchantId);
  merchantCache.set(merchantId, { merchant, until: now + MERCHANT_CACHE_MS });
  return merchant;
}

/** Every merchant, oldest first. For the operator CLI and offline jobs, never the request path. */
export async function listMerchants(): Promise<Merchant[]> {
  const merchants: Merchant[] = [];
  for await (const page of paginateQuery({ client: documentClient }, { TableName: env.TABLE_NAME, ...queries.merchantListing() })) {
    for (const item of page.Items ?? []) merchants.push(merchantEntity.fromItem(item));
  }
  return merchants;
}

export const merchantRepository: MerchantRepository = { createMerchant, getMerchant, listMerchants };
