import { type JsonApiServer, type ReceivedRequest, startJsonApiServer } from './json-api-server';

/**
 * Stripe's API on loopback (https://docs.stripe.com/api), for the `stripe` SDK pointed at it
 * through STRIPE_API_BASE_URL. A route map (method, path pattern, handler) answers from the
 * objects a test seeds by id: customers; invoices, PaymentIntents and payment methods, with
 * `POST /v1/invoices/{id}/pay` and `POST /v1/payment_intents/{id}/confirm` scripted per object and
 * idempotent as Stripe is (the Payments section below). Another route is one more entry in
 * STRIPE_ROUTES (or in `extraRoutes`, which come before the payment routes), reading the same
 * seeded objects.
 *
 * As Stripe does: only `Authorization: Bearer <the fake's secret key>` is let in (else 401), an
 * unknown id is 404 `resource_missing`, and every error is `{ error: { type, code?, message } }`,
 * the only shape the SDK reads as an error (`failNextWith(503)` answers an `api_error`). Every
 * request is recorded with its headers (`Idempotency-Key` of a POST, `Stripe-Version` …) and raw
 * form body: see `idempotencyKeyOf` and `formOf`.
 */
export const STRIPE_TEST_SECRET_KEY = 'sk_test_51PfXgLLkdIwHu7ixFakeLoopbackKey0000000000000000000000000';

/** A Stripe object as the API shows it: `id`, `object` and the rest of its fields. */
export type StripeObject = { readonly id: string; readonly object: string } & Readonly<Record<string, unknown>>;

