import { type FetchedCustomer, type FetchedPayment, type ProviderApi, type ProviderApiCredentials, ProviderApiError, type ProviderCustomerFetcher } from '../../core/provider-api';
import { toMinorUnits } from '../../core/money';
import { type JsonObject, joinName, text } from '../../webhooks/json-payload';
import { baseUrlOf, getJson } from './http';

/**
 * Mollie's Payments API (https://docs.mollie.com/reference/get-payment), with the merchant's API
 * key (`live_…` or `test_…`) as a Bearer token.
 *
 * `GET /v2/payments/{id}`: `status` (open, canceled, pending, authorized, expired, failed, paid),
 * `amount.{value (major-unit string), currency}`, `amountRefunded`, `customerId`, `subscriptionId`,
 * `details.failureReason` (cards) or `details.bankReasonCode` (SEPA Direct Debit),
 * `details.cardHolder`/`consumerName`, `billingAddress.email`. When the payment has a `customerId`
 * and no billing email, `GET /v2/customers/{customerId}` gives `email` and `name`.
 *
 * Status: failed → failed; paid with a positive `amountRefunded` → refunded; paid → succeeded;
 * anything else → other.
 */
const PROVIDER = 'mollie';

function headers(credentials: ProviderApiCredentials): Record<string, string> {
  return { authorization: `Bearer ${credentials.apiKey}` };
}

function minorOf(amount: unknown, what: string): { amount: number; currency: string } | undefined {
  const value = text(amount, 'value');
  const currency = text(amount, 'currency');
  if (value === undefined || currency === undefined) return undefined;
  if (!/^[A-Za-z]{3}$/.test(currency)) throw new ProviderApiError(PROVIDER, 'bad_response', `payment ${what}.currency is not a currency code`);
  try {
    return { amount: toMinorUnits(value, currency.toLowerCase()), currency: currency.toLowerCase() };
  } catch (error) {
    throw new ProviderApiError(PROVIDER, 'bad_response', `payment ${what}.value is not an amount`, { cause: error });
  }
}

function statusOf(payment: JsonObject): FetchedPayment['status'] {
  const status = text(payment, 'status');
  if (status === 'failed') return 'failed';
  if (status !== 'paid') return 'other';
  const refunded = payment['amountRefunded'] === undefined ? undefined : minorOf(payment['amountRefunded'], 'amountRefunded');
  return refunded !== undefined && refunded.amount > 0 ? 'refunded' : 'succeeded';
}

async function fetchPayment(credentials: ProviderApiCredentials, id: string): Promise<FetchedPayment> {
  const base = baseUrlOf('MOLLIE_API_BASE_URL');
  const payment = await getJson(PROVIDER, `${base}/v2/payments/${encodeURIComponent(id)}`, headers(credentials));
  const amount = minorOf(payment['amount'], 'amount');
  if (amount === undefined) throw new ProviderApiError(PROVIDER, 'bad_response', 'payment has no amount');
  const status = statusOf(payment);
  const customerId = text(payment, 'customerId');
  let email = text(payment, 'billingAddress.email');
  let name = text(payment, 'details.cardHolder') ?? text(payment, 'details.consumerName') ?? joinName(text(payment, 'billingAddress.givenName'), text(payment, 'billingAddress.familyName'));
  if (email === undefined && customerId !== undefined) {
    const customer = await getJson(PROVIDER, `${base}/v2/customers/${encodeURIComponent(customerId)}`, headers(credentials));
    email = text(customer, 'email');
    name ??= text(customer, 'name');
  }
  return {
    status,
    providerPaymentId: text(payment, 'id') ?? id,
    ...amount,
    declineCode: status === 'failed' ? (text(payment, 'details.failureReason') ?? text(payment, 'details.bankReasonCode')) : undefined,
    customer: { email, name, providerCustomerId: customerId },
    subscriptionId: text(payment, 'subscriptionId'),
  };
}

/** `GET /v2/customers/{id}`: `email` and `name`; undefined when the customer has no email. */
async function fetchCustomer(credentials: ProviderApiCredentials, providerCustomerId: string): Promise<FetchedCustomer | undefined> {
  const customer = await getJson(PROVIDER, `${baseUrlOf('MOLLIE_API_BASE_URL')}/v2/customers/${encodeURIComponent(providerCustomerId)}`, headers(credentials));
  const email = text(customer, 'email');
  return email === undefined ? undefined : { email, name: text(customer, 'name') };
}

export const mollieApi: ProviderApi & ProviderCustomerFetcher = { fetchPayment, fetchCustomer };
