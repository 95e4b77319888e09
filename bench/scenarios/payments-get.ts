import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { handler } from '#api/payments/handler';
import { paymentBodyOf } from '#core/payments';
import { documentClient } from '#data/client';
import { paymentKeys } from '#data/keys';
import { env } from '#shared/env';
import { benchPayments, PAYMENTS_PER_MERCHANT } from '#bench/payments-data';
import { expectingStatus, rawKeyAndRateLimit, routeInvoker } from '#bench/requests';
import type { Scenario } from '#bench/scenario';

export const scenario: Scenario = {
  name: 'GET /api/v1/payments/{id}',
  notes: [
    `the bench merchant holds ${PAYMENTS_PER_MERCHANT} payments per merchant in the table: 1,000 at 100 merchants, 10,000 at 1,000 (the data x10 line compares them)`,
    "raw = the keyed request's calls as in the status scenario (API-key hash GetItem, rate-limit UpdateItem, merchant at most every 30 s) + the consistent GetItem of the payment by its pe_ id",
  ],

  async prepare(fixture) {
    const { sample } = await benchPayments(fixture);
    const path = `/api/v1/payments/${sample.id}`;
    const invoke = routeInvoker(handler, 'GET', path, fixture);

    const first = await invoke();
    const data = (JSON.parse(first.body) as { data?: { id?: unknown; amount_cents?: unknown } }).data;
    if (first.statusCode !== 200 || data?.id !== sample.id || data.amount_cents !== sample.amount) {
      throw new Error(`GET ${path} should answer 200 with the payment, got ${first.statusCode}: ${first.body.slice(0, 300)}`);
    }

    const keyAndRateLimit = rawKeyAndRateLimit(fixture, 'read');
    const key = paymentKeys.payment(fixture.merchantId, paymentBodyOf(sample.id) as string);
    return {
      handler: expectingStatus(invoke, `GET ${path}`),
      async raw() {
        await keyAndRateLimit();
        await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: key, ConsistentRead: true }));
      },
    };
  },
};
