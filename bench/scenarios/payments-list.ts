import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { handler } from '#api/payments/handler';
import { timeOrderedIdFloor } from '#core/ids';
import { documentClient } from '#data/client';
import { paymentKeys } from '#data/keys';
import { env } from '#shared/env';
import { benchPayments, PAYMENTS_PER_MERCHANT } from '#bench/payments-data';
import { expectingStatus, rawKeyAndRateLimit, routeInvoker } from '#bench/requests';
import type { Scenario } from '#bench/scenario';

const PER_PAGE = 25;

export const scenario: Scenario = {
  name: `GET /api/v1/payments (one page of ${PER_PAGE})`,
  notes: [
    `the bench merchant holds ${PAYMENTS_PER_MERCHANT} payments per merchant in the table: 1,000 at 100 merchants, 10,000 at 1,000 (the data x10 line compares them: one page should cost the same)`,
    `raw = the keyed request's calls as in the status scenario + the counter item's consistent GetItem (pagination.total) and one Query of the merchant's PAY# range, newest first, Limit ${PER_PAGE} (both at once, as listPayments sends them)`,
  ],

  async prepare(fixture) {
    const { count } = await benchPayments(fixture);
    const url = `/api/v1/payments?per_page=${PER_PAGE}`;
    const invoke = routeInvoker(handler, 'GET', url, fixture);
    const check = (status: number, body: string): void => {
      const parsed = JSON.parse(body) as { data?: unknown[]; pagination?: { total?: unknown } };
      if (status !== 200 || parsed.data?.length !== PER_PAGE || parsed.pagination?.total !== count) {
        throw new Error(`GET ${url} should answer 200 with ${PER_PAGE} of ${count} payments, got ${status}: ${body.slice(0, 300)}`);
      }
    };
    const first = await invoke();
    check(first.statusCode, first.body);

    const keyAndRateLimit = rawKeyAndRateLimit(fixture, 'read');
    const counters = paymentKeys.counters(fixture.merchantId);
    const page = {
      TableName: env.TABLE_NAME,
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :after AND :before',
      ExpressionAttributeValues: {
        ':pk': counters.PK,
        ':after': `${paymentKeys.paymentPrefix}${timeOrderedIdFloor(new Date('2000-01-01T00:00:00.000Z'))}`,
        ':before': `${paymentKeys.paymentPrefix}${timeOrderedIdFloor(new Date('2999-01-01T00:00:00.000Z'))}`,
      },
      ScanIndexForward: false,
      Limit: PER_PAGE,
    };
    return {
      handler: expectingStatus(invoke, `GET ${url}`),
      async raw() {
        await keyAndRateLimit();
        await Promise.all([
          documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: counters, ConsistentRead: true })),
          documentClient.send(new QueryCommand(page)),
        ]);
      },
    };
  },
};
