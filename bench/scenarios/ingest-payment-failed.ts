import { randomBytes, randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { routes } from '#api/routes';
import { handler } from '#api/ingest/handler';
import { hashApiKey } from '#core/api-keys';
import { type CardLedger, cardIdentityOf, emptyLedger } from '#core/card-caps';
import { customerBodyOf } from '#core/customers';
import { timeOrderedId } from '#core/ids';
import { DEFAULT_MAX_RETRIES, type PaymentRecord } from '#core/payments';
import { DEFAULT_QUIET_HOURS } from '#core/quiet-hours';
import { documentClient } from '#data/client';
import { customerFromItem, putCustomer } from '#data/customer-repository';
import { customerKeys, ENTITY, ingestKeys, keys, paymentKeys, retryKeys } from '#data/keys';
import { foldTransitions, paymentItem, providerRefItem, timelineItem } from '#data/payment-repository';
import { plannedRetryEvent } from '#data/retry-planning';
import { env } from '#shared/env';
import { type RawHttpRequest, toApiGatewayEvent } from '#lib/local/api-gateway-event';
import { createLambdaContext } from '#lib/local/lambda-context';
import { RouteMatcher } from '#lib/local/route-matcher';
import type { Scenario } from '#bench/scenario';

/** As rate-limit.ts and rate-limit-repository.ts. */
const WINDOW_SECONDS = 60;
const WINDOW_RETENTION_SECONDS = 120;
/** As ingest-events.ts. */
const LEASE_SECONDS = 30;
const RETENTION_SECONDS = 30 * 24 * 3600;

const PATH = '/api/v1/ingest/payment-event';
const AMOUNT = 4999;

export const scenario: Scenario = {
  name: 'POST /api/v1/ingest/payment-event (payment_failed, a new payment each time, known customer)',
  notes: [
    'raw = consistent GetItem of the API-key hash + rate-limit UpdateItem (write window) + dedupe-claim conditional PutItem + consistent GetItems of the provider-payment reference (absent), the email reference and the customer + one TransactWriteItems (payment, timeline entries, customer under its version, provider-payment reference; counters are kept by the table-stream consumer since issue 12) + the dedupe record UpdateItem',
    "raw items are built with the repository's own item builders (paymentItem, timelineItem, providerRefItem, putCustomer), so both sides write the same sizes; what raw skips is the pipeline, validation and the decline classification",
    'the customer exists (its first failure is recorded in prepare), as for a merchant whose customers fail more than once',
  ],

  async prepare(fixture) {
    const match = new RouteMatcher(routes).match('POST', PATH);
    if (match === undefined || !('route' in match)) throw new Error(`No row of the route table answers POST ${PATH}`);
    const email = `bench-${randomUUID()}@example.com`;
    const invoke = (paymentId: string) => {
      const body = Buffer.from(
        JSON.stringify({
          event_type: 'payment_failed',
          amount_cents: AMOUNT,
          currency: 'usd',
          customer_email: email,
          decline_code: 'insufficient_funds',
          metadata: { psp: 'stripe', payment_id: paymentId },
        }),
      );
      const request: RawHttpRequest = {
        method: 'POST',
        url: PATH,
        rawHeaders: [
          'Host',
          'api.bench.local',
          'User-Agent',
          'recovery-bench',
          'Authorization',
          `Bearer ${fixture.apiKey}`,
          'Content-Type',
          'application/json',
        ],
        body,
        sourceIp: '127.0.0.1',
      };
      return handler(toApiGatewayEvent(request, match, randomUUID()), createLambdaContext('recovery-ingest'));
    };

    const first = await invoke(`ch_bench_${randomUUID()}`);
    const data = (JSON.parse(first.body) as { data?: { status?: unknown; recovery_initiated?: unknown } }).data;
    if (first.statusCode !== 200 || data?.status !== 'processed' || data.recovery_initiated !== true) {
      throw new Error(`POST ${PATH} should answer 200 processed with a recovery initiated, got ${first.statusCode}: ${first.body.slice(0, 300)}`);
    }

    const hashItem = keys.apiKeyByHash(hashApiKey(fixture.apiKey));
    const bucket = `key:${fixture.apiKeyId}:write`;
    const table = env.TABLE_NAME;

    return {
      async handler() {
        const response = await invoke(`ch_bench_${randomUUID()}`);
        if (response.statusCode !== 200) throw new Error(`POST ${PATH} answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
      },

      async raw() {
        const now = new Date();
        const at = now.toISOString();
        const providerPaymentId = `ch_bench_${randomUUID()}`;
        await documentClient.send(new GetCommand({ TableName: table, Key: hashItem, ConsistentRead: true }));
        const nowSeconds = Math.floor(now.getTime() / 1000);
        const windowStart = nowSeconds - (nowSeconds % WINDOW_SECONDS);
        await documentClient.send(
          new UpdateCommand({
            TableName: table,
            Key: keys.rateLimitWindow(fixture.merchantId, bucket, windowStart),
            UpdateExpression: 'SET #count = if_not_exists(#count, :zero) + :one, #entity = :entity, #expires = :expires',
            ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
            ExpressionAttributeNames: { '#count': 'request_count', '#entity': 'entity', '#expires': 'expires_at' },
            ExpressionAttributeValues: {
              ':zero': 0,
              ':one': 1,
              ':limit': fixture.writePerMinute,
              ':entity': ENTITY.rateLimitWindow,
              ':expires': windowStart + WINDOW_SECONDS + WINDOW_RETENTION_SECONDS,
            },
            ReturnValues: 'UPDATED_NEW',
          }),
        );
        const dedupeKey = JSON.stringify(['payment', 'payment_failed', providerPaymentId]);
        const hash = randomBytes(32).toString('hex');
        const token = randomBytes(12).toString('hex');
        const eventId = `evt_${timeOrderedId(now)}`;
        await documentClient.send(
          new PutCommand({
            TableName: table,
            Item: {
              ...ingestKeys.event(fixture.merchantId, hash),
              entity: ENTITY.ingestEvent,
              dedupe_key: dedupeKey,
              event_id: eventId,
              state: 'in_progress',
              token,
              lease_until: nowSeconds + LEASE_SECONDS,
              created_at: at,
              expires_at: nowSeconds + RETENTION_SECONDS,
            },
            ConditionExpression: 'attribute_not_exists(PK) OR expires_at < :now OR (#state = :in_progress AND lease_until < :now)',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: { ':now': nowSeconds, ':in_progress': 'in_progress' },
          }),
        );
        await documentClient.send(
          new GetCommand({ TableName: table, Key: paymentKeys.providerRef(fixture.merchantId, providerPaymentId), ConsistentRead: true }),
        );
        const ref = (
          await documentClient.send(new GetCommand({ TableName: table, Key: customerKeys.byEmail(fixture.merchantId, email), ConsistentRead: true }))
        ).Item;
        const customerId = String(ref?.customer_id);
        const customerItem = (
          await documentClient.send(
            new GetCommand({ TableName: table, Key: customerKeys.customer(fixture.merchantId, customerBodyOf(customerId) ?? ''), ConsistentRead: true }),
          )
        ).Item;
        if (customerItem === undefined) throw new Error('The bench customer is missing');
        const customer = customerFromItem(customerItem);

        const body = timeOrderedId(now);
        const payment: PaymentRecord = {
          id: `pe_${body}`,
          recovery_id: `rec_${body}`,
          merchant_id: fixture.merchantId,
          customer_id: customer.id,
          customer_email: customer.email,
          psp: 'stripe',
          provider_payment_id: providerPaymentId,
          amount: AMOUNT,
          currency: 'usd',
          status: 'pending',
          previous_status: null,
          decline_code: 'insufficient_funds',
          decline_category: 'soft_retry',
          decline_subcategory: 'balance',
          retry_count: 0,
          max_retries: DEFAULT_MAX_RETRIES,
          next_retry_at: null,
          paused_at: null,
          resumed_at: null,
          recovered_at: null,
          recovery_method: null,
          terminal_at: null,
          card_updated_at: null,
          awaiting_card_update: false,
          subscription_id: null,
          invoice_id: null,
          campaign_id: null,
          network_code: null,
          advice_code: null,
          card_network: null,
          card_identity: cardIdentityOf({ psp: 'stripe', customerId: customer.id }),
          attempt: null,
          gateway_errors: 0,
          last_attempt_at: null,
          retry_requested_at: null,
          metadata: { psp: 'stripe', payment_id: providerPaymentId },
          state_history: [{ status: 'pending', at, reason: 'Payment failed: decline code insufficient_funds (soft_retry/balance)' }],
          created_at: at,
          updated_at: at,
          version: 1,
        };
        // The retry policy's first decision, written with the payment: the card's ledger is read (quiet hours are cached per process).
        const card = await documentClient.send(
          new GetCommand({ TableName: table, Key: retryKeys.cardLedger(fixture.merchantId, payment.card_identity), ConsistentRead: true }),
        );
        const ledger = card.Item === undefined ? emptyLedger(payment.card_identity) : (card.Item as unknown as CardLedger);
        const planned = foldTransitions(payment, [plannedRetryEvent(payment, { quietHours: DEFAULT_QUIET_HOURS, ledger }, now)], now);
        const after = {
          ...customer,
          total_payments: customer.total_payments + 1,
          failed_payments: customer.failed_payments + 1,
          total_failed_cents: customer.total_failed_cents + AMOUNT,
          open_payments: customer.open_payments + 1,
        };
        await documentClient.send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: { TableName: table, Item: paymentItem(planned.after), ConditionExpression: 'attribute_not_exists(PK)' } },
              timelineItem(payment, at, {
                type: 'payment_failed',
                detail: `Payment of ${AMOUNT} usd failed with insufficient_funds`,
                details: { decline_code: 'insufficient_funds', decline_category: 'soft_retry', amount: AMOUNT, currency: 'usd' },
              }),
              ...planned.timelines.map((entry, order) => timelineItem(planned.after, at, entry, order + 1)),
              ...putCustomer(customer, after, now),
              { Put: { TableName: table, Item: providerRefItem(payment, providerPaymentId), ConditionExpression: 'attribute_not_exists(PK)' } },
            ],
          }),
        );
        const result = {
          event_id: eventId,
          event_type: 'payment_failed',
          status: 'processed',
          recovery_initiated: true,
          payment_event_id: payment.id,
          recovery_id: payment.recovery_id,
          affected_payment_ids: [payment.id],
        };
        const tag = ingestKeys.customerTag(fixture.merchantId, customer.id, hash);
        await documentClient.send(
          new UpdateCommand({
            TableName: table,
            Key: ingestKeys.event(fixture.merchantId, hash),
            UpdateExpression: 'SET #state = :done, #result = :result, GSI2PK = :gsi2pk, GSI2SK = :gsi2sk REMOVE lease_until',
            ConditionExpression: '#token = :token',
            ExpressionAttributeNames: { '#state': 'state', '#result': 'result', '#token': 'token' },
            ExpressionAttributeValues: { ':done': 'done', ':result': result, ':token': token, ':gsi2pk': tag.GSI2PK, ':gsi2sk': tag.GSI2SK },
          }),
        );
      },
    };
  },
};
