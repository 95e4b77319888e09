/**
 * eraseCustomer (functions/services/erase-customer.ts) against DynamoDB Local, racing the writes
 * that can land while it runs: whatever the interleaving, no payment is left without its customer
 * and every counter agrees with the items that remain. A stored webhook delivery that concerns
 * several customers (an Adyen batch) goes with whichever of them is erased.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '#data/client';
import { eraseCustomer } from '#services/erase-customer';
import { customerCounts, customerFromItem } from '#data/customer-repository';
import { paymentCounterNames, paymentCounters, paymentFromItem } from '#data/payment-repository';
import { fileWebhookLogUnderCustomers, getWebhookLog, putWebhookLog } from '#data/webhook-log-repository';
import { moveThrough, seedCustomerPayment } from '#test/fixtures/customers';
import { drainTableStream } from '#test/fixtures/table-stream';

const merchant = (): string => `merch_erase${Math.random().toString(36).slice(2, 10)}`;

async function partition(merchantId: string, prefix: string): Promise<Array<Record<string, unknown>>> {
  const { Items } = await documentClient.send(
    new QueryCommand({
      TableName: process.env.TABLE_NAME,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
      ExpressionAttributeValues: { ':pk': `M#${merchantId}`, ':sk': prefix },
      ConsistentRead: true,
    }),
  );
  return (Items ?? []) as Array<Record<string, unknown>>;
}

describe('eraseCustomer', () => {
  it('returns undefined and deletes nothing when the customer is unknown', async () => {
    // Prepare
    const m = merchant();
    await seedCustomerPayment(m, { email: 'stays@example.com' });
    // Act
    const result = await eraseCustomer(m, 'cust_01JZZZZZZZZZZZZZZZZZZZZZZZ');
    await drainTableStream();
    // Assess
    expect(result).toBeUndefined();
    expect(await customerCounts(m)).toEqual({ all: 1, has_failed: 1 });
  });

  it('leaves counters that agree with the remaining items and no orphaned payment when payments of the customer arrive during erasure', async () => {
    // Prepare
    const m = merchant();
    const who = { email: 'busy@example.com' };
    const first = await seedCustomerPayment(m, who);
    for (let i = 0; i < 8; i += 1) await moveThrough(m, await seedCustomerPayment(m, who), i % 2 === 0 ? ['pause'] : ['recover']);
    // Act: new payments for the same email over 1.5 s, so that some land on the customer being
    // erased (its version changes, so erasure sweeps again) and later ones make a new customer.
    const [erased] = await Promise.all([
      eraseCustomer(m, first.customer_id),
      ...Array.from({ length: 10 }, (_, i) => new Promise((done) => setTimeout(done, i * 150)).then(() => seedCustomerPayment(m, who))),
    ]);
    await drainTableStream();
    // Assess
    expect(erased?.recordsDeleted).toBeGreaterThan(9 * 3);
    const customers = (await partition(m, 'CUST#')).map(customerFromItem);
    const payments = (await partition(m, 'PAY#')).map(paymentFromItem);
    expect(customers.map((customer) => customer.id)).not.toContain(first.customer_id);
    for (const payment of payments) expect(customers.map((customer) => customer.id)).toContain(payment.customer_id);
    for (const customer of customers) expect(customer.open_payments).toBe(payments.filter((payment) => payment.customer_id === customer.id).length);
    expect(await customerCounts(m)).toEqual({ all: customers.length, has_failed: customers.filter((customer) => customer.open_payments > 0).length });
    const expected: Record<string, number> = {};
    for (const payment of payments) for (const name of paymentCounterNames(payment)) expected[name] = (expected[name] ?? 0) + 1;
    expect(Object.fromEntries(Object.entries(await paymentCounters(m)).filter(([, value]) => value !== 0))).toEqual(expected);
  }, 60_000);

  it("removes a batch delivery filed under three customers when any of them is erased, and each further customer's link with that customer", async () => {
    // Prepare
    const m = merchant();
    const [first, second, third, control] = await Promise.all(
      ['first', 'second', 'third', 'control'].map((name) => seedCustomerPayment(m, { email: `${name}@batch.example` })),
    );
    const delivery = await putWebhookLog({
      merchantId: m,
      psp: 'adyen',
      routeVariant: 'default',
      rawBody: Buffer.from(JSON.stringify({ live: 'false', notificationItems: [{ NotificationRequestItem: { shopperEmail: 'second@batch.example' } }] })),
      contentType: 'application/json',
      url: `https://hooks.example.com/adyen/${m}`,
    });
    await fileWebhookLogUnderCustomers(m, delivery, [first?.customer_id ?? '', second?.customer_id ?? '', third?.customer_id ?? '']);
    const linksBefore = (await partition(m, 'WHKLINK#')).map((link) => link.customer_id);
    // Act
    const alone = await eraseCustomer(m, control?.customer_id ?? '');
    const bySecond = await eraseCustomer(m, second?.customer_id ?? '');
    const deliveryAfterSecond = await getWebhookLog(m, delivery.id);
    const byThird = await eraseCustomer(m, third?.customer_id ?? '');
    // Assess
    expect(linksBefore.sort()).toEqual([second?.customer_id, third?.customer_id].sort());
    expect(deliveryAfterSecond).toBeUndefined();
    expect(bySecond?.recordsDeleted).toBe((alone?.recordsDeleted ?? 0) + 2);
    expect(byThird?.recordsDeleted).toBe((alone?.recordsDeleted ?? 0) + 1);
    expect(await partition(m, 'WHKLINK#')).toEqual([]);
    expect((await partition(m, 'CUST#')).map((item) => item.id)).toEqual([first?.customer_id]);
  });

  it('removes a batch delivery with its first customer, as a delivery filed under one customer', async () => {
    // Prepare
    const m = merchant();
    const [first, second] = await Promise.all(['lead', 'other'].map((name) => seedCustomerPayment(m, { email: `${name}@batch.example` })));
    const delivery = await putWebhookLog({
      merchantId: m,
      psp: 'adyen',
      routeVariant: 'default',
      rawBody: Buffer.from('{"live":"false","notificationItems":[]}'),
      contentType: 'application/json',
      url: `https://hooks.example.com/adyen/${m}`,
    });
    await fileWebhookLogUnderCustomers(m, delivery, [first?.customer_id ?? '', second?.customer_id ?? '']);
    const filed = await getWebhookLog(m, delivery.id);
    // Act
    await eraseCustomer(m, first?.customer_id ?? '');
    // Assess
    expect(filed?.customer_id).toBe(first?.customer_id);
    expect(await getWebhookLog(m, delivery.id)).toBeUndefined();
    expect((await partition(m, 'WHKLINK#')).map((link) => link.customer_id)).toEqual([second?.customer_id]);
  });
});
