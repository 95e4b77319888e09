import { randomUUID } from 'node:crypto';
import { cpus } from 'node:os';
import { BatchWriteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { handler as inboundWebhooks } from '#consumers/inbound-webhooks';
import { processProviderWebhook } from '#consumers/provider-webhook';
import { timeOrderedId } from '#core/ids';
import { documentClient } from '#data/client';
import { ENTITY, webhookLogKeys } from '#data/keys';
import { PROVIDER_WEBHOOK_KIND, WEBHOOK_LOG_RETENTION_SECONDS, webhookLogIdFor } from '#data/webhook-log-repository';
import { env } from '#shared/env';
import { LocalQueues } from '#lib/local/queue-hub';
import { counted, installCallTally, perUnit } from '#bench/call-tally';
import type { Scenario } from '#bench/scenario';

/** Deliveries drained in the throughput measurement (BENCH_DRAIN_EVENTS overrides, e.g. 1000 on a slow machine). */
// 10,000 took over 2 minutes to seed and drain on the 2-core dev machine, so 1,000 by default.
const EVENTS = Number(process.env.BENCH_DRAIN_EVENTS ?? 1_000);
let sequence = 0;

/**
 * A verified Stripe invoice.payment_failed, unique event, invoice and customer each time. It names
 * its PaymentIntent (the shape before API version 2025-03-31 "basil"): a basil invoice names none
 * and is completed from Stripe's API, which the bench has no key for.
 */
function stripeBody(): string {
  const n = `${process.pid}_${(sequence += 1)}_${randomUUID().slice(0, 8)}`;
  return JSON.stringify({
    id: `evt_bench_${n}`,
    object: 'event',
    created: Math.floor(Date.now() / 1000),
    type: 'invoice.payment_failed',
    data: {
      object: {
        id: `in_bench_${n}`,
        object: 'invoice',
        payment_intent: `pi_bench_${n}`,
        amount_due: 2500,
        amount_paid: 0,
        currency: 'eur',
        customer: `cus_bench_${n}`,
        customer_email: `drain-${n}@example.com`,
        customer_name: 'Bench Customer',
        attempt_count: 1,
      },
    },
  });
}

/** The webhook-log item putWebhookLog writes for a verified delivery. */
function logItem(merchantId: string, now: Date): { item: Record<string, unknown>; id: string } {
  const body = timeOrderedId(now);
  const id = webhookLogIdFor(body);
  const item = {
    ...webhookLogKeys.delivery(merchantId, body),
    entity: ENTITY.webhookLog,
    id,
    merchant_id: merchantId,
    psp: 'stripe',
    route_variant: 'default',
    body: stripeBody(),
    body_base64: false,
    content_type: 'application/json',
    url: `https://hooks.bench.local/stripe/${merchantId}`,
    received_at: now.toISOString(),
    expires_at: Math.floor(now.getTime() / 1000) + WEBHOOK_LOG_RETENTION_SECONDS,
  };
  return { item, id };
}
const messageOf = (merchantId: string, id: string): string =>
  JSON.stringify({ kind: PROVIDER_WEBHOOK_KIND, merchant_id: merchantId, psp: 'stripe', webhook_log_id: id });

async function measureThroughput(merchantId: string): Promise<string[]> {
  const queues = new LocalQueues({ consumers: { 'inbound-webhooks': inboundWebhooks } });
  const ids: string[] = [];
  const seeding = Date.now();
  for (let start = 0; start < EVENTS; start += 25) {
    const batch = Array.from({ length: Math.min(25, EVENTS - start) }, () => logItem(merchantId, new Date()));
    await documentClient.send(new BatchWriteCommand({ RequestItems: { [env.TABLE_NAME]: batch.map(({ item }) => ({ PutRequest: { Item: item } })) } }));
    ids.push(...batch.map(({ id }) => id));
  }
  for (const id of ids) queues.send('inbound-webhooks', messageOf(merchantId, id));
  const seeded = (Date.now() - seeding) / 1000;
  const { result: counts, seconds } = await counted(() => queues.drain());
  if (counts.succeeded !== EVENTS || counts.deadLettered !== 0) throw new Error(`The drain should process ${EVENTS} deliveries, got ${JSON.stringify(counts)}`);
  const line = [
    `THROUGHPUT: ${EVENTS} stored stripe deliveries (BatchWrite, ${seeded.toFixed(1)} s) drained by the real inbound-webhooks consumer through LocalQueues in ${seconds.toFixed(1)} s = ${(EVENTS / seconds).toFixed(0)} events/s (${counts.batches} batches of up to 10, all handed out at once per pass, on ${cpus().length} cores)`,
    `per event during the drain: ${perUnit(EVENTS)}`,
  ];
  process.stderr.write(`bench: ${line.join('\nbench: ')}\n`);
  return line;
}

const notes: string[] = [
  'handler = one stored delivery (PutItem of the webhook-log item) enqueued on LocalQueues and drained through the real inbound-webhooks consumer (SQS event, partial batch response); raw = the same PutItem, then processProviderWebhook called directly: the difference is the queue and consumer wrapper, the DynamoDB calls are the same',
  'each delivery is a new invoice.payment_failed for a new customer (new payment, new customer, references; counters are kept by the table-stream consumer since issue 12)',
];

export const scenario: Scenario = {
  name: `inbound-webhooks consumer: a verified stripe invoice.payment_failed (throughput: ${EVENTS} deliveries drained)`,
  notes,

  async prepare(fixture) {
    installCallTally();
    if (!notes.some((note) => note.startsWith('THROUGHPUT'))) notes.push(...(await measureThroughput(fixture.merchantId)));
    const queues = new LocalQueues({ consumers: { 'inbound-webhooks': inboundWebhooks } });
    const store = async (): Promise<string> => {
      const { item, id } = logItem(fixture.merchantId, new Date());
      await documentClient.send(new PutCommand({ TableName: env.TABLE_NAME, Item: item }));
      return id;
    };
    return {
      async handler() {
        queues.send('inbound-webhooks', messageOf(fixture.merchantId, await store()));
        const counts = await queues.drain();
        if (counts.succeeded !== 1) throw new Error(`The consumer should process one delivery, got ${JSON.stringify(counts)}`);
      },
      async raw() {
        await processProviderWebhook(
          { kind: PROVIDER_WEBHOOK_KIND, merchant_id: fixture.merchantId, psp: 'stripe', webhook_log_id: await store() },
          {} as never,
        );
      },
    };
  },
};
