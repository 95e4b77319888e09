import { type FetchedCustomer, type ProviderApiCredentials, ProviderApiError, type ProviderCustomerFetcher } from '#core/provider-api';
import { joinName, text } from '#webhooks/json-payload';
import { baseUrlOf, PROVIDER_API_TIMEOUT_MS, providerApiErrorOfStatus } from './http';

/**
 * Braintree's gateway API over plain HTTP, as the official `braintree` SDK calls it
 * (https://developer.paypal.com/braintree/docs/reference/request/customer/find/node):
 * `GET /merchants/{merchant_id}/customers/{id}` with HTTP Basic (public key : private key),
 * `Accept: application/xml` and `X-ApiVersion: 6` (the SDK's), answered in XML with the
 * customer's `email`, `first-name`, `last-name`, `company`. Subscription notifications name the
 * transaction's customer but may carry no email. The SDK is not bundled (it is most of a
 * function's bundle for this one GET); the tests drive the same loopback fake with it.
 *
 * The merchant's API key is stored as `<merchant_id>:<public_key>:<private_key>` (all three from
 * the Control Panel's API page; the webhook secret is `<public_key>:<private_key>`). The origin is
 * BRAINTREE_API_BASE_URL (read at each call). No retries; PROVIDER_API_TIMEOUT_MS per call. Only
 * the customer lookup is implemented.
 */
const PROVIDER = 'braintree';
/** The gateway API version the SDK sends (lib/braintree/config.js `apiVersion`). */
const API_VERSION = '6';

function keysOf(credentials: ProviderApiCredentials): { readonly merchantId: string; readonly publicKey: string; readonly privateKey: string } {
  const [merchantId = '', publicKey = '', privateKey = '', ...rest] = credentials.apiKey.split(':');
  if (merchantId === '' || publicKey === '' || privateKey === '' || rest.length > 0) {
    throw new ProviderApiError(PROVIDER, 'unauthorized', "the merchant's API key is not stored as <merchant_id>:<public_key>:<private_key>");
  }
  return { merchantId, publicKey, privateKey };
}

const XML_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decodeXml = (value: string): string =>
  value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    return XML_ENTITIES[name] ?? whole;
  });

/**
 * The text of each direct child element of the document's root `<customer>` (nested elements,
 * such as a card's billing address with its own `first-name`, are skipped; `nil="true"` children
 * are absent). Undefined when the root is not `<customer>`. Enough XML for this one answer: no
 * CDATA, no comments inside (Braintree sends neither).
 */
export function customerFieldsOf(xml: string): ReadonlyMap<string, string> | undefined {
  const fields = new Map<string, string>();
  const tag = /<(\/?)([A-Za-z][\w.-]*)([^>]*?)(\/?)>/g;
  let depth = 0;
  let root: string | undefined;
  let open: { name: string; textStart: number } | undefined;
  for (let match = tag.exec(xml); match !== null; match = tag.exec(xml)) {
    const [whole, closing, name = '', , selfClosing] = match;
    if (closing === '/') {
      if (depth === 2 && open?.name === name) fields.set(name, decodeXml(xml.slice(open.textStart, match.index)));
      depth -= 1;
      open = undefined;
    } else if (selfClosing === '/') {
      if (depth === 0) root = name;
    } else {
      if (depth === 0) root = name;
      depth += 1;
      open = depth === 2 ? { name, textStart: match.index + whole.length } : undefined;
    }
  }
  return root === 'customer' ? fields : undefined;
}

async function fetchCustomer(credentials: ProviderApiCredentials, providerCustomerId: string): Promise<FetchedCustomer | undefined> {
  const { merchantId, publicKey, privateKey } = keysOf(credentials);
  const url = `${baseUrlOf('BRAINTREE_API_BASE_URL')}/merchants/${encodeURIComponent(merchantId)}/customers/${encodeURIComponent(providerCustomerId)}`;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: {
        accept: 'application/xml',
        'x-apiversion': API_VERSION,
        authorization: `Basic ${Buffer.from(`${publicKey}:${privateKey}`, 'utf8').toString('base64')}`,
      },
      signal: AbortSignal.timeout(PROVIDER_API_TIMEOUT_MS),
    });
  } catch (error) {
    throw new ProviderApiError(PROVIDER, 'unavailable', `no answer within ${PROVIDER_API_TIMEOUT_MS} ms or the request failed before an answer`, {
      cause: error,
    });
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw providerApiErrorOfStatus(PROVIDER, response.status);
  }
  const fields = customerFieldsOf(await response.text());
  if (fields === undefined) throw new ProviderApiError(PROVIDER, 'bad_response', 'answered with something that is not a customer', { status: response.status });
  const field = (name: string): string | undefined => text(fields.get(name));
  const email = field('email');
  if (email === undefined) return undefined;
  return { email, name: joinName(field('first-name'), field('last-name')) ?? field('company') };
}

export const braintreeApi: ProviderCustomerFetcher = { fetchCustomer };
