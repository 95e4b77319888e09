import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { handler } from '#api/customers/handler';
import { customerBodyOf, normaliseEmail } from '#core/customers';
import { documentClient } from '#data/client';
import { putCustomer, resolveCustomer } from '#data/customer-repository';
import { customerKeys, type ItemKey } from '#data/keys';
import { env } from '#shared/env';
import { batchWrite, seedFailedPayment } from '#bench/fixtures';
import { expectingStatus, rawKeyAndRateLimit, routeInvoker } from '#bench/requests';
import type { BenchFixture, Scenario } from '#bench/scenario';

/** Customers of the bench merchant per merchant in the table: 1,000 at N = 100, 10,000 at 10N. */
const CUSTOMERS_PER_MERCHANT = 10;
/** The customer looked up: made through recordFailedPayment, with a '+' so that the path is really percent-encoded. */
const SAMPLE_EMAIL = 'Sample.Customer+bench@Example.com';

/** Keys of the customers written in bulk (the customer item and its email reference), newest last. */
const bulk: ItemKey[][] = [];
let sampleCustomerId: string | undefined;

/**
 * Grows or shrinks the bench merchant's customers with the table. The sample goes through
 * recordFailedPayment; the others are written with BatchWriteItem as exactly the items putCustomer
 * writes for a new customer (the customer item with its index attributes, and its email
 * reference), so that the table holds what production would. Counters are not kept for them: the
 * lookup does not read counters.
 */
async function benchCustomers(fixture: BenchFixture): Promise<string> {
  if (sampleCustomerId === undefined) {
    const payment = await seedFailedPayment(
      fixture.merchantId,
      { email: SAMPLE_EMAIL, name: 'Sample Customer', provider_customer_id: 'cus_bench_sample' },
      'ch_bench_customer_sample',
    );
    sampleCustomerId = payment.customer_id;
  }
  const target = fixture.merchants * CUSTOMERS_PER_MERCHANT - 1;
  const writes: Array<Record<string, unknown>> = [];
  for (let index = bulk.length; index < target; index += 1) {
    const { customer } = await resolveCustomer(
      fixture.merchantId,
      { email: `bulk${index}@bench.example`, name: `Bulk Customer ${index}` },
      new Date(Date.now() - index * 1000),
    );
    const items = putCustomer(undefined, customer, new Date()).flatMap((item) =>
      item.Put?.Item === undefined ? [] : [item.Put.Item as Record<string, unknown>],
    );
    writes.push(...items);
    bulk.push(items.map(({ PK, SK }) => ({ PK: PK as string, SK: SK as string })));
  }
  await batchWrite(writes.map((Item) => ({ PutRequest: { Item } })));
  const removed = bulk.splice(Math.max(0, target)).flat();
  await batchWrite(removed.map((Key) => ({ DeleteRequest: { Key } })));
  return sampleCustomerId;
}

export const scenario: Scenario = {
  name: 'GET /api/v1/customers/by-email/{email}',
  notes: [
    `the bench merchant holds ${CUSTOMERS_PER_MERCHANT} customers per merchant in the table: 1,000 at 100 merchants, 10,000 at 1,000 (the data x10 line compares them)`,
    "raw = the keyed request's calls as in the status scenario (API-key hash GetItem, rate-limit UpdateItem, merchant at most every 30 s) + the consistent GetItem of the email reference (CUSTEMAIL#) + the consistent GetItem of the customer it names",
    `the email is sent percent-encoded ('+' and '@'): ${encodeURIComponent(SAMPLE_EMAIL)}`,
  ],

  async prepare(fixture) {
    const customerId = await benchCustomers(fixture);
    const path = `/api/v1/customers/by-email/${encodeURIComponent(SAMPLE_EMAIL)}`;
    const invoke = routeInvoker(handler, 'GET', path, fixture);

    const first = await invoke();
    const data = (JSON.parse(first.body) as { data?: { id?: unknown; recovery_stats?: { total_failed?: unknown } } }).data;
    if (first.statusCode !== 200 || data?.id !== customerId || data.recovery_stats?.total_failed !== 1) {
      throw new Error(`GET ${path} should answer 200 with the customer and its recovery_stats, got ${first.statusCode}: ${first.body.slice(0, 300)}`);
    }

    const keyAndRateLimit = rawKeyAndRateLimit(fixture, 'read');
    const emailRef = customerKeys.byEmail(fixture.merchantId, normaliseEmail(SAMPLE_EMAIL));
    return {
      handler: expectingStatus(invoke, `GET ${path}`),
      async raw() {
        await keyAndRateLimit();
        const { Item: ref } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: emailRef, ConsistentRead: true }));
        const body = customerBodyOf(ref?.customer_id as string) as string;
        await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: customerKeys.customer(fixture.merchantId, body), ConsistentRead: true }));
      },
    };
  },
};
