import { randomBytes } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { handler as analyticsHandler } from '#api/analytics/handler';
import { newCampaign } from '#core/campaigns/lifecycle';
import { dayOf } from '#core/analytics/period';
import { type CustomerRecord, customerIdFor } from '#core/customers';
import { timeOrderedId } from '#core/ids';
import { type PaymentRecord, paymentIdFor, recoveryIdFor } from '#core/payments';
import { createCampaign } from '#data/campaign-repository';
import { documentClient } from '#data/client';
import { getCustomer, putCustomer } from '#data/customer-repository';
import { ENTITY, rollupKeys } from '#data/keys';
import { paymentItem, recordFailedPayment } from '#data/payment-repository';
import { projections } from '#data/projections/index';
import { mergeIncrements } from '#data/projections/increments';
import { env } from '#shared/env';
import { counted, installCallTally, perUnit, tally } from '#bench/call-tally';
import { batchWrite, unlimitedMerchant } from '#bench/fixtures';
import { expectingStatus, rawKeyAndRateLimit, routeInvoker } from '#bench/requests';
import type { BenchFixture, Scenario } from '#bench/scenario';

/**
 * Issue 12: "a read of any analytics route costs the same at 1k and 100k payments (calls and RCU
 * ratio <= 1.1)". Two merchants, one with 1,000 and one with 100,000 payments (BENCH_ANALYTICS_PAYMENTS
 * overrides), spread over the same 30 days (the default period) and the same dimension values;
 * every analytics GET route is called through the real handler for each, and its DynamoDB calls
 * and RCU per request compared. A route that answers 501 is not built yet on this branch and is
 * listed as such.
 *
 * The data. Seeding 100,000 payments through the stream consumer would take hours on DynamoDB
 * Local, so the rollup items are written as the consumer would leave them: the payments (and the
 * open customers, and one message per payment) are built in memory as stored items (the
 * repositories' item builders: `paymentItem`, `putCustomer`), every projection of
 * functions/data/projections/index.ts (the consumer's list) is applied to each, the contributions
 * are summed per counter item with the consumer's own `mergeIncrements`, and each item is written
 * with BatchWriteItem as `key + attributes + counters`. The consumer applies, per stream record,
 * `SET <attributes> ADD <counters>` of the same contributions (an insert has no old image), so
 * for items that did not exist the result is the same item; the one difference is a counter that
 * went up and back down (a consumer leaves it at 0, the sum drops it), which no read here depends on.
 *
 * Same dimension values at both sizes, so the same rollup items exist: payment i fails on day
 * i mod 30, in combination (psp x decline category/code x currency) floor(i/30) mod 12, at 09:00
 * or 15:00 UTC by parity of k = floor(i/360), with an outcome (pending, retrying, paused, terminal,
 * recovered by each method) chosen by its day, combination and that parity, and a campaign by its
 * combination: 1,000 payments already fill every (hour, day, combination) item and every counter
 * an item has at 100,000; only the values grow. Messages likewise (day, campaign x channel/domain,
 * outcome by k mod 4).
 *
 * Source items a route reads directly: 3 campaigns (GET /analytics/campaigns lists them), and 200
 * open payments, each of a customer of its own (at-risk-customers, cohort all: a page of the
 * open-customer index and each listed customer's open payments). The other open payments exist
 * only in the rollups: the at-risk figures of 1k and 100k are of the same 200 stored customers.
 * (The other cohorts, expiring_card, repeat_failure and high_value, read every open payment of
 * the merchant: their cost follows what is open now, not the history; not measured here.)
 */
const SIZES = (process.env.BENCH_ANALYTICS_PAYMENTS ?? '1000,100000').split(',').map(Number) as [number, number];
const REQUESTS = 5;
const TARGET = 1.1;
const OPEN_STORED = 200;

const ROUTES: readonly string[] = [
  '/api/v1/analytics/recovery',
  '/api/v1/analytics/revenue',
  '/api/v1/analytics/at-risk',
  '/api/v1/analytics/decline-codes',
  '/api/v1/analytics/recovery-breakdown?segment_by=decline_category',
  '/api/v1/analytics/campaigns',
  '/api/v1/analytics/at-risk-customers',
  '/api/v1/analytics/email-health',
  '/api/v1/analytics/email-engagement',
];

