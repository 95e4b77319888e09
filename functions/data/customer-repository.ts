import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import {
  type CardExpiry,
  type CustomerRecord,
  customerBodyOf,
  customerIdFor,
  NO_MONEY,
  normaliseEmail,
  cardExpiryMonth,
  sameCardExpiry,
  searchTermsOf,
} from '#core/customers';
import { timeOrderedId } from '#core/ids';
import { env } from '#shared/env';
import { documentClient } from './client';
import { cardExpiryEntryEntity } from './entities/card-expiry-entry';
import { customerEntity } from './entities/customer';
import { cardExpiryKeys, customerKeys, customerSearchKeys, customerTags, ENTITY } from './keys';
import { transactOptimistically } from './transact';

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
  /** An E.164 phone number (checked by the caller); replaces the one the customer had. */
  readonly phone?: string | undefined;
  /**
   * The card on file's expiry as the event gives it: a value replaces the customer's, null clears
   * it (a new card whose expiry is not known), undefined leaves it as it is (the event says nothing
   * of the card). The newest event received wins.
   */
  readonly card_expiry?: CardExpiry | null | undefined;
}

/** The customer with what the event told of it (time zone, phone, card expiry) applied. */
const withEventFacts = (customer: CustomerRecord, identity: CustomerIdentity): CustomerRecord => ({
  ...customer,
  ...(identity.timezone === undefined ? {} : { timezone: identity.timezone }),
  ...(identity.phone === undefined ? {} : { phone: identity.phone }),
  ...(identity.card_expiry === undefined ? {} : { card_expiry: identity.card_expiry }),
});

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
    if (owner !== undefined) return { customer: withEventFacts(owner, identity), isNew: false };
  }
  const existing = await getCustomerByEmail(merchantId, email);
  if (existing !== undefined) {
    const enriched: CustomerRecord = withEventFacts(
      {
        ...existing,
        name: existing.name ?? identity.name ?? null,
        psp: existing.psp ?? identity.psp ?? null,
        provider_customer_id: existing.provider_customer_id ?? providerId,
      },
      identity,
    );
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
      ...(identity.phone === undefined ? {} : { phone: identity.phone }),
      ...(identity.card_expiry == null ? {} : { card_expiry: identity.card_expiry }),
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
  const indexed = after.card_expiry == null ? undefined : cardExpiryMonth(after.card_expiry);
  const { card_expiry_indexed: _, ...rest } = after;
  const next: CustomerRecord = {
    ...rest,
    ...(indexed === undefined ? {} : { card_expiry_indexed: indexed }),
    search_terms: terms,
    updated_at: now.toISOString(),
    version: (before?.version ?? 0) + 1,
  };
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
  const expiryWrite = cardExpiryWrite(before?.card_expiry_indexed, after);
  if (expiryWrite !== undefined) items.push(expiryWrite);
  return items;
}

/**
 * The card-expiry index's change that goes with a customer write (keys.ts `cardExpiryKeys`): its
 * entry put under the new expiry month (replacing the old one: same key), or deleted when the
 * expiry is cleared; nothing when the month indexed (`card_expiry_indexed` as stored, which
 * resolveCustomer's enrichment does not touch) is already the customer's.
 */
function cardExpiryWrite(indexedBefore: string | undefined, after: CustomerRecord): TransactItem | undefined {
  const expiry = after.card_expiry ?? null;
  if ((expiry === null ? undefined : cardExpiryMonth(expiry)) === indexedBefore) return undefined;
  if (expiry === null) return { Delete: { TableName: env.TABLE_NAME, Key: cardExpiryKeys.entry(after.merchant_id, customerBodyOf(after.id) as string) } };
  const entry = { merchant_id: after.merchant_id, customer_id: after.id, month: expiry.month, year: expiry.year };
  return { Put: { TableName: env.TABLE_NAME, Item: cardExpiryEntryEntity.toItem(entry) } };
}

/**
 * Records the card on file's expiry of a known customer (a new card: payment_method_updated, from
 * ingest or a provider): the customer item and its card-expiry index entry in one transaction,
 * guarded by the version read (a concurrent write reads again). Null clears it. Returns the
 * customer as written, or undefined when it does not exist (erased); unchanged when it already holds it.
 */
export async function setCardExpiry(merchantId: string, customerId: string, expiry: CardExpiry | null, now: Date): Promise<CustomerRecord | undefined> {
  return transactOptimistically(async () => {
    const before = await getCustomer(merchantId, customerId);
    if (before === undefined || sameCardExpiry(before.card_expiry, expiry)) return { items: [], result: before };
    const after: CustomerRecord = { ...before, card_expiry: expiry };
    return { items: putCustomer(before, after, now), result: after };
  });
}

/**
 * The merchant's customer counters: all customers and those with an open recovery, as the
 * table-stream consumer keeps them (they trail the customers' writes by the stream's lag).
 */
export async function customerCounts(merchantId: string): Promise<{ all: number; has_failed: number }> {
  const item = await get(customerKeys.counters(merchantId));
  return { all: Number(item?.all ?? 0), has_failed: Number(item?.has_failed ?? 0) };
}
