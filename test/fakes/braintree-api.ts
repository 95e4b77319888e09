import { type JsonApiServer, startJsonApiServer } from './json-api-server';

/**
 * Braintree's gateway on loopback, for the `braintree` SDK pointed at it through
 * BRAINTREE_API_BASE_URL (https://developer.paypal.com/braintree/docs/reference/request/customer/find/node):
 * GET /merchants/{merchant_id}/customers/{id} answers the seeded customer in Braintree's XML
 * (`application/xml`, dashed element names); only HTTP Basic `public_key:private_key` with the
 * fake's keys and an `X-ApiVersion` header are let in, and only under the fake's merchant id.
 * Errors carry no XML: the SDK reads only their status.
 */
export const BRAINTREE_TEST_MERCHANT_ID = 'x7qkmzp4v9d3hw2n';
export const BRAINTREE_TEST_PUBLIC_KEY = 'k8x2fz7p4r9dq3wm';
export const BRAINTREE_TEST_PRIVATE_KEY = '5b0f3c1e9a7d2b8c4e6f0a1d3c5e7b9f';
/** What the merchant stores with `providers set-api-key braintree`. */
export const BRAINTREE_TEST_API_KEY = `${BRAINTREE_TEST_MERCHANT_ID}:${BRAINTREE_TEST_PUBLIC_KEY}:${BRAINTREE_TEST_PRIVATE_KEY}`;

export interface BraintreeCustomerSeed {
  readonly id: string;
  readonly firstName?: string;
  readonly lastName?: string;
  readonly company?: string;
  readonly email?: string;
}

export interface FakeBraintreeApi extends JsonApiServer {
  seedCustomer(customer: BraintreeCustomerSeed): void;
}

const escapeXml = (value: string): string => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const element = (name: string, value: string | undefined): string => (value === undefined ? `<${name} nil="true"/>` : `<${name}>${escapeXml(value)}</${name}>`);

const customerXml = (customer: BraintreeCustomerSeed, merchantId: string): string => `<?xml version="1.0" encoding="UTF-8"?>
<customer>
  ${element('id', customer.id)}
  ${element('merchant-id', merchantId)}
  ${element('first-name', customer.firstName)}
  ${element('last-name', customer.lastName)}
  ${element('company', customer.company)}
  ${element('email', customer.email)}
  <phone nil="true"/>
  <created-at type="datetime">2026-01-12T09:30:00Z</created-at>
  <updated-at type="datetime">2026-01-12T09:30:00Z</updated-at>
  <custom-fields></custom-fields>
  <credit-cards type="array"/>
  <addresses type="array"/>
  <paypal-accounts type="array"/>
</customer>
`;

export async function startFakeBraintreeApi(merchantId = BRAINTREE_TEST_MERCHANT_ID): Promise<FakeBraintreeApi> {
  const customers = new Map<string, BraintreeCustomerSeed>();
  const server = await startJsonApiServer({
    authorised: (headers) =>
      headers.authorization === `Basic ${Buffer.from(`${BRAINTREE_TEST_PUBLIC_KEY}:${BRAINTREE_TEST_PRIVATE_KEY}`, 'utf8').toString('base64')}` &&
      typeof headers['x-apiversion'] === 'string',
    errorBody: () => '',
    route: (path) => {
      const match = /^\/merchants\/([^/]+)\/customers\/([^/]+)$/.exec(path);
      if (match?.[1] !== merchantId || match[2] === undefined) return undefined;
      const found = customers.get(decodeURIComponent(match[2]));
      return found === undefined ? undefined : { body: customerXml(found, merchantId), contentType: 'application/xml; charset=utf-8' };
    },
  });
  return { ...server, seedCustomer: (customer) => void customers.set(customer.id, customer) };
}
