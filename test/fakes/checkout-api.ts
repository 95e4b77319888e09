import { type JsonApiServer, startJsonApiServer } from './json-api-server';

/**
 * Checkout.com's API on loopback (https://api-reference.checkout.com/#operation/getCustomerDetails):
 * GET /customers/{identifier} answers the seeded customer (`{ id, email, name, phone, metadata,
 * instruments }`); only `Authorization: Bearer <secret key>` with the fake's key is let in.
 */
export const CHECKOUT_TEST_SECRET_KEY = 'sk_sbox_m73dzbpy7cf3gfd46xr4yj5xo4e';

export interface CheckoutCustomerSeed {
  readonly id: string;
  readonly email?: string;
  readonly name?: string;
}

export interface FakeCheckoutApi extends JsonApiServer {
  seedCustomer(customer: CheckoutCustomerSeed): void;
}

export async function startFakeCheckoutApi(secretKey = CHECKOUT_TEST_SECRET_KEY): Promise<FakeCheckoutApi> {
  const customers = new Map<string, CheckoutCustomerSeed>();
  const server = await startJsonApiServer({
    authorised: (headers) => headers.authorization === `Bearer ${secretKey}`,
    route: (path) => {
      const match = /^\/customers\/([^/]+)$/.exec(path);
      const found = match?.[1] === undefined ? undefined : customers.get(decodeURIComponent(match[1]));
      return found === undefined ? undefined : { body: { phone: { country_code: '+44', number: '7700900123' }, metadata: {}, instruments: [], ...found } };
    },
  });
  return { ...server, seedCustomer: (customer) => void customers.set(customer.id, customer) };
}
