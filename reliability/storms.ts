import { awayFromMinuteBoundary, call } from '#test/fixtures/http';
import { newTenant, UNLIMITED } from '#test/fixtures/tenants';
import type { SuiteContext } from './context';
import { type Figure, firstOf } from './figures';
import { acceptStripe, distinctStripeFailure } from './provider-events';
import { ingestFailure, unique } from './seed';

const DUPLICATE_DELIVERIES = 200;
const SAME_KEY_REQUESTS = 20;
const RATE_LIMIT = 100;
const RATE_LIMITED_REQUESTS = 150;

interface Storm {
  readonly figure: Figure;
  /** Answers no storm should get (a 5xx, a 429 without Retry-After). */
  readonly unexpected: string[];
}

const paymentsOf = async (context: SuiteContext, key: string): Promise<number> =>
  (await call<{ pagination: { total: number } }>(`${context.apiUrl}/payments?per_page=1`, { key })).body.pagination.total;

/** 200 copies of one signed Stripe delivery at once, then the inbound queue drained: one payment. */
async function duplicateDeliveries(context: SuiteContext): Promise<Storm> {
  const tenant = await newTenant(['admin'], UNLIMITED);
  await acceptStripe(tenant.merchant.id);
  const { delivery } = distinctStripeFailure();
  const answers = await Promise.all(
    Array.from({ length: DUPLICATE_DELIVERIES }, () =>
      call(`${context.origin}/stripe/${tenant.merchant.id}`, { method: 'POST', rawBody: delivery.body, headers: delivery.headers }),
    ),
  );
  await context.stack.runtime.queues.drain();
  await context.stack.runtime.stream.drain();
  const accepted = answers.filter((answer) => answer.status === 200).length;
  const payments = await paymentsOf(context, tenant.key);
  return {
    figure: {
      area: 'storms',
      name: `payments from ${DUPLICATE_DELIVERIES} duplicate deliveries`,
      value: payments,
      rule: 'eq',
      target: 1,
      detail: `${accepted} answered 200`,
    },
    unexpected: answers.filter((answer) => answer.status !== 200).map((answer) => `delivery ${answer.status}`),
  };
}

/** 20 requests at once with one Idempotency-Key and one body: the ingest runs once (one payment; the others replay or are told it is in flight). */
async function sameKeyRequests(context: SuiteContext): Promise<Storm> {
  const tenant = await newTenant(['admin'], UNLIMITED);
  const key = unique('idem');
  const body = {
    event_type: 'payment_failed',
    amount_cents: 4999,
    currency: 'usd',
    customer_email: `${unique('same-key')}@reliability.test`,
    decline_code: 'insufficient_funds',
    metadata: { psp: 'stripe', payment_id: unique('ch') },
  };
  const answers = await Promise.all(
    Array.from({ length: SAME_KEY_REQUESTS }, () =>
      call<{ data?: { payment_event_id: string } }>(`${context.apiUrl}/ingest/payment-event`, {
        method: 'POST',
        key: tenant.key,
        body,
        headers: { 'Idempotency-Key': key },
      }),
    ),
  );
  const executions = new Set(answers.filter((answer) => answer.status === 200).map((answer) => answer.body.data?.payment_event_id)).size;
  const statuses = [...new Set(answers.map((answer) => answer.status))].sort().join('/');
  const payments = await paymentsOf(context, tenant.key);
  return {
    figure: {
      area: 'storms',
      name: `executions of ${SAME_KEY_REQUESTS} same-key requests`,
      value: Math.max(executions, payments),
      rule: 'eq',
      target: 1,
      detail: `statuses ${statuses}, ${payments} payment(s) stored, ${executions} distinct result(s)`,
    },
    unexpected: answers.filter((answer) => answer.status !== 200 && answer.status !== 409).map((answer) => `same key ${answer.status}`),
  };
}

/** 150 requests at once on a key limited to 100 a minute, all in one window: exactly 100 succeed, the rest are 429 with Retry-After. */
async function rateLimited(context: SuiteContext): Promise<Storm> {
  const tenant = await newTenant(['admin'], { read_per_minute: RATE_LIMIT, write_per_minute: RATE_LIMIT });
  await ingestFailure(context, (await newTenant(['admin'], UNLIMITED)).key, `${unique('warm')}@reliability.test`);
  await awayFromMinuteBoundary(20);
  const answers = await Promise.all(Array.from({ length: RATE_LIMITED_REQUESTS }, () => call(`${context.apiUrl}/payments?per_page=1`, { key: tenant.key })));
  const successes = answers.filter((answer) => answer.status === 200).length;
  const limited = answers.filter((answer) => answer.status === 429 && answer.headers.get('retry-after') !== null).length;
  return {
    figure: {
      area: 'storms',
      name: `successes of ${RATE_LIMITED_REQUESTS} parallel requests, ${RATE_LIMIT}/min key`,
      value: successes,
      rule: 'eq',
      target: RATE_LIMIT,
      detail: `${limited} answered 429 with Retry-After`,
    },
    unexpected: answers
      .filter((answer) => answer.status !== 200 && !(answer.status === 429 && answer.headers.get('retry-after') !== null))
      .map((answer) => `rate limited ${answer.status}`),
  };
}

/** Storms (issue 17): duplicate provider deliveries, same-key requests, a burst on a rate-limited key. */
export async function storms(context: SuiteContext): Promise<Figure[]> {
  const measured = [await duplicateDeliveries(context), await sameKeyRequests(context), await rateLimited(context)];
  const unexpected = measured.flatMap((storm) => storm.unexpected);
  return [
    ...measured.map((storm) => storm.figure),
    { area: 'storms', name: 'answers other than success, 409 in flight or 429', value: unexpected.length, rule: 'eq', target: 0, detail: firstOf(unexpected) },
  ];
}
