import { randomBytes, randomUUID } from 'node:crypto';
import { handler } from '#api/widget/handler';
import { limitWidgetInit } from '#api/pipeline/rate-limit';
import { routes } from '#api/routes';
import { sha256Hex, signWidget } from '#core/hosted';
import { getCustomer } from '#data/customer-repository';
import { getHostedSettings, spendWidgetSignature } from '#data/hosted-settings-repository';
import { putUpdatePaymentLink } from '#data/update-payment-token-repository';
import { toApiGatewayEvent } from '#lib/local/api-gateway-event';
import { createLambdaContext } from '#lib/local/lambda-context';
import { RouteMatcher } from '#lib/local/route-matcher';
import { rotateWidgetSecret } from '#services/widget';
import { seedFailedPayment } from '#bench/fixtures';
import { expectingStatus } from '#bench/requests';
import type { Scenario } from '#bench/scenario';

const PATH = '/api/widget/init';
/** Customers with a failed payment the requests go round. */
const CUSTOMERS = 20;
let sequence = 0;
/** `customer.timestamp` pairs signed so far (each signature is accepted once). */
const used = new Set<string>();
/** Each request from an address of its own (the limit is 30 a minute per address) and with a signature of its own (each is accepted once). */
let addresses = 0;
const nextIp = (): string => {
  addresses += 1;
  return `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`;
};

export const scenario: Scenario = {
  name: 'POST /api/widget/init (signed, a customer with a failed payment)',
  notes: [
    'raw = the same data access through the repositories: the per-IP window UpdateItem, a consistent GetItem of the hosted settings, the conditional PutItem of the signature, GetItem of the customer (which carries its newest open payments: no Query), the PutItem of the new update-payment link',
    'the widget secret is opened once per warm function (cached by merchant and sealed value); the merchant read for the branding is cached 5 minutes; HMAC signing of each request happens outside both sides',
  ],

  async prepare(fixture) {
    // The bench's own DynamoDB Local: secrets are sealed by the local box (as the local stack does).
    process.env.SECRET_BOX_DRIVER ??= 'local';
    process.env.SECRET_BOX_KEY ??= randomBytes(32).toString('base64');
    const { widget_secret: secret } = await rotateWidgetSecret(fixture.merchantId);
    // Signatures are single-use: requests cycle through customers and timestamps within the 300 s window, never one pair twice.
    const customers: Array<{ readonly customerId: string; readonly paymentId: string }> = [];
    for (let index = 0; index < CUSTOMERS; index += 1) {
      const payment = await seedFailedPayment(
        fixture.merchantId,
        { email: `widget.bench${index}@example.com`, name: 'Widget Bench' },
        `ch_bench_widget_${index}`,
      );
      customers.push({ customerId: payment.customer_id, paymentId: payment.id });
    }
    const matcher = new RouteMatcher(routes);
    const match = matcher.match('POST', PATH);
    if (match === undefined || !('route' in match)) throw new Error(`No row answers POST ${PATH}`);
    const signed = () => {
      for (;;) {
        sequence += 1;
        const { customerId } = customers[sequence % CUSTOMERS] as (typeof customers)[number];
        const timestamp = Math.floor(Date.now() / 1000) + (Math.floor(sequence / CUSTOMERS) % 580) - 290;
        if (used.has(`${customerId}.${timestamp}`)) continue;
        used.add(`${customerId}.${timestamp}`);
        return {
          merchant_id: fixture.merchantId,
          customer_id: customerId,
          timestamp,
          signature: signWidget(secret, fixture.merchantId, customerId, timestamp),
        };
      }
    };
    const invoke = () => {
      const body = Buffer.from(JSON.stringify(signed()));
      const event = toApiGatewayEvent(
        { method: 'POST', url: PATH, rawHeaders: ['Host', 'edge.bench.local', 'Content-Type', 'text/plain'], body, sourceIp: nextIp() },
        match,
        randomUUID(),
      );
      return handler(event, createLambdaContext('recovery-widget'));
    };
    const first = await invoke();
    if (first.statusCode !== 200 || !first.body.includes('"has_failed_payment":true')) {
      throw new Error(`POST ${PATH} should answer 200 with the failed payment, got ${first.statusCode}: ${first.body.slice(0, 300)}`);
    }
    return {
      handler: expectingStatus(invoke, `POST ${PATH}`),
      async raw() {
        const request = signed();
        const now = new Date();
        await limitWidgetInit(nextIp(), now);
        await getHostedSettings(fixture.merchantId);
        await spendWidgetSignature(fixture.merchantId, sha256Hex(`${request.signature}${randomUUID()}`), request.timestamp + 360, now);
        const { customerId, paymentId } = customers.find((customer) => customer.customerId === request.customer_id) as (typeof customers)[number];
        await getCustomer(fixture.merchantId, customerId);
        await putUpdatePaymentLink(
          {
            merchant_id: fixture.merchantId,
            customer_id: customerId,
            payment_id: paymentId,
            message_id: null,
            created_at: now.toISOString(),
            expires_at: request.timestamp + 86_400,
          },
          sha256Hex(randomUUID()),
        );
      },
    };
  },
};
