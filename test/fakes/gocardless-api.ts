import { type JsonApiServer, startJsonApiServer } from './json-api-server';

/**
 * GoCardless's API on loopback (https://developer.gocardless.com/api-reference):
 * GET /payments/{id}, /mandates/{id}, /customers/{id}, /subscriptions/{id} and /refunds/{id}
 * answer the seeded resources in their envelopes (`{ payments: {...} }` …); only
 * `Authorization: Bearer <token>` together with a `GoCardless-Version` header is let in.
 */
export const GOCARDLESS_TEST_ACCESS_TOKEN = 'sandbox_w8QpXkT2vYc9LmN4rJ6hG1sD3fA5zB7e';

export interface GoCardlessPaymentSeed {
  readonly id: string;
  readonly amount: number;
  readonly amount_refunded?: number;
  readonly currency: string;
  readonly status: string;
  readonly links: { readonly mandate: string; readonly subscription?: string; readonly creditor?: string };
}

export interface GoCardlessCustomerSeed {
  readonly id: string;
  readonly email?: string;
  readonly given_name?: string;
  readonly family_name?: string;
  readonly company_name?: string;
}

export interface GoCardlessSubscriptionSeed {
  readonly id: string;
  readonly amount: number;
  readonly currency: string;
  readonly status: 'pending_customer_approval' | 'customer_approval_denied' | 'active' | 'finished' | 'cancelled' | 'paused';
  readonly links: { readonly mandate: string };
}

export interface GoCardlessRefundSeed {
  readonly id: string;
  readonly amount: number;
  readonly currency: string;
  readonly status?: 'created' | 'pending_submission' | 'submitted' | 'paid' | 'cancelled' | 'bounced' | 'funds_returned';
  readonly links: { readonly payment: string; readonly mandate?: string };
}

export interface FakeGoCardlessApi extends JsonApiServer {
  seedPayment(payment: GoCardlessPaymentSeed): void;
  /** A mandate belonging to the customer (the payment's links.mandate). */
  seedMandate(mandateId: string, customerId: string): void;
  seedCustomer(customer: GoCardlessCustomerSeed): void;
  /** Adds or replaces a subscription. */
  seedSubscription(subscription: GoCardlessSubscriptionSeed): void;
  seedRefund(refund: GoCardlessRefundSeed): void;
}

export async function startFakeGoCardlessApi(token = GOCARDLESS_TEST_ACCESS_TOKEN): Promise<FakeGoCardlessApi> {
  const payments = new Map<string, GoCardlessPaymentSeed>();
  const mandates = new Map<string, string>();
  const customers = new Map<string, GoCardlessCustomerSeed>();
  const subscriptions = new Map<string, GoCardlessSubscriptionSeed>();
  const refunds = new Map<string, GoCardlessRefundSeed>();
  const server = await startJsonApiServer({
    authorised: (headers) => headers.authorization === `Bearer ${token}` && typeof headers['gocardless-version'] === 'string',
    route: (path) => {
      const [, collection, rawId] = /^\/(payments|mandates|customers|subscriptions|refunds)\/([^/]+)$/.exec(path) ?? [];
      if (collection === undefined || rawId === undefined) return undefined;
      const id = decodeURIComponent(rawId);
      if (collection === 'payments') {
        const payment = payments.get(id);
        return payment === undefined
          ? undefined
          : {
              body: {
                payments: {
                  created_at: '2026-02-27T10:00:00.000Z',
                  charge_date: '2026-03-02',
                  description: 'Monthly plan',
                  reference: null,
                  metadata: {},
                  amount_refunded: 0,
                  ...payment,
                },
              },
            };
      }
      if (collection === 'subscriptions') {
        const subscription = subscriptions.get(id);
        return subscription === undefined
          ? undefined
          : {
              body: {
                subscriptions: {
                  created_at: '2026-01-10T09:05:00.000Z',
                  name: 'Monthly plan',
                  interval: 1,
                  interval_unit: 'monthly',
                  day_of_month: 1,
                  metadata: {},
                  upcoming_payments: [],
                  ...subscription,
                },
              },
            };
      }
      if (collection === 'refunds') {
        const refund = refunds.get(id);
        return refund === undefined
          ? undefined
          : {
              body: {
                refunds: {
                  created_at: '2026-03-04T10:00:00.000Z',
                  reference: 'Partial refund',
                  metadata: {},
                  status: 'paid',
                  fx: { fx_currency: null },
                  ...refund,
                },
              },
            };
      }
      if (collection === 'mandates') {
        const customer = mandates.get(id);
        return customer === undefined
          ? undefined
          : { body: { mandates: { id, status: 'active', scheme: 'bacs', links: { customer, creditor: 'CR0000ABC', customer_bank_account: 'BA0000XYZ' } } } };
      }
      const customer = customers.get(id);
      return customer === undefined ? undefined : { body: { customers: { created_at: '2026-01-10T09:00:00.000Z', language: 'en', ...customer } } };
    },
  });
  return {
    ...server,
    seedPayment: (payment) => void payments.set(payment.id, payment),
    seedMandate: (mandateId, customerId) => void mandates.set(mandateId, customerId),
    seedCustomer: (customer) => void customers.set(customer.id, customer),
    seedSubscription: (subscription) => void subscriptions.set(subscription.id, subscription),
    seedRefund: (refund) => void refunds.set(refund.id, refund),
  };
}
