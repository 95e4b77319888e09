import type { FetchedCustomer, ProviderApiCredentials, ProviderCustomerFetcher } from '#core/provider-api';
import { text } from '#webhooks/json-payload';
import { baseUrlOf, getJson } from './http';

/**
 * Paddle Billing's API (https://developer.paddle.com/api-reference/customers/get-customer), with
 * the merchant's API key as a Bearer token. Paddle's webhooks carry the customer's id
 * (`ctm_…`) but never an email: `GET /customers/{customer_id}` answers `{ data: { id, name,
 * email, … }, meta }`. Only the customer lookup is implemented; Paddle events carry the payment.
 */
const PROVIDER = 'paddle';

async function fetchCustomer(credentials: ProviderApiCredentials, providerCustomerId: string): Promise<FetchedCustomer | undefined> {
  const body = await getJson(PROVIDER, `${baseUrlOf('PADDLE_API_BASE_URL')}/customers/${encodeURIComponent(providerCustomerId)}`, {
    authorization: `Bearer ${credentials.apiKey}`,
  });
  const email = text(body, 'data.email');
  return email === undefined ? undefined : { email, name: text(body, 'data.name') };
}

export const paddleApi: ProviderCustomerFetcher = { fetchCustomer };
