/**
 * The table-stream consumer against DynamoDB Local's stream: records read by the local poller
 * (lib/local/table-stream.ts) are handed to the consumer's handler, and the counters it keeps are
 * compared with a direct count over the items. Delivery is at least once, so a batch is also
 * delivered twice, and delivered again after the consumer was killed between two chunks.
 */
import { BatchWriteCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { timeOrderedId } from '#core/ids';
import { type PaymentRecord, paymentIdFor, recoveryIdFor } from '#core/payments';
import { createTableStreamHandler, handler } from '#consumers/table-stream';
import { documentClient, dynamo } from '#data/client';
import { customerCounts } from '#data/customer-repository';
import { customerKeys, paymentKeys, queries } from '#data/keys';
import { applyPaymentEvent, paymentCounterNames, paymentCounters, paymentItem } from '#data/payment-repository';
import { recoveryProgress } from '#data/recovery-period-counters';
import { type TransactionSender, sendTransaction } from '#data/stream-apply';
import { eraseCustomer } from '#services/erase-customer';
import { LocalTableStream } from '#lib/local/table-stream';
import { seedPayment } from '#test/fixtures/payments';

const TableName = process.env.TABLE_NAME as string;

/** The records written since the last call, as the poller delivers them, without applying them. */
const captured: DynamoDBRecord[] = [];
const capture = new LocalTableStream({
  endpoint: process.env.DYNAMODB_ENDPOINT as string,
  tableName: TableName,
  handler: async (event) => {
    captured.push(...event.Records);
    return { batchItemFailures: [] };
  },
});

/** Every record written since the previous call, in stream order, in one event (as a batch of any size). */
async function newRecords(): Promise<DynamoDBStreamEvent> {
  captured.length = 0;
  await capture.drain();
  return { Records: [...captured] };
}

afterAll(async () => {
  await capture.stop();
  dynamo.destroy();
});

const merchant = (): string => `merch_stream${Math.random().toString(36).slice(2, 10)}`;

/** A merchant's items of one kind, read directly (the count the counters must match). */
async function itemsOf(merchantId: string, prefix: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  const pages = paginateQuery(
    { client: documentClient },
    { TableName, ConsistentRead: true, ...queries.partitionPrefix({ PK: paymentKeys.counters(merchantId).PK, SKPrefix: prefix }) },
  );
  for await (const page of pages) items.push(...((page.Items ?? []) as Record<string, unknown>[]));
  return items;
}

/** The payment counters a direct count over the merchant's payments gives. */
async function directPaymentCounts(merchantId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const item of await itemsOf(merchantId, paymentKeys.paymentPrefix)) {
    for (const name of paymentCounterNames(item as unknown as PaymentRecord)) counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
}

async function directCustomerCounts(merchantId: string): Promise<{ all: number; has_failed: number }> {
  const customers = await itemsOf(merchantId, customerKeys.customerPrefix);
  return { all: customers.length, has_failed: customers.filter((customer) => Number(customer.open_payments) > 0).length };
}

const nonZero = (counters: Readonly<Record<string, number>>): Record<string, number> =>
  Object.fromEntries(Object.entries(counters).filter(([, value]) => value !== 0));

/** Copies of a payment as further payments of the same customer (new ids), written without the repository: many records cheaply. */
async function writeCopies(payment: PaymentRecord, count: number): Promise<void> {
  const copies = Array.from({ length: count }, () => {
    const body = timeOrderedId(new Date());
    return { ...payment, id: paymentIdFor(body), recovery_id: recoveryIdFor(body), provider_payment_id: null };
  });
  for (let start = 0; start < copies.length; start += 25) {
    const requests = copies.slice(start, start + 25).map((copy) => ({ PutRequest: { Item: paymentItem(copy) } }));
    await documentClient.send(new BatchWriteCommand({ RequestItems: { [TableName]: requests } }));
  }
}

describe('table-stream consumer', () => {
  it('counts new payments and customers once each, as a direct count over the items does', async () => {
    // Prepare
    const m = merchant();
    await seedPayment(m, { customer: { email: 'one@example.com' } });
    await seedPayment(m, { customer: { email: 'one@example.com' }, psp: 'adyen' });
    await seedPayment(m, {
      customer: { email: 'two@example.com' },
      declineCode: 'expired_card',
      declineCategory: 'hard_customer',
      declineSubcategory: 'expired',
    });
    const event = await newRecords();
    // Act
    const response = await handler(event);
    // Assess
    expect(response).toEqual({ batchItemFailures: [] });
    expect(nonZero(await paymentCounters(m))).toEqual(await directPaymentCounts(m));
    expect((await paymentCounters(m)).all).toBe(3);
    expect(await customerCounts(m)).toEqual(await directCustomerCounts(m));
    expect(await customerCounts(m)).toEqual({ all: 2, has_failed: 2 });
    expect(await recoveryProgress(m, 'monthly')).toMatchObject({ failed_payments: 3, recovered_payments: 0, failed_amounts: { usd: 3 * 4999 } });
  });

  it('counts a batch delivered twice once', async () => {
    // Prepare
    const m = merchant();
    await seedPayment(m);
    await seedPayment(m);
    const event = await newRecords();
    // Act
    await handler(event);
    const again = await handler(event);
    // Assess
    expect(again).toEqual({ batchItemFailures: [] });
    expect((await paymentCounters(m)).all).toBe(2);
    expect(nonZero(await paymentCounters(m))).toEqual(await directPaymentCounts(m));
    expect((await customerCounts(m)).all).toBe((await directCustomerCounts(m)).all);
  });

  it('killed after its first chunk committed, counts each record once when the whole batch is delivered again', async () => {
    // Prepare: more records than one transaction holds, so the batch is applied in several chunks.
    const m = merchant();
    const first = await seedPayment(m, { customer: { email: 'many@example.com' } });
    await writeCopies(first, 150);
    const event = await newRecords();
    let sent = 0;
    const crashAfterFirstChunk: TransactionSender = async (input) => {
      sent += 1;
      if (sent > 1) throw new Error('killed: the Lambda timed out');
      return sendTransaction(input);
    };
    // Act
    const crashed = await createTableStreamHandler({ send: crashAfterFirstChunk })(event);
    const countedBeforeRedelivery = (await paymentCounters(m)).all;
    const redelivered = await handler(event);
    // Assess
    expect(crashed.batchItemFailures).toHaveLength(1);
    expect(countedBeforeRedelivery).toBeGreaterThan(0);
    expect(countedBeforeRedelivery).toBeLessThan(151);
    expect(redelivered).toEqual({ batchItemFailures: [] });
    expect((await paymentCounters(m)).all).toBe(151);
    expect(nonZero(await paymentCounters(m))).toEqual(await directPaymentCounts(m));
    expect(await recoveryProgress(m, 'monthly')).toMatchObject({ failed_payments: 151, failed_amounts: { usd: 151 * 4999 } });
  });

  it('reports the first record of the failed chunk, and Lambda retrying from there counts the rest once', async () => {
    // Prepare
    const m = merchant();
    const first = await seedPayment(m, { customer: { email: 'retry@example.com' } });
    await writeCopies(first, 150);
    const event = await newRecords();
    let sent = 0;
    const failSecondChunk: TransactionSender = async (input) => {
      sent += 1;
      if (sent === 2) throw new Error('throttled');
      return sendTransaction(input);
    };
    // Act
    const response: DynamoDBBatchResponse = await createTableStreamHandler({ send: failSecondChunk })(event);
    const failedAt = response.batchItemFailures[0]?.itemIdentifier;
    const rest = event.Records.slice(event.Records.findIndex((record) => record.dynamodb?.SequenceNumber === failedAt));
    const retried = await handler({ Records: rest });
    // Assess
    expect(failedAt).toBeDefined();
    expect(rest.length).toBeLessThan(event.Records.length);
    expect(retried).toEqual({ batchItemFailures: [] });
    expect(nonZero(await paymentCounters(m))).toEqual(await directPaymentCounts(m));
    expect((await paymentCounters(m)).all).toBe(151);
  });

  it('applies the records before one it cannot read and reports that one, so Lambda retries (and bisects) from it', async () => {
    // Prepare: a payment image without its failure time, which the monthly counters cannot place.
    const m = merchant();
    await seedPayment(m);
    const good = await newRecords();
    const unreadable: DynamoDBRecord = {
      eventID: 'evt_unreadable',
      eventName: 'INSERT',
      eventSource: 'aws:dynamodb',
      dynamodb: {
        SequenceNumber: '999999999999999999999',
        NewImage: { entity: { S: 'payment' }, merchant_id: { S: m }, status: { S: 'pending' }, created_at: { S: 'not a time' } },
      },
    };
    // Act
    const response = await handler({ Records: [...good.Records, unreadable] });
    // Assess
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: '999999999999999999999' }] });
    expect((await paymentCounters(m)).all).toBe(1);
    expect(nonZero(await paymentCounters(m))).toEqual(await directPaymentCounts(m));
  });

  it('moves a reclassified payment between its tuples, and a status change between statuses', async () => {
    // Prepare
    const m = merchant();
    const payment = await seedPayment(m, { psp: 'stripe' });
    await handler(await newRecords());
    // Act: a support fix of the decline (category and code), then a pause.
    await documentClient.send(
      new BatchWriteCommand({
        RequestItems: {
          [TableName]: [
            {
              PutRequest: {
                Item: paymentItem({ ...payment, decline_code: 'generic_decline', decline_category: 'unknown', version: payment.version + 1 }),
              },
            },
          ],
        },
      }),
    );
    await applyPaymentEvent(m, payment.id, { type: 'pause', reason: 'test' });
    await handler(await newRecords());
    // Assess
    const counters = nonZero(await paymentCounters(m));
    expect(counters).toEqual(await directPaymentCounts(m));
    expect(counters).toMatchObject({ all: 1, 'c:unknown': 1, 's:paused': 1, 's:paused|c:unknown|p:stripe': 1 });
    expect(counters['c:soft_retry']).toBeUndefined();
    expect(counters[`s:${payment.status}`]).toBeUndefined();
  });

  it('subtracts what a REMOVE takes away (an erased customer and its payments)', async () => {
    // Prepare
    const m = merchant();
    const kept = await seedPayment(m, { customer: { email: 'kept@example.com' } });
    const erased = await seedPayment(m, { customer: { email: 'erased@example.com' } });
    await seedPayment(m, { customer: { email: 'erased@example.com' } });
    await handler(await newRecords());
    // Act
    await eraseCustomer(m, erased.customer_id);
    await handler(await newRecords());
    // Assess
    expect(nonZero(await paymentCounters(m))).toEqual(await directPaymentCounts(m));
    expect((await paymentCounters(m)).all).toBe(1);
    expect(await customerCounts(m)).toEqual({ all: 1, has_failed: 1 });
    expect(await recoveryProgress(m, 'monthly')).toMatchObject({ failed_payments: 1, failed_amounts: { usd: kept.amount } });
  });

  it('writes nothing for records no projection counts (its own counter and marker writes included)', async () => {
    // Prepare: the records of the previous test's counter writes and markers, and nothing else.
    const own = await newRecords();
    // Act
    let sent = 0;
    const response = await createTableStreamHandler({
      send: async (input) => {
        sent += 1;
        return sendTransaction(input);
      },
    })(own);
    // Assess
    expect(own.Records.length).toBeGreaterThan(0);
    expect(response).toEqual({ batchItemFailures: [] });
    expect(sent).toBe(0);
  });
});
