import { BatchWriteCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { type CustomerRecord, customerBodyOf } from '#core/customers';
import { StateConflictError } from '#core/errors';
import { paymentBodyOf } from '#core/payments';
import { env } from '#shared/env';
import { documentClient } from '#data/client';
import { getCustomer } from '#data/customer-repository';
import { type ErasedIdentity, writeTombstones } from '#data/erasure-tombstones';
import { linkedIdempotencyRecordKey } from '#data/idempotency-repository';
import { customerKeys, ENTITY, ERASURE_ENTITY, type ItemKey, paymentKeys } from '#data/keys';
import { getPayment } from '#data/payment-repository';
import { sandboxChargeKeysOf } from '#data/sandbox-charge-repository';
import { eraseSuppression } from '#data/suppression-repository';
import { outboundEventItem } from '#data/outbound-event-repository';
import { linkedWebhookLogKey } from '#data/webhook-log-repository';
import { transactOptimistically } from '#data/transact';
import { eraseCustomerVectors } from './vectors';

type Item = Record<string, unknown>;

/** BatchWriteItem's own limit. */
const BATCH_SIZE = 25;
/** Items of the customer's index read per Query page, each page deleted before the next is read. */
const PAGE_SIZE = 100;
/** Passes over the customer's index before the customer item itself is deleted. */
const MAX_PASSES = 8;
/** Attempts at the final, version-guarded delete of the customer (a concurrent write bumps it). */
const MAX_ROUNDS = 5;
/** Pause when a pass saw only entries already deleted: the index (eventually consistent) lags. */
const INDEX_SETTLE_MS = 250;

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));
const keyId = (key: ItemKey): string => `${key.PK}\u0000${key.SK}`;

/** What erasure deleted, by key, so an entry seen twice (a lagging index) is counted once. */
class Deleted {
  private readonly keys = new Set<string>();
  add(key: ItemKey): void {
    this.keys.add(keyId(key));
  }
  has(key: ItemKey): boolean {
    return this.keys.has(keyId(key));
  }
  get size(): number {
    return this.keys.size;
  }
}

/** Deletes keys with BatchWriteItem, 25 at a time, re-sending what comes back unprocessed. */
async function batchDelete(keysToDelete: readonly ItemKey[], deleted: Deleted): Promise<void> {
  for (let start = 0; start < keysToDelete.length; start += BATCH_SIZE) {
    let requests = keysToDelete.slice(start, start + BATCH_SIZE).map((Key) => ({ DeleteRequest: { Key } }));
    for (let attempt = 0; requests.length > 0; attempt += 1) {
      if (attempt > 0) await sleep(Math.min(1000, 20 * 2 ** attempt) * Math.random());
      const { UnprocessedItems } = await documentClient.send(new BatchWriteCommand({ RequestItems: { [env.TABLE_NAME]: requests } }));
      requests = (UnprocessedItems?.[env.TABLE_NAME] ?? []) as typeof requests;
    }
    for (const key of keysToDelete.slice(start, start + BATCH_SIZE)) deleted.add(key);
  }
}

/**
 * Deletes one payment, guarded by the version read (consistently), so that a concurrent
 * transition is either erased with it or seen on the next attempt. The stream's REMOVE record
 * takes it out of every counter it counted in (functions/consumers/table-stream.ts). False when
 * the payment was already gone.
 */
async function erasePayment(merchantId: string, paymentId: string): Promise<boolean> {
  return transactOptimistically(async () => {
    const payment = await getPayment(merchantId, paymentId);
    if (payment === undefined) return { items: [], result: false };
    return {
      result: true,
      items: [
        {
          Delete: {
            TableName: env.TABLE_NAME,
            Key: paymentKeys.payment(merchantId, paymentBodyOf(payment.id) as string),
            ConditionExpression: 'version = :version',
            ExpressionAttributeValues: { ':version': payment.version },
          },
        },
      ],
    };
  });
}

/** The identity a customer reference item stands for, for its tombstone. */
const identityOfRef = (item: Item): ErasedIdentity | undefined => customerKeys.identityOfReference(item.SK as string);

/** Further items an entry of the index brings along: the delivery or stored response a link names. */
async function linkedKeyOf(merchantId: string, item: Item): Promise<ItemKey | undefined> {
  if (item.entity === ENTITY.webhookLogLink) return linkedWebhookLogKey(merchantId, item);
  if (item.entity === ERASURE_ENTITY.idempotencyLink) return linkedIdempotencyRecordKey(merchantId, item);
  return undefined;
}

