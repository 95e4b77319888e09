import { GetCommand, PutCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { InvalidMerchantError, type Merchant, type MerchantRepository, type NewMerchant, NewMerchantSchema, newMerchantId } from '#core/merchants';
import { env } from '#shared/env';
import { documentClient } from './client';
import { conditions, ENTITY, keys, queries } from './keys';

type Item = Record<string, unknown>;

const toMerchant = (item: Item): Merchant => ({
  id: item.id as string,
  name: item.name as string,
  plan_tier: item.plan_tier as Merchant['plan_tier'],
  rate_limits: item.rate_limits as Merchant['rate_limits'],
  created_at: item.created_at as string,
  updated_at: item.updated_at as string,
});

/**
 * Creates a merchant with the defaults of DESIGN §1 (plan `engine`, 100/100 requests a minute).
 * Throws InvalidMerchantError on a bad name, tier or limit.
 *
 * @example await createMerchant({ name: 'Acme' }) // { id: 'merch_…', name: 'Acme', plan_tier: 'engine', … }
 */
export async function createMerchant(input: NewMerchant): Promise<Merchant> {
  const parsed = NewMerchantSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidMerchantError(issue?.message ?? 'Invalid merchant', { param: issue?.path.join('.') });
  }
  const now = new Date().toISOString();
  const merchant: Merchant = { id: newMerchantId(), ...parsed.data, created_at: now, updated_at: now };
  await documentClient.send(
    new PutCommand({
      TableName: env.TABLE_NAME,
      Item: {
        ...keys.merchant(merchant.id),
        ...keys.merchantListing(merchant.created_at, merchant.id),
        entity: ENTITY.merchant,
        ...merchant,
      },
      ConditionExpression: conditions.absent,
    }),
  );
  return merchant;
}

export async function getMerchant(merchantId: string): Promise<Merchant | undefined> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: keys.merchant(merchantId), ConsistentRead: true }));
  return Item === undefined ? undefined : toMerchant(Item);
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
    for (const item of page.Items ?? []) merchants.push(toMerchant(item));
  }
  return merchants;
}

export const merchantRepository: MerchantRepository = { createMerchant, getMerchant, listMerchants };
