/**
 * The Stripe payment gateway (functions/adapters/payment-gateways/stripe.ts) through the `stripe`
 * SDK against the loopback fake of Stripe's API (test/fakes/stripe-api.ts), which pays invoices
 * and confirms PaymentIntents as each test scripts them and keeps Idempotency-Keys as Stripe
 * does; and once end to end through the retry engine (a retry requested as the API does, services/request-retry.ts, then
 * attempted as the executor does, jobs/attempt-retry.ts) on DynamoDB Local.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { stripeGateway } from '#adapters/payment-gateways/stripe';
import { attemptIdempotencyKey, type GatewayChargeRequest, GatewayError } from '#core/payment-gateway';
import { setGateway } from '#data/gateway-config-repository';
import { createMerchant } from '#data/merchant-repository';
import { listOutboundEvents } from '#data/outbound-event-repository';
import { getPayment } from '#data/payment-repository';
import { setProviderApiKey } from '#data/provider-secret-repository';
import { attemptRetry } from '#services/attempt-retry';
import { requestRetry } from '#services/request-retry';
import type { ReceivedRequest } from '#test/fakes/json-api-server';
import { type FakeStripeApi, formOf, idempotencyKeyOf, STRIPE_TEST_SECRET_KEY, type StripeRoute, startFakeStripeApi } from '#test/fakes/stripe-api';
import { seedPayment } from '#test/fixtures/payments';

const credentials = { apiKey: STRIPE_TEST_SECRET_KEY };
const unique = (): string => Math.random().toString(36).slice(2, 12);

/** A loopback port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Attempt `attemptNumber` of a failed Stripe payment, with the engine's idempotency key for it. */
function attempt(
  ids: { invoiceId?: string | null; providerPaymentId?: string | null },
  attemptNumber = 1,
  paymentId = `pay_${unique()}`,
): GatewayChargeRequest {
  return {
    merchantId: 'merch_stripegw',
    paymentId,
    psp: 'stripe',
    providerPaymentId: ids.providerPaymentId ?? null,
    invoiceId: ids.invoiceId ?? null,
    amount: 4999,
    currency: 'usd',
    declineCode: 'insufficient_funds',
    attemptNumber,
    idempotencyKey: attemptIdempotencyKey(paymentId, attemptNumber),
  };
}

/** The id of a PaymentIntent whose first GET shows it still failed though a confirm already succeeded (see `raceRoute`). */
const RACE_PREFIX = 'pi_race';
const staleReadsServed = new Set<string>();
/**
 * Stands in for the fake's GET of a `pi_race…` intent: the first read shows it as it was before
 * another confirm succeeded (the customer paid meanwhile), the next ones as it is.
 */