const COMBINATIONS = [
  ['stripe', 'soft_retry', 'insufficient_funds', 'usd'],
  ['stripe', 'soft_retry', 'processing_error', 'usd'],
  ['stripe', 'hard_customer', 'expired_card', 'usd'],
  ['braintree', 'soft_retry', 'insufficient_funds', 'usd'],
  ['braintree', 'soft_retry', 'processing_error', 'usd'],
  ['braintree', 'hard_customer', 'expired_card', 'usd'],
  ['stripe', 'soft_retry', 'insufficient_funds', 'eur'],
  ['stripe', 'soft_retry', 'processing_error', 'eur'],
  ['stripe', 'hard_customer', 'expired_card', 'eur'],
  ['braintree', 'soft_retry', 'insufficient_funds', 'eur'],
  ['braintree', 'soft_retry', 'processing_error', 'eur'],
  ['braintree', 'hard_customer', 'expired_card', 'eur'],
] as const;
/** Outcomes: [status, recovery method when recovered]. */
const OUTCOMES = [
  ['pending', null],
  ['retrying', null],
  ['paused', null],
  ['terminal', null],
  ['recovered', 'retry'],
  ['recovered', 'card_update'],
  ['recovered', 'campaign_email'],
  ['recovered', 'campaign_sms'],
  ['recovered', 'provider'],
  ['recovered', 'retry'],
] as const;
const MESSAGE_COMBINATIONS = [
  [0, 'email', 'gmail.com'],
  [0, 'email', 'example.com'],
  [0, 'sms', ''],
  [null, 'email', 'gmail.com'],
  [null, 'email', 'example.com'],
  [null, 'sms', ''],
] as const;

type Item = Record<string, unknown>;

interface Seeded {
  readonly fixture: BenchFixture;
  readonly payments: number;
}