export interface StripeAnswer {
  readonly status?: number;
  readonly body: unknown;
  /**
   * Response headers Stripe sends with this answer (`Idempotent-Replayed: true` on a replay).
   * test/fakes/json-api-server.ts does not write route headers yet, so they are also kept in the
   * fake's `paymentCalls` log (`replayed`).
   */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface StripeRoute {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** Matched against the whole path; its capture groups (decoded) are the handler's params. */
  readonly path: RegExp;
  readonly handle: (objects: ReadonlyMap<string, StripeObject>, params: readonly string[], request: ReceivedRequest) => StripeAnswer;
}

/** Stripe's error envelope (https://docs.stripe.com/api/errors). */
export const stripeError = (status: number, type: string, message: string, code?: string): StripeAnswer => ({
  status,
  body: { error: { type, message, ...(code === undefined ? {} : { code }) } },
});

/** The seeded object `id` when it is an `object`, else Stripe's 404 for it. */
const retrieve = (objects: ReadonlyMap<string, StripeObject>, object: string, id: string | undefined): StripeAnswer => {
  const found = id === undefined ? undefined : objects.get(id);
  if (found === undefined || found.object !== object) return stripeError(404, 'invalid_request_error', `No such ${object}: '${id ?? ''}'`, 'resource_missing');
  return { body: found };
};

export const STRIPE_ROUTES: readonly StripeRoute[] = [
  { method: 'GET', path: /^\/v1\/customers\/([^/]+)$/, handle: (objects, [id]) => retrieve(objects, 'customer', id) },
];

/**
 * `GET /v1/invoices/{id}` answered as Stripe answers
 * `expand[]=payments&expand[]=payments.data.payment.payment_intent` (the Stripe provider API
 * adapter's `invoice_payment` fetch): the invoice with its `payments`, each listed payment's
 * PaymentIntent expanded to the object when the fake holds it (else left as its id). The fake sees
 * no query string, so a test opts in by passing this in `extraRoutes`, which stand in for the
 * default invoice route (payments listed, PaymentIntents as ids).
 */
export const STRIPE_INVOICE_WITH_EXPANDED_INTENTS_ROUTE: StripeRoute = {
  method: 'GET',
  path: /^\/v1\/invoices\/([^/]+)$/,
  handle: (objects, [id]) => {
    const found = retrieve(objects, 'invoice', id);
    if (found.status !== undefined) return found;
    const invoice = found.body as StripeObject & { payments?: { data?: readonly Record<string, unknown>[] } };
    if (invoice.payments?.data === undefined) return found;
    const data = invoice.payments.data.map((payment) => {
      const inner = payment.payment as { payment_intent?: unknown } | undefined;
      const intent = typeof inner?.payment_intent === 'string' ? objects.get(inner.payment_intent) : undefined;
      return intent === undefined ? payment : { ...payment, payment: { ...inner, payment_intent: intent } };
    });
    return { body: { ...invoice, payments: { ...invoice.payments, data } } };
  },
};

export interface StripeCustomerSeed {
  readonly id: string;
  readonly email?: string | null;
  readonly name?: string | null;
  /** The customer's default payment method for invoices and off-session payments. */
  readonly invoice_settings?: { readonly default_payment_method: string | null };
}

export interface FakeStripeApi extends JsonApiServer, FakeStripePayments {
  /** Adds or replaces any object (found by its id). */
  seed(object: StripeObject): void;
  /** A customer as `GET /v1/customers/{id}` answers it. */
  seedCustomer(customer: StripeCustomerSeed): void;
  /** A deleted customer: Stripe still answers 200, with `{ id, object, deleted: true }` only. */
  seedDeletedCustomer(id: string): void;
}

/** The Idempotency-Key a request carried, if any. */
export const idempotencyKeyOf = (request: ReceivedRequest): string | undefined => {
  const key = request.headers['idempotency-key'];
  return Array.isArray(key) ? key[0] : key;
};

/** A request's form-encoded body (the SDK's POST parameters). */
export const formOf = (request: ReceivedRequest): URLSearchParams => new URLSearchParams(request.bodyText);

export async function startFakeStripeApi(options: { secretKey?: string; extraRoutes?: readonly StripeRoute[] } = {}): Promise<FakeStripeApi> {
  const { secretKey = STRIPE_TEST_SECRET_KEY, extraRoutes = [] } = options;
  const objects = new Map<string, StripeObject>();
  const payments = stripePayments(objects);
  // A test's extraRoutes come before the payment routes, so a test can stand in for one of them.
  const routes = [...STRIPE_ROUTES, ...extraRoutes, ...payments.routes];
  const server = await startJsonApiServer({
    methods: ['GET', 'POST', 'DELETE'],
    authorised: (headers) => headers.authorization === `Bearer ${secretKey}`,
    errorBody: (status, title) =>
      status === 401
        ? stripeError(401, 'invalid_request_error', 'Invalid API Key provided').body
        : stripeError(status, status >= 500 ? 'api_error' : 'invalid_request_error', title).body,
    route: (path, request) => {
      for (const route of routes) {
        const match = route.method === request.method ? route.path.exec(path) : null;
        if (match !== null)
          return route.handle(
            objects,
            match.slice(1).map((param) => decodeURIComponent(param)),
            request,
          );
      }
      return stripeError(404, 'invalid_request_error', `Unrecognized request URL (${request.method}: ${path})`);
    },
  });
  const seed = (object: StripeObject): void => void objects.set(object.id, object);
  return {
    ...server,
    seed,
    seedCustomer: (customer) =>
      seed({
        object: 'customer',
        created: 1773144000,
        livemode: false,
        email: null,
        name: null,
        description: null,
        metadata: {},
        invoice_settings: { default_payment_method: null },
        ...customer,
      }),
    seedDeletedCustomer: (id) => seed({ id, object: 'customer', deleted: true }),
    ...payments.helpers,
  };
}

// ---------------------------------------------------------------------------------------------
// Payments: paying invoices and confirming PaymentIntents, scripted per object, idempotent as
// Stripe is. For the Stripe payment gateway (functions/adapters/payment-gateways/stripe.ts).
// ---------------------------------------------------------------------------------------------

/**
 * What one pay of an invoice or confirm of a PaymentIntent does, as a test scripts it:
 * - `succeed`: the card is charged (the invoice becomes `paid`, the intent `succeeded`);
 * - `decline`: the issuer declines: 402 `card_error` with `code` (default `card_declined`),
 *   `decline_code` and, when given, `network_decline_code`, `network_advice_code`, `advice_code`;
 * - `requires_action`: the issuer asks for 3-D Secure. Paying an invoice answers 402 `card_error`
 *   `invoice_payment_intent_requires_action`; confirming an intent off-session answers 402
 *   `card_error` `authentication_required` (the intent back to `requires_payment_method`), and
 *   on-session 200 with the intent in `requires_action`
 *   (https://docs.stripe.com/payments/save-and-reuse, https://docs.stripe.com/error-codes).
 */
export type StripeChargeScript =
  | { readonly outcome: 'succeed' }
  | {
      readonly outcome: 'decline';
      readonly declineCode: string;
      readonly code?: string;
      readonly networkDeclineCode?: string;
      readonly networkAdviceCode?: string;
      readonly adviceCode?: string;
    }
  | { readonly outcome: 'requires_action' };

/** A card payment method (`pm_…`) and its brand. */
export interface StripeCardSeed {
  readonly id: string;
  readonly brand: string;
}

export interface StripeInvoiceSeed {
  readonly id: string;
  readonly customer?: string;
  readonly amountDue?: number;
  readonly currency?: string;
  /** The card a pay charges (the invoice's default payment method). Default: a Visa card. */
  readonly card?: StripeCardSeed;
  /** Default `open`; `paid` for an invoice paid elsewhere already. */
  readonly status?: 'open' | 'paid' | 'void';
  /** What each pay does, in order; the last one repeats. Default: succeed. */
  readonly outcomes?: readonly StripeChargeScript[];
  /**
   * The PaymentIntent of the invoice's (failed) payment: the invoice's `payments` list then holds
   * one default InvoicePayment naming it (`payment.payment_intent`, status `open`, or `paid` for a
   * paid invoice), as `GET /v1/invoices/{id}` answers with `expand[]=payments`
   * (https://docs.stripe.com/api/invoice-payment/object). Default: no payments listed.
   */
  readonly paymentIntent?: string;
}

export interface StripePaymentIntentSeed {
  readonly id: string;
  readonly customer?: string | null;
  readonly amount?: number;
  readonly currency?: string;
  /** Default `requires_payment_method`, as a failed intent is. */
  readonly status?: 'requires_payment_method' | 'requires_confirmation' | 'requires_action' | 'processing' | 'succeeded' | 'canceled';
  /** The payment method attached now: none by default, as after a decline (Stripe detaches it). */
  readonly card?: StripeCardSeed | null;
  /** The failed attempt's error: its card and decline code. */
  readonly lastPaymentError?: { readonly card: StripeCardSeed; readonly declineCode: string } | null;
  /** What each confirm does, in order; the last one repeats. Default: succeed. */
  readonly outcomes?: readonly StripeChargeScript[];
}

/** One POST to a payment route, as the fake answered it. */
export interface StripePaymentCall {
  readonly path: string;
  readonly objectId: string;
  readonly idempotencyKey: string | undefined;
  /** The stored first answer of this key, sent again (Stripe's `Idempotent-Replayed: true`). */
  readonly replayed: boolean;
  readonly status: number;
}

/** One attempt to charge a card that the fake executed (never a replay). */
export interface StripeFakeCharge {
  readonly id: string;
  readonly objectId: string;
  readonly paymentIntent: string;
  readonly paymentMethod: string;
  readonly amount: number;
  readonly status: 'succeeded' | 'failed';
}

export interface FakeStripePayments {
  /** A finalized invoice (and its card) that `POST /v1/invoices/{id}/pay` pays as scripted. */
  seedInvoice(invoice: StripeInvoiceSeed): StripeObject;
  /** A PaymentIntent (and its cards) that `POST /v1/payment_intents/{id}/confirm` confirms as scripted. */
  seedPaymentIntent(intent: StripePaymentIntentSeed): StripeObject;
  /** A card payment method. */
  seedCard(card: StripeCardSeed, customer?: string | null): StripeObject;
  /** Every charge the fake executed for an invoice or intent (replays charge nothing). */
  chargesOf(objectId: string): readonly StripeFakeCharge[];
  /** Every POST to a payment route, in order, with whether it was a replay. */
  readonly paymentCalls: readonly StripePaymentCall[];
  /** Prunes every stored idempotency key, as Stripe does once a key is 24 hours old. */
  forgetIdempotencyKeys(): void;
}

const CREATED = 1773144000;

const cardObject = (card: StripeCardSeed, customer: string | null = null): StripeObject => ({
  id: card.id,
  object: 'payment_method',
  type: 'card',
  customer,
  created: CREATED,
  livemode: false,
  card: { brand: card.brand, display_brand: card.brand, country: 'US', exp_month: 12, exp_year: 2030, funding: 'credit', last4: '4242' },
});

/** The values of `expand[]` in a form body (the SDK sends `expand[0]=…`). */
const expandsOf = (form: URLSearchParams): string[] => [...form.entries()].filter(([key]) => /^expand\[\d*\]$/.test(key)).map(([, value]) => value);

/**
 * Stripe's idempotency layer (https://docs.stripe.com/api/idempotent_requests): the first answer
 * of a POST with an `Idempotency-Key`, errors included, is stored once the endpoint has run and
 * sent again, with `Idempotent-Replayed: true`, to the same request with the same key; the same
 * key on another endpoint or with other parameters is 400 `idempotency_error`. A request that
 * fails before the endpoint runs (failNextWith) stores nothing. Keys of one account (the fake has
 * one); Stripe prunes them once they are 24 hours old (`forgetIdempotencyKeys`).
 */
function idempotencyLayer() {
  const stored = new Map<string, { readonly endpoint: string; readonly body: string; readonly answer: StripeAnswer }>();
  return {
    stored,
    /** The answer of `execute`, or the stored one; `replayed` says which. */
    answer(request: ReceivedRequest, execute: () => StripeAnswer): { answer: StripeAnswer; replayed: boolean } {
      const key = idempotencyKeyOf(request);
      if (key === undefined) return { answer: execute(), replayed: false };
      const endpoint = `${request.method} ${request.path}`;
      const seen = stored.get(key);
      if (seen !== undefined) {
        if (seen.endpoint !== endpoint || seen.body !== request.bodyText) {
          return {
            answer: stripeError(
              400,
              'idempotency_error',
              `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
            ),
            replayed: false,
          };
        }
        return { answer: { ...seen.answer, headers: { ...seen.answer.headers, 'Idempotent-Replayed': 'true' } }, replayed: true };
      }
      const answer = execute();
      stored.set(key, { endpoint, body: request.bodyText, answer });
      return { answer, replayed: false };
    },
  };
}

/** The payment routes and their seeding helpers over the fake's objects (see startFakeStripeApi). */
function stripePayments(objects: Map<string, StripeObject>): { routes: StripeRoute[]; helpers: FakeStripePayments } {
  const scripts = new Map<string, StripeChargeScript[]>();
  /** The PaymentIntent Stripe made for each invoice's payment (one per invoice). */
  const invoiceIntents = new Map<string, string>();
  const charges: StripeFakeCharge[] = [];
  const paymentCalls: StripePaymentCall[] = [];
  const idempotency = idempotencyLayer();
  let sequence = 0;
  const nextId = (prefix: string): string => `${prefix}_fake${String((sequence += 1)).padStart(6, '0')}`;
  const put = (object: StripeObject): StripeObject => {
    objects.set(object.id, object);
    return object;
  };

  /** The next scripted outcome of the object (the last one repeats). */
  const nextScript = (id: string): StripeChargeScript => {
    const queue = scripts.get(id) ?? [];
    const script = (queue.length > 1 ? queue.shift() : queue[0]) ?? { outcome: 'succeed' };
    return script;
  };

  const charge = (objectId: string, paymentIntent: string, paymentMethod: string, amount: number, status: StripeFakeCharge['status']): string => {
    const id = nextId('ch');
    charges.push({ id, objectId, paymentIntent, paymentMethod, amount, status });
    return id;
  };

  const cardOf = (paymentMethod: string): StripeObject => objects.get(paymentMethod) ?? cardObject({ id: paymentMethod, brand: 'visa' });

  /** Stripe's card error body for a scripted decline or authentication request. */
  const cardError = (script: Exclude<StripeChargeScript, { outcome: 'succeed' }>, chargeId: string, card: StripeObject): Record<string, unknown> => {
    if (script.outcome === 'requires_action') {
      return {
        type: 'card_error',
        code: 'authentication_required',
        decline_code: 'authentication_required',
        message: 'Your card was declined. This transaction requires authentication.',
        charge: chargeId,
        payment_method: card,
      };
    }
    return {
      type: 'card_error',
      code: script.code ?? 'card_declined',
      decline_code: script.declineCode,
      message: 'Your card was declined.',
      charge: chargeId,
      ...(script.networkDeclineCode === undefined ? {} : { network_decline_code: script.networkDeclineCode }),
      ...(script.networkAdviceCode === undefined ? {} : { network_advice_code: script.networkAdviceCode }),
      ...(script.adviceCode === undefined ? {} : { advice_code: script.adviceCode }),
      payment_method: card,
    };
  };

  /** The invoice as the API shows it: `payments` only when expanded (as since API 2025-03-31). */
  const invoiceView = (invoice: StripeObject, expand: readonly string[]): StripeObject => {
    const { payments, ...rest } = invoice as StripeObject & { payments?: unknown };
    return (expand.includes('payments') ? { ...rest, payments } : rest) as StripeObject;
  };

  /** POST /v1/invoices/{id}/pay (https://docs.stripe.com/api/invoices/pay). */
  const payInvoice = (id: string, request: ReceivedRequest): StripeAnswer => {
    const invoice = objects.get(id);
    if (invoice === undefined || invoice.object !== 'invoice') return stripeError(404, 'invalid_request_error', `No such invoice: '${id}'`, 'resource_missing');
    // What Stripe answers for a paid invoice: 400 invalid_request_error "Invoice is already paid".
    if (invoice.status === 'paid') return stripeError(400, 'invalid_request_error', 'Invoice is already paid');
    if (invoice.status !== 'open') return stripeError(400, 'invalid_request_error', `This invoice can no longer be paid: it is ${String(invoice.status)}.`);
    const form = formOf(request);
    const amount = Number(invoice.amount_due);
    const paymentMethod = form.get('payment_method') ?? String(invoice.default_payment_method);
    const card = cardOf(paymentMethod);
    const paymentIntent = invoiceIntents.get(id) ?? nextId('pi');
    invoiceIntents.set(id, paymentIntent);
    const script = nextScript(id);
    const attempted = { ...invoice, attempted: true, attempt_count: Number(invoice.attempt_count) + 1 };
    if (script.outcome === 'succeed') {
      charge(id, paymentIntent, paymentMethod, amount, 'succeeded');
      const payment = {
        id: nextId('inpay'),
        object: 'invoice_payment',
        invoice: id,
        is_default: true,
        status: 'paid',
        amount_paid: amount,
        amount_requested: amount,
        currency: invoice.currency,
        payment: { type: 'payment_intent', payment_intent: paymentIntent },
        livemode: false,
        created: CREATED,
      };
      const paid = put({
        ...attempted,
        status: 'paid',
        amount_paid: amount,
        amount_remaining: 0,
        status_transitions: { ...(invoice.status_transitions as object), paid_at: CREATED + 60 },
        payments: { object: 'list', data: [payment], has_more: false, url: '/v1/invoice_payments' },
      });
      return { body: invoiceView(paid, expandsOf(form)) };
    }
    put(attempted);
    if (script.outcome === 'requires_action') {
      // 3-D Secure is asked before any authorisation: no charge.
      return {
        status: 402,
        body: {
          error: {
            type: 'card_error',
            code: 'invoice_payment_intent_requires_action',
            message:
              'This payment requires additional user action before it can be completed successfully. Payment can be completed using the PaymentIntent associated with the invoice.',
            payment_intent: {
              id: paymentIntent,
              object: 'payment_intent',
              status: 'requires_action',
              invoice: id,
              next_action: { type: 'use_stripe_sdk', use_stripe_sdk: {} },
            },
          },
        },
      };
    }
    const chargeId = charge(id, paymentIntent, paymentMethod, amount, 'failed');
    const error = cardError(script, chargeId, card);
    return {
      status: 402,
      body: {
        error: {
          ...error,
          payment_intent: {
            id: paymentIntent,
            object: 'payment_intent',
            status: 'requires_payment_method',
            invoice: id,
            latest_charge: chargeId,
            last_payment_error: error,
          },
        },
      },
    };
  };

  /** POST /v1/payment_intents/{id}/confirm (https://docs.stripe.com/api/payment_intents/confirm). */
  const confirmIntent = (id: string, request: ReceivedRequest): StripeAnswer => {
    const intent = objects.get(id);
    if (intent === undefined || intent.object !== 'payment_intent')
      return stripeError(404, 'invalid_request_error', `No such payment_intent: '${id}'`, 'resource_missing');
    const unexpected = (message: string): StripeAnswer => ({
      status: 400,
      body: { error: { type: 'invalid_request_error', code: 'payment_intent_unexpected_state', message, payment_intent: intent } },
    });
    if (intent.status === 'succeeded')
      return unexpected('You cannot confirm this PaymentIntent because it has already succeeded after being previously confirmed.');
    if (intent.status === 'canceled' || intent.status === 'processing')
      return unexpected(`You cannot confirm this PaymentIntent because it has a status of ${String(intent.status)}.`);
    const form = formOf(request);
    const paymentMethod = form.get('payment_method') ?? (typeof intent.payment_method === 'string' ? intent.payment_method : undefined);
    if (paymentMethod === undefined) {
      return unexpected(
        "You cannot confirm this PaymentIntent because it's missing a payment method. You can either update the PaymentIntent with a payment method and then confirm it again, or confirm it again directly with a payment method.",
      );
    }
    const card = objects.get(paymentMethod);
    if (card === undefined || card.object !== 'payment_method')
      return {
        status: 400,
        body: {
          error: { type: 'invalid_request_error', code: 'resource_missing', param: 'payment_method', message: `No such PaymentMethod: '${paymentMethod}'` },
        },
      };
    const amount = Number(intent.amount);
    const offSession = form.get('off_session') === 'true';
    const script = nextScript(id);
    if (script.outcome === 'succeed') {
      const chargeId = charge(id, id, paymentMethod, amount, 'succeeded');
      return {
        body: put({
          ...intent,
          status: 'succeeded',
          payment_method: paymentMethod,
          amount_received: amount,
          latest_charge: chargeId,
          last_payment_error: null,
          next_action: null,
        }),
      };
    }
    if (script.outcome === 'requires_action' && !offSession) {
      return {
        body: put({ ...intent, status: 'requires_action', payment_method: paymentMethod, next_action: { type: 'use_stripe_sdk', use_stripe_sdk: {} } }),
      };
    }
    const chargeId = charge(id, id, paymentMethod, amount, 'failed');
    const error = cardError(script, chargeId, card);
    const failed = put({
      ...intent,
      status: 'requires_payment_method',
      payment_method: null,
      latest_charge: chargeId,
      last_payment_error: error,
      next_action: null,
    });
    return { status: 402, body: { error: { ...error, payment_intent: failed } } };
  };

  /** A POST through the idempotency layer, logged. */
  const logged =
    (execute: (id: string, request: ReceivedRequest) => StripeAnswer) =>
    (_objects: ReadonlyMap<string, StripeObject>, [id = '']: readonly string[], request: ReceivedRequest): StripeAnswer => {
      const { answer, replayed } = idempotency.answer(request, () => execute(id, request));
      paymentCalls.push({ path: request.path, objectId: id, idempotencyKey: idempotencyKeyOf(request), replayed, status: answer.status ?? 200 });
      return answer;
    };

  const routes: StripeRoute[] = [
    // The fake sees no query string (json-api-server records the path only): a GET shows the
    // invoice as if `expand[]=payments` had been asked.
    {
      method: 'GET',
      path: /^\/v1\/invoices\/([^/]+)$/,
      handle: (all, [id]) => {
        const found = retrieve(all, 'invoice', id);
        return found.status === undefined ? { body: invoiceView(found.body as StripeObject, ['payments']) } : found;
      },
    },
    { method: 'GET', path: /^\/v1\/payment_intents\/([^/]+)$/, handle: (all, [id]) => retrieve(all, 'payment_intent', id) },
    { method: 'GET', path: /^\/v1\/payment_methods\/([^/]+)$/, handle: (all, [id]) => retrieve(all, 'payment_method', id) },
    { method: 'POST', path: /^\/v1\/invoices\/([^/]+)\/pay$/, handle: logged(payInvoice) },
    { method: 'POST', path: /^\/v1\/payment_intents\/([^/]+)\/confirm$/, handle: logged(confirmIntent) },
  ];

  const seedCard = (card: StripeCardSeed, customer: string | null = null): StripeObject => put(cardObject(card, customer));

  const helpers: FakeStripePayments = {
    seedCard,
    seedInvoice: (seed) => {
      const customer = seed.customer ?? 'cus_fakeInvoiceCustomer';
      const card = seed.card ?? { id: `pm_card_${seed.id}`, brand: 'visa' };
      seedCard(card, customer);
      scripts.set(seed.id, [...(seed.outcomes ?? [{ outcome: 'succeed' }])]);
      const amountDue = seed.amountDue ?? 4999;
      const status = seed.status ?? 'open';
      return put({
        id: seed.id,
        object: 'invoice',
        status,
        customer,
        currency: seed.currency ?? 'usd',
        amount_due: amountDue,
        amount_paid: status === 'paid' ? amountDue : 0,
        amount_remaining: status === 'paid' ? 0 : amountDue,
        attempt_count: 1,
        attempted: true,
        collection_method: 'charge_automatically',
        default_payment_method: card.id,
        status_transitions: { finalized_at: CREATED, paid_at: status === 'paid' ? CREATED : null },
        livemode: false,
        created: CREATED,
        metadata: {},
        ...(seed.paymentIntent === undefined
          ? {}
          : {
              payments: {
                object: 'list',
                has_more: false,
                url: '/v1/invoice_payments',
                data: [
                  {
                    id: nextId('inpay'),
                    object: 'invoice_payment',
                    invoice: seed.id,
                    is_default: true,
                    status: status === 'paid' ? 'paid' : 'open',
                    amount_paid: status === 'paid' ? amountDue : null,
                    amount_requested: amountDue,
                    currency: seed.currency ?? 'usd',
                    payment: { type: 'payment_intent', payment_intent: seed.paymentIntent },
                    status_transitions: { canceled_at: null, paid_at: status === 'paid' ? CREATED : null },
                    livemode: false,
                    created: CREATED,
                  },
                ],
              },
            }),
      });
    },
    seedPaymentIntent: (seed) => {
      const customer = seed.customer === undefined ? 'cus_fakeIntentCustomer' : seed.customer;
      if (seed.card) seedCard(seed.card, customer);
      if (seed.lastPaymentError) seedCard(seed.lastPaymentError.card, customer);
      scripts.set(seed.id, [...(seed.outcomes ?? [{ outcome: 'succeed' }])]);
      const failedCard = seed.lastPaymentError ? objects.get(seed.lastPaymentError.card.id) : undefined;
      return put({
        id: seed.id,
        object: 'payment_intent',
        status: seed.status ?? 'requires_payment_method',
        customer,
        amount: seed.amount ?? 4999,
        amount_received: seed.status === 'succeeded' ? (seed.amount ?? 4999) : 0,
        currency: seed.currency ?? 'usd',
        capture_method: 'automatic',
        confirmation_method: 'automatic',
        payment_method: seed.card ? seed.card.id : null,
        latest_charge: null,
        last_payment_error: seed.lastPaymentError
          ? {
              type: 'card_error',
              code: 'card_declined',
              decline_code: seed.lastPaymentError.declineCode,
              message: 'Your card was declined.',
              payment_method: failedCard,
            }
          : null,
        next_action: seed.status === 'requires_action' ? { type: 'use_stripe_sdk', use_stripe_sdk: {} } : null,
        livemode: false,
        created: CREATED,
        metadata: {},
      });
    },
    chargesOf: (objectId) => charges.filter((c) => c.objectId === objectId),
    paymentCalls,
    forgetIdempotencyKeys: () => idempotency.stored.clear(),
  };
  return { routes, helpers };
}