const raceRoute: StripeRoute = {
  method: 'GET',
  path: new RegExp(`^/v1/payment_intents/(${RACE_PREFIX}[^/]*)$`),
  handle: (objects, [id = '']) => {
    const intent = objects.get(id);
    if (intent === undefined)
      return { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such payment_intent: '${id}'` } } };
    if (staleReadsServed.has(id)) return { body: intent };
    staleReadsServed.add(id);
    return { body: { ...intent, status: 'requires_payment_method', latest_charge: null, amount_received: 0 } };
  },
};

describe('stripeGateway.charge', () => {
  let fake: FakeStripeApi;

  beforeAll(async () => {
    fake = await startFakeStripeApi({ extraRoutes: [raceRoute] });
    process.env.STRIPE_API_BASE_URL = fake.url;
  });
  afterAll(async () => {
    delete process.env.STRIPE_API_BASE_URL;
    await fake.stop();
  });
  beforeEach(() => {
    process.env.STRIPE_API_BASE_URL = fake.url;
  });

  const requestsSince = (index: number): ReceivedRequest[] => fake.requests.slice(index);
  const callsOf = (objectId: string) => fake.paymentCalls.filter((call) => call.objectId === objectId);

  describe('an open invoice', () => {
    it('pays it with the attempt idempotency key and the merchant key, and answers succeeded with the PaymentIntent of its payment', async () => {
      // Prepare
      const invoiceId = `in_${unique()}`;
      fake.seedInvoice({ id: invoiceId, amountDue: 4999 });
      const request = attempt({ invoiceId, providerPaymentId: `pi_${unique()}` });
      const before = fake.requests.length;
      // Act
      const outcome = await stripeGateway.charge(request, credentials);
      // Assess
      const charges = fake.chargesOf(invoiceId);
      expect(charges.map((c) => [c.status, c.amount])).toEqual([['succeeded', 4999]]);
      expect(outcome).toEqual({ status: 'succeeded', providerChargeId: charges[0]?.paymentIntent });
      const requests = requestsSince(before);
      expect(requests.map((r) => [r.method, r.path, r.headers.authorization, idempotencyKeyOf(r)])).toEqual([
        ['POST', `/v1/invoices/${invoiceId}/pay`, `Bearer ${STRIPE_TEST_SECRET_KEY}`, request.idempotencyKey],
      ]);
      expect(formOf(requests[0] as ReceivedRequest).getAll('expand[0]')).toEqual(['payments']);
      expect(stripeGateway).toMatchObject({ name: 'stripe', needsApiKey: true });
    });

    it('answers a card decline as declined with the decline code, network decline code, network advice code and card brand', async () => {
      // Prepare
      const invoiceId = `in_${unique()}`;
      fake.seedInvoice({
        id: invoiceId,
        card: { id: `pm_${unique()}`, brand: 'mastercard' },
        outcomes: [{ outcome: 'decline', declineCode: 'insufficient_funds', networkDeclineCode: '51', networkAdviceCode: '24', adviceCode: 'try_again_later' }],
      });
      // Act
      const outcome = await stripeGateway.charge(attempt({ invoiceId }), credentials);
      // Assess
      const charges = fake.chargesOf(invoiceId);
      expect(charges.map((c) => c.status)).toEqual(['failed']);
      expect(outcome).toEqual({
        status: 'declined',
        declineCode: 'insufficient_funds',
        networkCode: '51',
        adviceCode: '24',
        network: 'mastercard',
        providerChargeId: charges[0]?.id,
      });
    });

    it('answers an invoice whose payment needs 3-D Secure as declined authentication_required', async () => {
      // Prepare
      const invoiceId = `in_${unique()}`;
      fake.seedInvoice({ id: invoiceId, outcomes: [{ outcome: 'requires_action' }] });
      // Act
      const outcome = await stripeGateway.charge(attempt({ invoiceId }), credentials);
      // Assess
      expect(outcome).toMatchObject({ status: 'declined', declineCode: 'authentication_required' });
      expect(callsOf(invoiceId).map((c) => c.status)).toEqual([402]);
      expect(fake.chargesOf(invoiceId)).toEqual([]);
    });

    it('charges once when the same attempt is re-sent with the same key: the second answer is the stored first one, replayed', async () => {
      // Prepare
      const invoiceId = `in_${unique()}`;
      fake.seedInvoice({ id: invoiceId });
      const request = attempt({ invoiceId });
      // Act
      const first = await stripeGateway.charge(request, credentials);
      const resent = await stripeGateway.charge(request, credentials);
      // Assess
      expect(resent).toEqual(first);
      expect(first.status).toBe('succeeded');
      expect(fake.chargesOf(invoiceId)).toHaveLength(1);
      expect(callsOf(invoiceId).map((c) => [c.idempotencyKey, c.status, c.replayed])).toEqual([
        [request.idempotencyKey, 200, false],
        [request.idempotencyKey, 200, true],
      ]);
    });

    it('answers a re-sent declined attempt with the same decline from the stored answer, without a second authorisation', async () => {
      // Prepare
      const invoiceId = `in_${unique()}`;
      fake.seedInvoice({ id: invoiceId, outcomes: [{ outcome: 'decline', declineCode: 'do_not_honor' }, { outcome: 'succeed' }] });
      const request = attempt({ invoiceId }, 2);
      // Act
      const first = await stripeGateway.charge(request, credentials);
      const resent = await stripeGateway.charge(request, credentials);
      // Assess
      expect(first).toMatchObject({ status: 'declined', declineCode: 'do_not_honor', network: 'visa' });
      expect(resent).toEqual(first);
      expect(fake.chargesOf(invoiceId).map((c) => c.status)).toEqual(['failed']);
      expect(callsOf(invoiceId).map((c) => [c.status, c.replayed])).toEqual([
        [402, false],
        [402, true],
      ]);
    });

    it('sends a new key for a new attempt number, which Stripe executes as a new payment attempt', async () => {
      // Prepare
      const invoiceId = `in_${unique()}`;
      fake.seedInvoice({ id: invoiceId, outcomes: [{ outcome: 'decline', declineCode: 'insufficient_funds' }, { outcome: 'succeed' }] });
      const paymentId = `pay_${unique()}`;
      // Act
      const first = await stripeGateway.charge(attempt({ invoiceId }, 1, paymentId), credentials);
      const second = await stripeGateway.charge(attempt({ invoiceId }, 2, paymentId), credentials);
      // Assess
      expect(first).toMatchObject({ status: 'declined', declineCode: 'insufficient_funds' });
      expect(second).toMatchObject({ status: 'succeeded' });
      expect(callsOf(invoiceId).map((c) => [c.idempotencyKey, c.replayed])).toEqual([
        [`retry-${paymentId}-1`, false],
        [`retry-${paymentId}-2`, false],
      ]);
      expect(fake.chargesOf(invoiceId).map((c) => c.status)).toEqual(['failed', 'succeeded']);
    });

    it('answers succeeded when the attempt is re-sent after Stripe pruned its key and the invoice is already paid (400), by retrieving it', async () => {
      // Prepare
      const invoiceId = `in_${unique()}`;
      fake.seedInvoice({ id: invoiceId });
      const request = attempt({ invoiceId });
      const first = await stripeGateway.charge(request, credentials);
      fake.forgetIdempotencyKeys();
      const before = fake.requests.length;
      // Act
      const resent = await stripeGateway.charge(request, credentials);
      // Assess
      expect(resent).toEqual(first);
      expect(first.status).toBe('succeeded');
      expect(callsOf(invoiceId).map((c) => [c.status, c.replayed])).toEqual([
        [200, false],
        [400, false],
      ]);
      expect(requestsSince(before).map((r) => [r.method, r.path])).toEqual([
        ['POST', `/v1/invoices/${invoiceId}/pay`],
        ['GET', `/v1/invoices/${invoiceId}`],
      ]);
      expect(fake.chargesOf(invoiceId)).toHaveLength(1);
    });

    it('throws a GatewayError when pay is refused and the invoice is not paid (a void invoice)', async () => {
      // Prepare
      const invoiceId = `in_${unique()}`;
      fake.seedInvoice({ id: invoiceId, status: 'void' });
      // Act
      const error = await stripeGateway.charge(attempt({ invoiceId }), credentials).catch((caught: unknown) => caught);
      // Assess
      expect(error).toBeInstanceOf(GatewayError);
      expect((error as Error).message).toMatch(new RegExp(`invoice ${invoiceId} is void`));
    });
  });

  describe('a PaymentIntent', () => {
    it("confirms it off-session with the customer's default card and answers succeeded with its charge", async () => {
      // Prepare
      const customer = `cus_${unique()}`;
      const newCard = { id: `pm_${unique()}`, brand: 'visa' };
      fake.seedCustomer({ id: customer, email: 'jenny@example.com', invoice_settings: { default_payment_method: newCard.id } });
      fake.seedCard(newCard, customer);
      const intentId = `pi_${unique()}`;
      fake.seedPaymentIntent({ id: intentId, customer, lastPaymentError: { card: { id: `pm_${unique()}`, brand: 'visa' }, declineCode: 'expired_card' } });
      const request = attempt({ providerPaymentId: intentId });
      const before = fake.requests.length;
      // Act
      const outcome = await stripeGateway.charge(request, credentials);
      // Assess
      const charges = fake.chargesOf(intentId);
      expect(charges.map((c) => [c.status, c.paymentMethod])).toEqual([['succeeded', newCard.id]]);
      expect(outcome).toEqual({ status: 'succeeded', providerChargeId: charges[0]?.id });
      const requests = requestsSince(before);
      expect(requests.map((r) => [r.method, r.path])).toEqual([
        ['GET', `/v1/payment_intents/${intentId}`],
        ['GET', `/v1/customers/${customer}`],
        ['POST', `/v1/payment_intents/${intentId}/confirm`],
      ]);
      const confirm = requests[2] as ReceivedRequest;
      expect(idempotencyKeyOf(confirm)).toBe(request.idempotencyKey);
      expect(Object.fromEntries(formOf(confirm))).toEqual({ payment_method: newCard.id, off_session: 'true' });
    });

    it('answers a decline of the confirm as declined with the network fields, retrying the failed card when there is no other', async () => {
      // Prepare
      const failedCard = { id: `pm_${unique()}`, brand: 'mastercard' };
      const intentId = `pi_${unique()}`;
      fake.seedPaymentIntent({
        id: intentId,
        customer: null,
        lastPaymentError: { card: failedCard, declineCode: 'insufficient_funds' },
        outcomes: [{ outcome: 'decline', declineCode: 'do_not_honor', networkDeclineCode: '05', networkAdviceCode: '03' }],
      });
      // Act
      const outcome = await stripeGateway.charge(attempt({ providerPaymentId: intentId }), credentials);
      // Assess
      const charges = fake.chargesOf(intentId);
      expect(charges.map((c) => [c.status, c.paymentMethod])).toEqual([['failed', failedCard.id]]);
      expect(outcome).toEqual({
        status: 'declined',
        declineCode: 'do_not_honor',
        networkCode: '05',
        adviceCode: '03',
        network: 'mastercard',
        providerChargeId: charges[0]?.id,
      });
    });

    it('answers declined authentication_required when the issuer asks for 3-D Secure off-session', async () => {
      // Prepare
      const card = { id: `pm_${unique()}`, brand: 'visa' };
      const intentId = `pi_${unique()}`;
      fake.seedPaymentIntent({ id: intentId, customer: null, card, outcomes: [{ outcome: 'requires_action' }] });
      // Act
      const outcome = await stripeGateway.charge(attempt({ providerPaymentId: intentId }), credentials);
      // Assess
      expect(outcome).toMatchObject({ status: 'declined', declineCode: 'authentication_required', network: 'visa' });
      expect(callsOf(intentId).map((c) => c.status)).toEqual([402]);
    });

    it('answers declined authentication_required without confirming an intent that waits for the customer to authenticate', async () => {
      // Prepare
      const intentId = `pi_${unique()}`;
      fake.seedPaymentIntent({ id: intentId, customer: null, status: 'requires_action', card: { id: `pm_${unique()}`, brand: 'visa' } });
      // Act
      const outcome = await stripeGateway.charge(attempt({ providerPaymentId: intentId }), credentials);
      // Assess
      expect(outcome).toMatchObject({ status: 'declined', declineCode: 'authentication_required' });
      expect(callsOf(intentId)).toEqual([]);
    });

    it('answers succeeded for an intent that succeeded already, without confirming it again', async () => {
      // Prepare
      const card = { id: `pm_${unique()}`, brand: 'visa' };
      const intentId = `pi_${unique()}`;
      fake.seedPaymentIntent({ id: intentId, customer: null, card });
      const first = await stripeGateway.charge(attempt({ providerPaymentId: intentId }, 1), credentials);
      // Act
      const next = await stripeGateway.charge(attempt({ providerPaymentId: intentId }, 2), credentials);
      // Assess
      expect(next).toEqual(first);
      expect(first.status).toBe('succeeded');
      expect(callsOf(intentId)).toHaveLength(1);
      expect(fake.chargesOf(intentId)).toHaveLength(1);
    });

    it('answers succeeded when the confirm answers payment_intent_unexpected_state because the intent succeeded meanwhile', async () => {
      // Prepare: succeeded through another confirm; this attempt's first read still shows it failed
      const card = { id: `pm_${unique()}`, brand: 'visa' };
      const intentId = `${RACE_PREFIX}_${unique()}`;
      fake.seedPaymentIntent({ id: intentId, customer: null, card });
      staleReadsServed.add(intentId);
      const paidElsewhere = await stripeGateway.charge(attempt({ providerPaymentId: intentId }), credentials);
      staleReadsServed.delete(intentId);
      // Act
      const outcome = await stripeGateway.charge(attempt({ providerPaymentId: intentId }), credentials);
      // Assess
      expect(paidElsewhere.status).toBe('succeeded');
      expect(outcome).toEqual(paidElsewhere);
      expect(callsOf(intentId).map((c) => c.status)).toEqual([200, 400]);
      expect(fake.chargesOf(intentId)).toHaveLength(1);
    });
  });

  describe('no answer about the card', () => {
    it('throws a GatewayError on a 503, after one request; the same attempt re-sent later is executed (nothing was stored for the key)', async () => {
      // Prepare
      const invoiceId = `in_${unique()}`;
      fake.seedInvoice({ id: invoiceId });
      const request = attempt({ invoiceId });
      fake.failNextWith(503);
      const before = fake.requests.length;
      // Act
      const error = await stripeGateway.charge(request, credentials).catch((caught: unknown) => caught);
      const afterOne = fake.requests.length;
      const resent = await stripeGateway.charge(request, credentials);
      // Assess
      expect(error).toBeInstanceOf(GatewayError);
      expect((error as Error).message).toMatch(/503/);
      expect(afterOne - before).toBe(1);
      expect(resent.status).toBe('succeeded');
      expect(fake.chargesOf(invoiceId)).toHaveLength(1);
    });

    it('throws a GatewayError on a 429', async () => {
      // Prepare
      const invoiceId = `in_${unique()}`;
      fake.seedInvoice({ id: invoiceId });
      fake.failNextWith(429);
      // Act
      const error = await stripeGateway.charge(attempt({ invoiceId }), credentials).catch((caught: unknown) => caught);
      // Assess
      expect(error).toBeInstanceOf(GatewayError);
      expect((error as Error).message).toMatch(/429/);
      expect(fake.chargesOf(invoiceId)).toEqual([]);
    });

    it('throws a GatewayError when Stripe refuses the key (401), without naming the key', async () => {
      // Prepare
      const invoiceId = `in_${unique()}`;
      fake.seedInvoice({ id: invoiceId });
      const wrongKey = `sk_test_wrong${unique()}`;
      // Act
      const error = await stripeGateway.charge(attempt({ invoiceId }), { apiKey: wrongKey }).catch((caught: unknown) => caught);
      // Assess
      expect(error).toBeInstanceOf(GatewayError);
      expect((error as Error).message).toMatch(/401/);
      expect((error as Error).message).not.toContain(wrongKey);
      expect(fake.chargesOf(invoiceId)).toEqual([]);
    });

    it('throws a GatewayError when the key was used before with other parameters (400 idempotency_error)', async () => {
      // Prepare: the key of an invoice payment, then sent to confirm a PaymentIntent
      const invoiceId = `in_${unique()}`;
      fake.seedInvoice({ id: invoiceId });
      const intentId = `pi_${unique()}`;
      fake.seedPaymentIntent({ id: intentId, customer: null, card: { id: `pm_${unique()}`, brand: 'visa' } });
      const paymentId = `pay_${unique()}`;
      await stripeGateway.charge(attempt({ invoiceId }, 1, paymentId), credentials);
      // Act
      const error = await stripeGateway.charge(attempt({ providerPaymentId: intentId }, 1, paymentId), credentials).catch((caught: unknown) => caught);
      // Assess
      expect(error).toBeInstanceOf(GatewayError);
      expect((error as Error).message).toMatch(/idempotency_error/);
      expect(fake.chargesOf(intentId)).toEqual([]);
    });

    it('throws a GatewayError when nothing answers at STRIPE_API_BASE_URL', async () => {
      // Prepare
      process.env.STRIPE_API_BASE_URL = `http://127.0.0.1:${await closedPort()}`;
      // Act
      const error = await stripeGateway.charge(attempt({ invoiceId: `in_${unique()}` }), credentials).catch((caught: unknown) => caught);
      // Assess
      expect(error).toBeInstanceOf(GatewayError);
      expect((error as Error).message).toMatch(/no answer|connection/);
    });

    it('throws a GatewayError without calling Stripe for a payment with neither an invoice nor a PaymentIntent', async () => {
      // Prepare
      const before = fake.requests.length;
      // Act
      const charge = await stripeGateway.charge(attempt({ providerPaymentId: `ch_${unique()}` }), credentials).catch((caught: unknown) => caught);
      const nothing = await stripeGateway.charge(attempt({}), credentials).catch((caught: unknown) => caught);
      // Assess
      for (const error of [charge, nothing]) {
        expect(error).toBeInstanceOf(GatewayError);
        expect((error as Error).message).toMatch(/cannot be retried through Stripe: it has no invoice/);
      }
      expect(fake.requests.length).toBe(before);
    });

    it('throws a GatewayError without calling Stripe when no API key is given', async () => {
      // Prepare
      const before = fake.requests.length;
      // Act
      const error = await stripeGateway.charge(attempt({ invoiceId: `in_${unique()}` }), undefined).catch((caught: unknown) => caught);
      // Assess
      expect(error).toBeInstanceOf(GatewayError);
      expect(fake.requests.length).toBe(before);
    });
  });

  describe('through the retry engine', () => {
    it('recovers a failed invoice payment of a merchant configured with the stripe gateway: one pay, with the key retry-<payment id>-1', async () => {
      // Prepare
      const merchant = await createMerchant({ name: 'Stripe gateway merchant' });
      await setGateway(merchant.id, 'stripe', 'stripe');
      await setProviderApiKey(merchant.id, 'stripe', STRIPE_TEST_SECRET_KEY);
      const invoiceId = `in_${unique()}`;
      fake.seedInvoice({ id: invoiceId, amountDue: 4999 });
      const payment = await seedPayment(merchant.id, { invoiceId, providerPaymentId: `pi_${unique()}` });
      const now = new Date();
      // Act
      const requested = await requestRetry(merchant.id, payment.id, now);
      const result = await attemptRetry(merchant.id, payment.id, 'stripe', { now });
      // Assess
      expect(requested).toMatchObject({ kind: 'queued', retryNumber: 1, dueAt: now.toISOString() });
      const charges = fake.chargesOf(invoiceId);
      expect(charges).toHaveLength(1);
      expect(result).toMatchObject({ kind: 'attempted', outcome: 'succeeded', payment: { status: 'recovered' } });
      const pays = fake.requests.filter((r) => r.method === 'POST' && r.path === `/v1/invoices/${invoiceId}/pay`);
      expect(pays.map((r) => [idempotencyKeyOf(r), r.headers.authorization])).toEqual([[`retry-${payment.id}-1`, `Bearer ${STRIPE_TEST_SECRET_KEY}`]]);
      expect(await getPayment(merchant.id, payment.id)).toMatchObject({ status: 'recovered', retry_count: 1, attempt: null });
      const recovered = (await listOutboundEvents(merchant.id)).find((e) => e.types.includes('payment.recovered'));
      expect(recovered?.data).toMatchObject({
        object: { payment_id: payment.id, gateway: 'stripe', retry_number: 1, amount: 4999, provider_charge_id: charges[0]?.paymentIntent },
      });
    }, 30_000);
  });
});
