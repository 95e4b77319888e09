import { type JsonApiServer, startJsonApiServer } from './json-api-server';

/**
 * Mollie's API on loopback (https://docs.mollie.com/reference/get-payment): GET /v2/payments/{id},
 * /v2/payments/{id}/chargebacks/{id}, /v2/payments/{id}/refunds/{id} and /v2/customers/{id}
 * answer the seeded objects in Mollie's JSON (a chargeback or refund only under its own payment);
 * only `Authorization: Bearer <apiKey>` with the fake's test key (`test_…`) is let in.
 */
export const MOLLIE_TEST_API_KEY = 'test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM';

export interface MolliePaymentSeed {
  readonly id: string;
  readonly status: 'open' | 'canceled' | 'pending' | 'authorized' | 'expired' | 'failed' | 'paid';
  readonly amount: { readonly value: string; readonly currency: string };
  readonly amountRefunded?: { readonly value: string; readonly currency: string };
  readonly customerId?: string;
  readonly subscriptionId?: string;
  readonly details?: Readonly<Record<string, string>>;
  readonly billingAddress?: Readonly<Record<string, string>>;
}

export interface MollieCustomerSeed {
  readonly id: string;
  readonly name?: string;
  readonly email?: string;
}

export interface MollieChargebackSeed {
  readonly id: string;
  readonly paymentId: string;
  readonly amount: { readonly value: string; readonly currency: string };
  readonly reason?: { readonly code: string; readonly description: string };
}

export interface MollieRefundSeed {
  readonly id: string;
  readonly paymentId: string;
  readonly amount: { readonly value: string; readonly currency: string };
  readonly status?: 'queued' | 'pending' | 'processing' | 'refunded' | 'failed' | 'canceled';
}

export interface FakeMollieApi extends JsonApiServer {
  /** Adds or replaces a payment (a status change is a new seed with the same id). */
  seedPayment(payment: MolliePaymentSeed): void;
  seedCustomer(customer: MollieCustomerSeed): void;
  seedChargeback(chargeback: MollieChargebackSeed): void;
  seedRefund(refund: MollieRefundSeed): void;
}

const selfLink = (path: string) => ({ self: { href: `https://api.mollie.com${path}`, type: 'application/hal+json' } });

export async function startFakeMollieApi(apiKey = MOLLIE_TEST_API_KEY): Promise<FakeMollieApi> {
  const payments = new Map<string, MolliePaymentSeed>();
  const customers = new Map<string, MollieCustomerSeed>();
  const chargebacks = new Map<string, MollieChargebackSeed>();
  const refunds = new Map<string, MollieRefundSeed>();
  const server = await startJsonApiServer({
    authorised: (headers) => headers.authorization === `Bearer ${apiKey}`,
    route: (path) => {
      const [, rawPaymentId, kind, rawId] = /^\/v2\/payments\/([^/]+)\/(chargebacks|refunds)\/([^/]+)$/.exec(path) ?? [];
      if (rawPaymentId !== undefined && kind !== undefined && rawId !== undefined) {
        const paymentId = decodeURIComponent(rawPaymentId);
        const seeded = (kind === 'chargebacks' ? chargebacks : refunds).get(decodeURIComponent(rawId));
        if (seeded === undefined || seeded.paymentId !== paymentId) return undefined;
        const resource =
          kind === 'chargebacks'
            ? { resource: 'chargeback', reason: null, reversedAt: null }
            : { resource: 'refund', mode: 'test', status: 'refunded', description: 'Refund', metadata: null };
        return {
          body: {
            ...resource,
            createdAt: '2026-03-03T07:59:00+00:00',
            ...seeded,
            _links: { ...selfLink(path), payment: selfLink(`/v2/payments/${paymentId}`).self },
          },
        };
      }
      const payment = /^\/v2\/payments\/([^/]+)$/.exec(path);
      const found = payment?.[1] === undefined ? undefined : payments.get(decodeURIComponent(payment[1]));
      if (found !== undefined) {
        return {
          body: {
            resource: 'payment',
            mode: 'test',
            createdAt: '2026-03-02T09:58:00+00:00',
            description: 'Subscription renewal',
            method: 'creditcard',
            sequenceType: 'recurring',
            ...found,
            _links: { self: { href: `https://api.mollie.com/v2/payments/${found.id}`, type: 'application/hal+json' } },
          },
        };
      }
      const customer = /^\/v2\/customers\/([^/]+)$/.exec(path);
      const person = customer?.[1] === undefined ? undefined : customers.get(decodeURIComponent(customer[1]));
      return person === undefined ? undefined : { body: { resource: 'customer', mode: 'test', locale: 'nl_NL', ...person } };
    },
  });
  return {
    ...server,
    seedPayment: (payment) => void payments.set(payment.id, payment),
    seedCustomer: (customer) => void customers.set(customer.id, customer),
    seedChargeback: (chargeback) => void chargebacks.set(chargeback.id, chargeback),
    seedRefund: (refund) => void refunds.set(refund.id, refund),
  };
}
