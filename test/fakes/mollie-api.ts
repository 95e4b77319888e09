import { type JsonApiServer, startJsonApiServer } from './json-api-server';

/**
 * Mollie's API on loopback (https://docs.mollie.com/reference/get-payment): GET /v2/payments/{id}
 * and GET /v2/customers/{id} answer the seeded objects in Mollie's JSON; only
 * `Authorization: Bearer <apiKey>` with the fake's test key (`test_…`) is let in.
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

export interface FakeMollieApi extends JsonApiServer {
  /** Adds or replaces a payment (a status change is a new seed with the same id). */
  seedPayment(payment: MolliePaymentSeed): void;
  seedCustomer(customer: MollieCustomerSeed): void;
}

export async function startFakeMollieApi(apiKey = MOLLIE_TEST_API_KEY): Promise<FakeMollieApi> {
  const payments = new Map<string, MolliePaymentSeed>();
  const customers = new Map<string, MollieCustomerSeed>();
  const server = await startJsonApiServer({
    authorised: (headers) => headers.authorization === `Bearer ${apiKey}`,
    route: (path) => {
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
  };
}
