import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { env } from '#shared/env';
import { documentClient } from './client';
import { INTEGRATION_ENTITY, integrationKeys } from './keys';

/** A merchant's storefront association: the one shop domain its storefront integration posts from. */
export interface StorefrontAssociation {
  readonly merchant_id: string;
  readonly shop_domain: string;
  readonly created_at: string;
  readonly updated_at: string;
}

/** What registerStorefront did: `created` (no association before), `updated` (another domain before) or `unchanged` (the same domain again). */
export type StorefrontRegistration =
  | { readonly outcome: 'created' | 'updated' | 'unchanged'; readonly association: StorefrontAssociation }
  | { readonly outcome: 'taken' }
  | { readonly outcome: 'concurrent' };

export async function getStorefront(merchantId: string): Promise<StorefrontAssociation | undefined> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: integrationKeys.storefront(merchantId), ConsistentRead: true }));
  if (Item === undefined) return undefined;
  return { merchant_id: merchantId, shop_domain: String(Item.shop_domain), created_at: String(Item.created_at), updated_at: String(Item.updated_at) };
}

/**
 * Associates the merchant with a shop domain (already normalised), creating or replacing its
 * association. A shop domain belongs to one merchant: one transaction claims the domain (on the
 * condition that no other merchant holds it), writes the association (on the condition that it is
 * still what was read) and releases the domain held before, if any. Registering the same domain
 * again writes nothing. `taken` when another merchant holds the domain, `concurrent` when a concurrent
 * registration of the same merchant changed the association first (the caller may retry).
 */
export async function registerStorefront(merchantId: string, shopDomain: string, now: Date = new Date()): Promise<StorefrontRegistration> {
  const current = await getStorefront(merchantId);
  if (current?.shop_domain === shopDomain) return { outcome: 'unchanged', association: current };
  const at = now.toISOString();
  const association: StorefrontAssociation = { merchant_id: merchantId, shop_domain: shopDomain, created_at: current?.created_at ?? at, updated_at: at };
  const transactItems: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']> = [
    {
      Put: {
        TableName: env.TABLE_NAME,
        Item: { ...integrationKeys.shopDomain(shopDomain), entity: INTEGRATION_ENTITY.shopDomain, merchant_id: merchantId, claimed_at: at },
        ConditionExpression: 'attribute_not_exists(PK) OR merchant_id = :merchant',
        ExpressionAttributeValues: { ':merchant': merchantId },
      },
    },
    {
      Put: {
        TableName: env.TABLE_NAME,
        Item: { ...integrationKeys.storefront(merchantId), entity: INTEGRATION_ENTITY.storefront, ...association },
        ...(current === undefined
          ? { ConditionExpression: 'attribute_not_exists(PK)' }
          : { ConditionExpression: 'shop_domain = :previous', ExpressionAttributeValues: { ':previous': current.shop_domain } }),
      },
    },
  ];
  if (current !== undefined) {
    transactItems.push({
      Delete: {
        TableName: env.TABLE_NAME,
        Key: integrationKeys.shopDomain(current.shop_domain),
        ConditionExpression: 'attribute_not_exists(PK) OR merchant_id = :merchant',
        ExpressionAttributeValues: { ':merchant': merchantId },
      },
    });
  }
  try {
    await documentClient.send(new TransactWriteCommand({ TransactItems: transactItems }));
  } catch (error) {
    if (error instanceof TransactionCanceledException) {
      const [claim, own] = error.CancellationReasons ?? [];
      if (claim?.Code === 'ConditionalCheckFailed') return { outcome: 'taken' };
      if (own?.Code === 'ConditionalCheckFailed') return { outcome: 'concurrent' };
    }
    throw error;
  }
  return { outcome: current === undefined ? 'created' : 'updated', association };
}