/** `count` payments, their open customers, messages and campaigns of a new merchant; rollups as the consumer leaves them. */
async function seedMerchant(count: number, merchants: number): Promise<Seeded> {
  const fixture = await unlimitedMerchant(`Analytics ${count}`, merchants);
  const m = fixture.merchantId;
  const now = new Date();
  const first = Date.parse(`${dayOf(new Date(now.getTime() - 29 * 86_400_000))}T00:00:00.000Z`);
  const campaigns = [];
  for (let c = 0; c < 3; c += 1) {
    campaigns.push(
      await createCampaign(
        newCampaign(
          m,
          {
            name: `Analytics bench ${c}`,
            trigger: 'payment_failed',
            filters: {},
            steps: [{ action: 'email' as const, delay_hours: 0, template_id: 'tmpl_soft_decline_1' }],
            delay_hours: 0,
            start_hour: 0,
            end_hour: 23,
          },
          now,
        ),
      ),
    );
  }
  // The payment and customer shapes, from the real path.
  const { payment: template } = await recordFailedPayment(
    {
      merchantId: m,
      customer: { email: `analytics-template-${randomBytes(4).toString('hex')}@example.com`, name: 'Analytics Bench' },
      psp: 'stripe',
      providerPaymentId: null,
      amount: 1000,
      currency: 'usd',
      declineCode: 'insufficient_funds',
      declineCategory: 'soft_retry',
      declineSubcategory: 'insufficient_funds',
      retryAllowed: true,
    },
    new Date(first),
  );
  const templateCustomer = await getCustomer(m, template.customer_id);
  if (templateCustomer === undefined) throw new Error('The template customer is missing');

  const images: Item[] = [];
  const stored: Item[] = [];
  let open = 0;
  for (let i = 0; i < count; i += 1) {
    const day = i % 30;
    const combination = Math.floor(i / 30) % COMBINATIONS.length;
    const parity = Math.floor(i / 360) % 2;
    const at = new Date(first + day * 86_400_000 + (parity === 0 ? 9 : 15) * 3_600_000 + (i % 60) * 1000);
    const [psp, category, code, currency] = COMBINATIONS[combination] as (typeof COMBINATIONS)[number];
    const [status, method] = OUTCOMES[(day + combination + parity * 5) % OUTCOMES.length] as (typeof OUTCOMES)[number];
    const iso = at.toISOString();
    const body = timeOrderedId(at);
    const isOpen = status === 'pending' || status === 'retrying' || status === 'paused';
    const store = isOpen && open < OPEN_STORED;
    let customerId = template.customer_id;
    if (store) {
      open += 1;
      const customer: CustomerRecord = {
        ...templateCustomer,
        id: customerIdFor(timeOrderedId(at)),
        email: `analytics-${randomBytes(6).toString('hex')}@example.com`,
        open_payments: 1,
        version: 0,
      };
      customerId = customer.id;
      for (const write of putCustomer(undefined, customer, at)) if (write.Put !== undefined) stored.push(write.Put.Item as Item);
      images.push(stored.find((item) => item.entity === ENTITY.customer && item.id === customer.id) as Item);
    }
    const campaign = combination % 4 === 3 ? null : (campaigns[combination % 3]?.id ?? null);
    const payment = {
      ...template,
      id: paymentIdFor(body),
      recovery_id: recoveryIdFor(body),
      customer_id: customerId,
      psp,
      decline_category: category,
      decline_code: code,
      currency,
      amount: 1000 + (i % 7) * 500,
      status,
      campaign_id: campaign,
      recovery_method: method,
      recovered_at: status === 'recovered' ? iso : null,
      terminal_at: status === 'terminal' ? iso : null,
      next_retry_at: status === 'retrying' ? new Date(now.getTime() + 86_400_000).toISOString() : null,
      created_at: iso,
      updated_at: iso,
      state_history: [{ status, at: iso, reason: 'bench' }],
    } as PaymentRecord;
    const item = paymentItem(payment);
    images.push(item);
    if (store) stored.push(item);
    // One message per payment: sent the same hour, campaign x channel/domain by its own cell, outcome by k mod 4.
    const messageCombination = Math.floor(i / 30) % MESSAGE_COMBINATIONS.length;
    const [campaignIndex, channel, domain] = MESSAGE_COMBINATIONS[messageCombination] as (typeof MESSAGE_COMBINATIONS)[number];
    const outcome = Math.floor(i / 180) % 4;
    const messageAt = new Date(first + day * 86_400_000 + (outcome % 2 === 0 ? 9 : 15) * 3_600_000).toISOString();
    images.push({
      entity: ENTITY.message,
      merchant_id: m,
      campaign_id: campaignIndex === null ? null : (campaigns[campaignIndex]?.id ?? null),
      channel,
      to: channel === 'email' ? `someone@${domain}` : '+15550100',
      sent_at: messageAt,
      delivered_at: outcome === 2 ? null : messageAt,
      bounced_at: outcome === 2 ? messageAt : null,
      opened_at: outcome === 0 || outcome === 1 ? messageAt : null,
      clicked_at: outcome === 1 ? messageAt : null,
      complained_at: outcome === 3 ? messageAt : null,
      unsubscribed_at: outcome === 3 ? messageAt : null,
    });
  }
  const rollups = mergeIncrements(images.flatMap((image) => projections.flatMap((projection) => projection(image))));
  const items = rollups.map((rollup) => ({ ...rollup.attributes, ...rollup.counters, ...rollup.key }));
  await batchWrite([...stored, ...items].map((Item) => ({ PutRequest: { Item } })));
  process.stderr.write(`bench: analytics merchant of ${count} payments: ${items.length} rollup and counter items, ${stored.length} source items written\n`);
  return { fixture, payments: count };
}

interface RouteCost {
  readonly status: number;
  readonly calls: number;
  readonly rcu: number;
  readonly detail: string;
}