/** One pass over the customer's index: every entry but the customer item is deleted. */
async function sweepOnce(merchantId: string, customerId: string, deleted: Deleted): Promise<{ seen: number; fresh: number }> {
  let seen = 0;
  let fresh = 0;
  const pages = paginateQuery(
    { client: documentClient, pageSize: PAGE_SIZE },
    {
      TableName: env.TABLE_NAME,
      IndexName: 'GSI2',
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': 'GSI2PK' },
      ExpressionAttributeValues: { ':pk': customerKeys.data(merchantId, customerId) },
    },
  );
  for await (const page of pages) {
    const others: ItemKey[] = [];
    const identities: ErasedIdentity[] = [];
    const take = (entry: ItemKey): void => {
      if (others.some((other) => keyId(other) === keyId(entry))) return;
      if (!deleted.has(entry)) fresh += 1;
      others.push(entry);
    };
    for (const item of (page.Items ?? []) as Item[]) {
      if (item.entity === ENTITY.customer) continue;
      const key: ItemKey = { PK: item.PK as string, SK: item.SK as string };
      seen += 1;
      if (item.entity === ENTITY.payment) {
        if (await erasePayment(merchantId, item.id as string)) {
          deleted.add(key);
          fresh += 1;
        }
        // The sandbox gateway's records of the payment's attempts (payment id, amount) go with it.
        for (const charge of await sandboxChargeKeysOf(merchantId, item.id as string)) take(charge);
      } else if (item.entity === ENTITY.suppression) {
        // With the suppression counters (GET /email/suppressions/stats), in one transaction.
        if (await eraseSuppression(merchantId, item.email as string)) {
          deleted.add(key);
          fresh += 1;
        }
      } else {
        if (item.entity === ENTITY.customerRef) {
          const identity = identityOfRef(item);
          if (identity !== undefined) identities.push(identity);
        }
        // A link to a batch delivery or a stored response filed under another customer goes with what it names.
        const linked = await linkedKeyOf(merchantId, item);
        for (const entry of linked === undefined ? [key] : [key, linked]) take(entry);
      }
    }
    // Every identity the customer was known by is tombstoned before its reference goes.
    if (identities.length > 0) await writeTombstones(merchantId, identities);
    await batchDelete(others, deleted);
  }
  return { seen, fresh };
}

/** Queries the customer's index again and again, deleting what it finds, until it finds nothing. */
async function sweep(merchantId: string, customerId: string, deleted: Deleted): Promise<void> {
  for (let pass = 0; pass < MAX_PASSES; pass += 1) {
    const { seen, fresh } = await sweepOnce(merchantId, customerId, deleted);
    if (seen === 0) return;
    if (fresh === 0) await sleep(INDEX_SETTLE_MS);
  }
}

/**
 * The customer item, last, guarded by the version read, with the `customer.deleted` outbound event
 * in the same transaction: false when a concurrent write (a new payment of the customer) changed
 * it, so that the caller sweeps again (and nothing is recorded). Its REMOVE record takes it out of
 * the customer counters.
 */
async function deleteCustomerItem(customer: CustomerRecord, deleted: Deleted): Promise<boolean> {
  const key = customerKeys.customer(customer.merchant_id, customerBodyOf(customer.id) as string);
  const removed = await transactOptimistically(async () => {
    const current = await getCustomer(customer.merchant_id, customer.id);
    if (current === undefined || current.version !== customer.version) return { items: [], result: false };
    return {
      result: true,
      items: [
        {
          Delete: {
            TableName: env.TABLE_NAME,
            Key: key,
            ConditionExpression: 'version = :version',
            ExpressionAttributeValues: { ':version': current.version },
          },
        },
        // The merchant's (not filed under the customer, so no sweep removes it), naming the id only.
        outboundEventItem(customer.merchant_id, null, ['customer.deleted'], { customer_id: customer.id }, new Date()),
      ],
    };
  });
  if (removed) deleted.add(key);
  return removed;
}

/**
 * Erases a customer (GDPR Art. 17): first a tombstone per identity (email, provider customer
 * ids; hashes only, erasure-tombstones.ts) so that later events for the customer are refused;
 * then every item tagged with the customer's data key (GSI2PK = customerKeys.data: its
 * references, payments, their references and timelines, messages, outbox emails, message
 * references, suppressions, stored webhook deliveries, card ledgers, outbound events, ingest
 * dedupe records, Idempotency-Key records that name the customer, and whatever later features tag
 * the same way; a link to a batch webhook delivery or a stored response filed under another
 * customer is deleted with what it names, which names this customer too), with each payment the
 * sandbox gateway's records of its attempts, and the customer's vectors (the vector store's own
 * delete by customer; services/vectors.ts); then the customer item, with the `customer.deleted`
 * outbound event (the merchant's, `{ customer_id }` only: the one item left that names the id).
 * The outbound webhooks' delivery log keeps its rows: they hold the event's id and type, the
 * endpoint and the outcome, never the payload, which was the erased outbound event. Counters move
 * with what is deleted: the table-stream consumer takes each deleted payment and the customer out
 * of the counters they counted in (list totals, customer totals, monthly recovery counters,
 * rollups).
 *
 * The customer item goes last, so an erasure cut short (a timeout) is finished by repeating the
 * request. Entries are deleted in Query pages of 100 (BatchWriteItem, 25 a time), and the index
 * is queried again until it is empty, since it is eventually consistent. A write that lands in
 * the index after the last pass (a payment recorded during the erasure) is not seen.
 *
 * @returns how many items were deleted (each counted once), or undefined when the customer is
 * unknown.
 * @example const { recordsDeleted } = await eraseCustomer('merch_1', 'cust_01J…');
 */
export async function eraseCustomer(merchantId: string, customerId: string): Promise<{ recordsDeleted: number } | undefined> {
  const deleted = new Deleted();
  let found = false;
  for (let round = 0; ; round += 1) {
    const customer = await getCustomer(merchantId, customerId);
    if (customer === undefined) break;
    found = true;
    if (round >= MAX_ROUNDS) throw new StateConflictError(`Customer ${customerId} keeps changing during erasure; retry the request to finish it.`);
    // First, so that an event arriving while the erasure runs is refused rather than recorded.
    await writeTombstones(merchantId, [{ email: customer.email, providerCustomerId: customer.provider_customer_id }]);
    // Through the vector store, not the sweep: S3 Vectors is outside the table, and the local store's matrices must learn of it.
    await eraseCustomerVectors(merchantId, customerId);
    await sweep(merchantId, customerId, deleted);
    if (await deleteCustomerItem(customer, deleted)) break;
  }
  if (!found) return undefined;
  await sweep(merchantId, customerId, deleted);
  return { recordsDeleted: deleted.size };
}
