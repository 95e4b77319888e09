import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { type CustomerRecord, customerBodyOf, customerIdFor, NO_MONEY, normaliseEmail, searchTermsOf } from '#core/customers';
import { timeOrderedId } from '#core/ids';
import { env } from '#shared/env';
import { documentClient } from './client';
import { customerEntity } from './entities/customer';
import { customerKeys, customerSearchKeys, customerTags, ENTITY } from './keys';

type Item = Record<string, unknown>;
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const get = async (key: { PK: string; SK: string }): Promise<Item | undefined> =>
  (await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: key, ConsistentRead: true }))).Item;

export const customerFromItem = (item: Item): CustomerRecord => customerEntity.fromItem(item);
const customerItem = (customer: CustomerRecord): Item => customerEntity.toItem(customer);

export async function getCustomer(merchantId: string, customerId: string): Promise<CustomerRecord | undefined> {
  const body = customerBodyOf(customerId);
  if (body === undefined) return undefined;
  const item = await get(customerKeys.customer(merchantId, body));
  return item === undefined ? undefined : customerFromItem(item);
}

/** By the unique email reference (GetItem, consistent), then the customer. */
export async function getCustomerByEmail(merchantId: string, email: string): Promise<CustomerRecord | undefined> {
  const ref = await get(customerKeys.byEmail(merchantId, normaliseEmail(email)));
  return ref === undefined ? undefined : getCustomer(merchantId, ref.customer_id as string);
}

/** B: the id may be ours (`cust_…`) or the provider's customer id. */
export async function getCustomerByAnyId(merchantId: string, id: string): Promise<CustomerRecord | undefined> {
  if (customerBodyOf(id) !== undefined) return getCustomer(merchantId, id);
  const ref = await get(customerKeys.byProviderId(merchantId, id));
  return ref === undefined ? undefined : getCustomer(merchantId, ref.customer_id as string);
}

export interface CustomerIdentity {
  readonly email: string;
  readonly name?: string | null | undefined;
  readonly psp?: string | null | undefined;
  readonly provider_customer_id?: string | null | undefined;
  /** An IANA time zone name (checked by the caller); replaces the one the customer had. */
  readonly timezone?: string | undefined;
}

/**
 * The customer with this email, or a new one (not yet written). Callers write it with
 * `putCustomer` inside their transaction: a new customer's email and provider references are
 * created with it, guarded so that two concurrent first events for one email make one customer.
 */
export async function resolveCustomer(merchantId: string, identity: CustomerIdentity, now: Date): Promise<{ customer: CustomerRecord; isNew: boolean }> {
  const email = normaliseEmail(identity.email);
  // The provider's customer id is the stronger identity: an event for a known provider customer
  // belongs to that customer even when it shows another email.
  const providerId = identity.provider_customer_id ?? null;
  const providerRef = providerId === null ? undefined : await get(customerKeys.byProviderId(merchantId, providerId));
  if (providerRef !== undefined) {
    const owner = await getCustomer(merchantId, providerRef.customer_id as string);
    if (owner !== undefined) return { customer: identity.timezone === undefined ? owner : { ...owner, timezone: identity.timezone }, isNew: false };
  }
  const existing = await getCustomerByEmail(merchantId, email);
  if (existing !== undefined) {
    const enriched: CustomerRecord = {
      ...existing,
      name: existing.name ?? identity.name ?? null,
      psp: existing.psp ?? identity.psp ?? null,
      provider_customer_id: existing.provider_customer_id ?? providerId,
      ...(identity.timezone === undefined ? {} : { timezone: identity.timezone }),
    };
    return { customer: enriched, isNew: false };
  }
  const at = now.toISOString();
  return {
    isNew: true,
    customer: {
      id: customerIdFor(timeOrderedId(now)),
      merchant_id: merchantId,
      email,
      name: identity.name ?? null,
      psp: identity.psp ?? null,
      provider_customer_id: providerId,
      ...(identity.timezone === undefined ? {} : { timezone: identity.timezone }),
      total_payments: 0,
      failed_payments: 0,
      recovered_payments: 0,
      open_payments: 0,
      ...NO_MONEY,
      created_at: at,
      updated_at: at,
      version: 0,
    },
  };
}

/**
 * The writes that store a customer after a change: the item itself, guarded by the version it
 * was read at (or by absence when new, with its unique references, and search terms). The
 * merchant's customer counters follow from the table's stream (projections/customer-counters.ts).
 */
export function putCustomer(before: CustomerRecord | undefined, after: CustomerRecord, now: Date): TransactItem[] {
  const merchantId = after.merchant_id;
  const terms = searchTermsOf(after);
  const next = { ...after, search_terms: terms, updated_at: now.toISOString(), version: (before?.version ?? 0) + 1 };
  const items: TransactItem[] = [
    {
      Put: {
        TableName: env.TABLE_NAME,
        Item: customerItem(next),
        ...(before === undefined
          ? { ConditionExpression: 'attribute_not_exists(PK)' }
          : { ConditionExpression: 'version = :version', ExpressionAttributeValues: { ':version': before.version } }),
      },
    },
  ];
  const ref = (key: { PK: string; SK: string }): TransactItem => ({
    Put: {
      TableName: env.TABLE_NAME,
      Item: { ...key, entity: ENTITY.customerRef, customer_id: after.id, ...customerTags.reference(merchantId, after.id, key) },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  });
  if (before === undefined) items.push(ref(customerKeys.byEmail(merchantId, after.email)));
  if (after.provider_customer_id !== null && before?.provider_customer_id !== after.provider_customer_id) {
    items.push(ref(customerKeys.byProviderId(merchantId, after.provider_customer_id)));
  }
  // Search terms not indexed yet (a new customer, a name just learnt, a customer written before
  // terms were indexed): names and emails are never changed or removed, so terms are only added.
  const known = new Set(before?.search_terms ?? []);
  for (const term of terms.filter((t) => !known.has(t))) {
    const body = customerBodyOf(after.id) as string;
    items.push({
      Put: {
        TableName: env.TABLE_NAME,
        Item: {
          ...customerSearchKeys.term(merchantId, term, body),
          entity: customerSearchKeys.entity,
          customer_id: after.id,
          ...customerSearchKeys.customerTag(merchantId, after.id, term),
        },
      },
    });
  }
  return items;
}

/**
 * The merchant's customer counters: all customers and those with an open recovery, as the
 * table-stream consumer keeps them (they trail the customers' writes by the stream's lag).
 */
export async function customerCounts(merchantId: string): Promise<{ all: number; has_failed: number }> {
  const item = await get(customerKeys.counters(merchantId));
  return { all: Number(item?.all ?? 0), has_failed: Number(item?.has_failed ?? 0) };
}