async function costOf(path: string, seeded: Seeded): Promise<RouteCost> {
  const invoke = routeInvoker(analyticsHandler, 'GET', path, seeded.fixture);
  const first = await invoke();
  if (first.statusCode === 501) return { status: 501, calls: 0, rcu: 0, detail: 'not built (501)' };
  if (first.statusCode !== 200) throw new Error(`GET ${path} for ${seeded.payments} payments answered ${first.statusCode}: ${first.body.slice(0, 300)}`);
  await invoke();
  await counted(async () => {
    for (let n = 0; n < REQUESTS; n += 1) {
      const response = await invoke();
      if (response.statusCode !== 200) throw new Error(`GET ${path} answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
    }
  });
  const calls = [...tally.calls.values()].reduce((sum, n) => sum + n, 0) / REQUESTS;
  return { status: 200, calls, rcu: tally.rcu / REQUESTS, detail: perUnit(REQUESTS) };
}

const ratio = (large: number, small: number): number => (small === 0 ? (large === 0 ? 1 : Number.POSITIVE_INFINITY) : large / small);

async function measureRoutes(small: Seeded, large: Seeded): Promise<string[]> {
  const lines: string[] = [
    `COST per request at ${small.payments} and ${large.payments} payments (two merchants, same 30 days and dimension values; ${REQUESTS} requests each, after 2 warm-ups; calls include the key lookup and rate limit of the pipeline; target: ratio ≤ ${TARGET})`,
  ];
  for (const path of ROUTES) {
    const a = await costOf(path, small);
    const b = await costOf(path, large);
    if (a.status === 501 || b.status === 501) {
      lines.push(`GET ${path}: not built on this branch (501)`);
      continue;
    }
    const calls = ratio(b.calls, a.calls);
    const rcu = ratio(b.rcu, a.rcu);
    const verdict = calls <= TARGET && rcu <= TARGET ? 'PASS' : 'ABOVE TARGET';
    lines.push(
      `GET ${path}: calls ${a.calls.toFixed(2)} / ${b.calls.toFixed(2)}, RCU ${a.rcu.toFixed(2)} / ${b.rcu.toFixed(2)}: ratio calls ${calls.toFixed(2)}, RCU ${rcu.toFixed(2)}: ${verdict} (at ${large.payments}: ${b.detail})`,
    );
  }
  process.stderr.write(`bench: ${lines.join('\nbench: ')}\n`);
  return lines;
}

const notes: string[] = [
  `handler = GET /api/v1/analytics/recovery (default period: the last 30 days by day) for the merchant of ${SIZES[1]} payments; raw = the keyed request's calls as in the status scenario + the Query of the period's PAY day rollup items (every page), as readRollups sends it`,
  'the data: rollup items summed in memory from the real projections over the payments and messages, written with BatchWriteItem (see the scenario file for why this is the data the consumer writes)',
];
let seeded: { small: Seeded; large: Seeded } | undefined;

export const scenario: Scenario = {
  name: `analytics reads: GET /api/v1/analytics/* at ${SIZES[0]} and ${SIZES[1]} payments (cost ratio target ≤ ${TARGET}); sides: recovery`,
  notes,

  async prepare(fixture) {
    installCallTally();
    if (seeded === undefined) {
      const started = Date.now();
      seeded = { small: await seedMerchant(SIZES[0], fixture.merchants), large: await seedMerchant(SIZES[1], fixture.merchants) };
      process.stderr.write(`bench: analytics data seeded in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
      notes.push(...(await measureRoutes(seeded.small, seeded.large)));
    }
    const large = seeded.large.fixture;
    const path = '/api/v1/analytics/recovery';
    const invoke = routeInvoker(analyticsHandler, 'GET', path, large);
    const check = await invoke();
    // Not built on this branch: both sides still run, the handler's answer being the 501.
    const expected = check.statusCode === 501 ? 501 : 200;
    if (check.statusCode !== expected) throw new Error(`GET ${path} answered ${check.statusCode}: ${check.body.slice(0, 300)}`);
    const keyAndRateLimit = rawKeyAndRateLimit(large, 'read');
    const today = new Date();
    const range = rollupKeys.range(dayOf(new Date(today.getTime() - 29 * 86_400_000)), dayOf(today));
    return {
      handler: expectingStatus(invoke, `GET ${path}`, expected),
      async raw() {
        await keyAndRateLimit();
        let startKey: Record<string, unknown> | undefined;
        do {
          const page = await documentClient.send(
            new QueryCommand({
              TableName: env.TABLE_NAME,
              KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
              ExpressionAttributeValues: { ':pk': rollupKeys.partition(large.merchantId, 'PAY', 'D'), ':from': range.from, ':to': range.to },
              ...(startKey === undefined ? {} : { ExclusiveStartKey: startKey }),
            }),
          );
          startKey = page.LastEvaluatedKey;
        } while (startKey !== undefined);
      },
    };
  },
};
