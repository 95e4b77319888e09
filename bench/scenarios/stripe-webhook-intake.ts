import { randomUUID } from 'node:crypto';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import Stripe from 'stripe';
import { handler } from '#api/provider-webhooks/handler';
import { routes } from '#api/routes';
import { timeOrderedId } from '#core/ids';
import { documentClient } from '#data/client';
import { setProviderSecret } from '#data/provider-secret-repository';
import { PROVIDER_WEBHOOK_KIND, WEBHOOK_LOG_RETENTION_SECONDS, webhookLogIdFor } from '#data/webhook-log-repository';
import { conditions, ENTITY, keys, WEBHOOK_EVENT_ENTITY, webhookEventKeys, webhookLogKeys } from '#data/keys';
import { env } from '#shared/env';
import { type RawHttpRequest, toApiGatewayEvent } from '#lib/local/api-gateway-event';
import { createLambdaContext } from '#lib/local/lambda-context';
import { LocalQueues } from '#lib/local/queue-hub';
import { RouteMatcher } from '#lib/local/route-matcher';
import { expectingStatus } from '#bench/requests';
import type { Scenario } from '#bench/scenario';

/** As getMerchantCached. */
const MERCHANT_CACHE_MS = 30_000;
const SECRET = 'whsec_bench_0123456789abcdef';
const stripe = new Stripe('sk_test_offline');
// Each delivery is a new event (its own id): a replay of a stored event stores nothing (another path).
const bodyOf = (eventId: string): string =>
  JSON.stringify({
    id: eventId,
    object: 'event',
    created: 1773144000,
    type: 'invoice.payment_failed',
    data: {
      object: {
        id: 'in_1PfXgzLkdIwHu7ixmQ0mLx0b',
        object: 'invoice',
        amount_due: 2500,
        amount_paid: 0,
        currency: 'eur',
        customer: 'cus_QWxv3kqYz8N1rT',
        customer_email: 'jenny.rosen@example.com',
        customer_name: 'Jenny Rosen',
        attempt_count: 1,
        parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_1PfXgxLkdIwHu7ixHj2KcS1o' } },
      },
    },
  });

let rawMerchantReadUntil = 0;

export const scenario: Scenario = {
  name: 'POST /stripe/{merchant_id} (invoice.payment_failed, signed with stripe.webhooks.generateTestHeaderString)',
  notes: [
    'raw = consistent GetItem of the merchant (at most every 30 s, as getMerchantCached) + consistent GetItem of the provider secret (PSP#stripe) + a transaction of two conditional puts, the event marker and the webhook-log item (as putWebhookLogOnce) + the queue send + the UpdateItem marking the event enqueued',
    'each delivery carries a new event id, as live traffic does; replays of a stored event (one conditional transaction that fails, one GetItem, no send) are not measured',
    'the queue send is counted on both sides but is in-process here (LocalQueues, no consumer): on AWS it is one SQS SendMessage, which this bench does not measure',
    'the handler side signs each delivery afresh (a Stripe signature is valid for 300 s) and verifies it: the HMAC is part of what it costs over raw',
  ],

  async prepare(fixture) {
    await setProviderSecret(fixture.merchantId, 'stripe', SECRET);
    const queues = new LocalQueues();
    const path = `/stripe/${fixture.merchantId}`;
    const match = new RouteMatcher(routes).match('POST', path);
    if (match === undefined || !('route' in match)) throw new Error(`No row of the route table answers POST ${path}`);
    const invoke = () => {
      const payload = bodyOf(`evt_bench_${randomUUID()}`);
      const body = Buffer.from(payload, 'utf8');
      const signature = stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET });
      const request: RawHttpRequest = {
        method: 'POST',
        url: path,
        rawHeaders: ['Host', 'hooks.bench.local', 'User-Agent', 'Stripe/1.0', 'Content-Type', 'application/json', 'Stripe-Signature', signature],
        body,
        sourceIp: '127.0.0.1',
      };
      return handler(toApiGatewayEvent(request, match, randomUUID()), createLambdaContext('recovery-provider-webhooks'));
    };
    const first = await invoke();
    const data = (JSON.parse(first.body) as { data?: { received?: unknown; id?: unknown } }).data;
    if (first.statusCode !== 200 || data?.received !== true || typeof data.id !== 'string' || queues.depth('inbound-webhooks') !== 1) {
      throw new Error(`POST ${path} should answer 200 received and enqueue one message, got ${first.statusCode}: ${first.body.slice(0, 300)}`);
    }
    const table = env.TABLE_NAME;

    return {
      handler: expectingStatus(invoke, `POST ${path}`),
      async raw() {
        const now = new Date();
        if (now.getTime() >= rawMerchantReadUntil) {
          await documentClient.send(new GetCommand({ TableName: table, Key: keys.merchant(fixture.merchantId), ConsistentRead: true }));
          rawMerchantReadUntil = now.getTime() + MERCHANT_CACHE_MS;
        }
        await documentClient.send(new GetCommand({ TableName: table, Key: keys.providerSecret(fixture.merchantId, 'stripe'), ConsistentRead: true }));
        const id = timeOrderedId(now);
        const eventIdentity = randomUUID();
        const record = {
          id: webhookLogIdFor(id),
          merchant_id: fixture.merchantId,
          psp: 'stripe',
          route_variant: 'default',
          body: bodyOf(`evt_bench_${eventIdentity}`),
          body_base64: false,
          content_type: 'application/json',
          url: `https://hooks.bench.local${path}`,
          received_at: now.toISOString(),
          expires_at: Math.floor(now.getTime() / 1000) + WEBHOOK_LOG_RETENTION_SECONDS,
        };
        const marker = webhookEventKeys.event(fixture.merchantId, 'stripe', eventIdentity);
        await documentClient.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: table,
                  Item: { ...marker, entity: WEBHOOK_EVENT_ENTITY, webhook_log_id: record.id, enqueued: false, expires_at: record.expires_at },
                  ConditionExpression: conditions.absent,
                },
              },
              {
                Put: {
                  TableName: table,
                  Item: { ...webhookLogKeys.delivery(fixture.merchantId, id), entity: ENTITY.webhookLog, ...record },
                  ConditionExpression: conditions.absent,
                },
              },
            ],
          }),
        );
        queues.send(
          'inbound-webhooks',
          JSON.stringify({ kind: PROVIDER_WEBHOOK_KIND, merchant_id: fixture.merchantId, psp: 'stripe', webhook_log_id: record.id }),
        );
        await documentClient.send(
          new UpdateCommand({
            TableName: table,
            Key: marker,
            UpdateExpression: 'SET enqueued = :true',
            ConditionExpression: conditions.exists,
            ExpressionAttributeValues: { ':true': true },
          }),
        );
      },
    };
  },
};
