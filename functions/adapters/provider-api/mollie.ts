import {
  type FetchedCustomer,
  type FetchedPayment,
  type FetchedResource,
  fetchingResources,
  type ProviderApi,
  type ProviderApiCredentials,
  ProviderApiError,
  type ProviderCustomerFetcher,
} from '#core/provider-api';
import { toMinorUnits } from '#core/money';
import { type JsonObject, joinName, text } from '#webhooks/json-payload';
import { baseUrlOf, getJson } from './http';

/**
 * Mollie's API, with the merchant's API key (`live_…` or `test_…`) as a Bearer token.
 *
 * Resources, by the names functions/webhooks/mollie.ts gives them:
 * - `payment` (https://docs.mollie.com/reference/get-payment): `GET /v2/payments/{id}`: `status`
 *   (open, canceled, pending, authorized, expired, failed, paid), `amount.{value (major-unit
 *   string), currency}`, `amountRefunded`, `customerId`, `subscriptionId`, `details.failureReason`
 *   (cards) or `details.bankReasonCode` (SEPA Direct Debit), `details.cardHolder`/`consumerName`,
 *   `billingAddress.email`. When the payment has a `customerId` and no billing email,
 *   `GET /v2/customers/{customerId}` gives `email` and `name`. Status: failed → failed; paid with a
 *   positive `amountRefunded` → refunded; paid → succeeded; anything else → other.
 * - `chargeback` (https://docs.mollie.com/reference/get-chargeback) and `refund`
 *   (https://docs.mollie.com/reference/get-refund): Mollie fetches them only under their payment,
 *   `GET /v2/payments/{paymentId}/chargebacks/{id}` → `{ amount, reason: { code, description },
 *   paymentId }` and `GET /v2/payments/{paymentId}/refunds/{id}` → `{ amount, status, paymentId }`,
 *   so their id is `<paymentId>/<chargeback or refund id>` (the webhook module takes the payment
 *   from the event's `_links.entity`). The payment is fetched too, for its customer. A chargeback
 *   reverses a collected payment, so it is the payment failing: status failed, amount the amount
 *   charged back, decline code `reason.code` (a SEPA reason such as MD06, or the card scheme's).
 */
const PROVIDER = 'mollie';

function headers(credentials: ProviderApiCredentials): Record<string, string> {
  return { authorization: `Bearer ${credentials.apiKey}` };
}

const getMollie = (credentials: ProviderApiCredentials, path: string): Promise<JsonObject> =>
  getJson(PROVIDER, `${baseUrlOf('MOLLIE_API_BASE_URL')}${path}`, headers(credentials));

function minorOf(amount: unknown, what: string): { amount: number; currency: string } | undefined {
  const value = text(amount, 'value');
  const currency = text(amount, 'currency');
  if (value === undefined || currency === undefined) return undefined;
  if (!/^[A-Za-z]{3}$/.test(currency)) throw new ProviderApiError(PROVIDER, 'bad_response', `${what}.currency is not a currency code`);
  try {
    return { amount: toMinorUnits(value, currency.toLowerCase()), currency: currency.toLowerCase() };
  } catch (error) {
    throw new ProviderApiError(PROVIDER, 'bad_response', `${what}.value is not an amount`, { cause: error });
  }
}

function requiredMinorOf(resource: JsonObject, what: string): { amount: number; currency: string } {
  const amount = minorOf(resource.amount, `${what} amount`);
  if (amount === undefined) throw new ProviderApiError(PROVIDER, 'bad_response', `${what} has no amount`);
  return amount;
}

function statusOf(payment: JsonObject): FetchedPayment['status'] {
  const status = text(payment, 'status');
  if (status === 'failed') return 'failed';
  if (status !== 'paid') return 'other';
  const refunded = payment.amountRefunded === undefined ? undefined : minorOf(payment.amountRefunded, 'payment amountRefunded');
  return refunded !== undefined && refunded.amount > 0 ? 'refunded' : 'succeeded';
}

async function paymentOf(credentials: ProviderApiCredentials, id: string): Promise<FetchedPayment> {
  const payment = await getMollie(credentials, `/v2/payments/${encodeURIComponent(id)}`);
  const amount = requiredMinorOf(payment, 'payment');
  const status = statusOf(payment);
  const customerId = text(payment, 'customerId');
  let email = text(payment, 'billingAddress.email');
  let name =
    text(payment, 'details.cardHolder') ??
    text(payment, 'details.consumerName') ??
    joinName(text(payment, 'billingAddress.givenName'), text(payment, 'billingAddress.familyName'));
  if (email === undefined && customerId !== undefined) {
    const customer = await getMollie(credentials, `/v2/customers/${encodeURIComponent(customerId)}`);
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

async function fetchPayment(credentials: ProviderApiCredentials, id: string): Promise<FetchedResource> {
  return { kind: 'payment', payment: await paymentOf(credentials, id) };
}

/** `<paymentId>/<id>`, the id the webhook module gives a chargeback or refund; anything else is a programming error. */
function underPayment(compoundId: string, prefix: 'chb' | 're'): { paymentId: string; id: string } {
  const [paymentId, id, ...rest] = compoundId.split('/');
  if (paymentId === undefined || id === undefined || rest.length > 0 || !paymentId.startsWith('tr_') || !id.startsWith(`${prefix}_`)) {
    throw new Error(`a mollie ${prefix === 'chb' ? 'chargeback' : 'refund'} is fetched as "<payment id>/<${prefix}_ id>"`);
  }
  return { paymentId, id };
}

async function fetchChargeback(credentials: ProviderApiCredentials, compoundId: string): Promise<FetchedResource> {
  const { paymentId, id } = underPayment(compoundId, 'chb');
  const chargeback = await getMollie(credentials, `/v2/payments/${encodeURIComponent(paymentId)}/chargebacks/${encodeURIComponent(id)}`);
  const payment = await paymentOf(credentials, paymentId);
  return {
    kind: 'payment',
    payment: {
      status: 'failed',
      providerPaymentId: payment.providerPaymentId,
      ...requiredMinorOf(chargeback, 'chargeback'),
      declineCode: text(chargeback, 'reason.code'),
      customer: payment.customer,
      subscriptionId: payment.subscriptionId,
    },
  };
}

async function fetchRefund(credentials: ProviderApiCredentials, compoundId: string): Promise<FetchedResource> {
  const { paymentId, id } = underPayment(compoundId, 're');
  const refund = await getMollie(credentials, `/v2/payments/${encodeURIComponent(paymentId)}/refunds/${encodeURIComponent(id)}`);
  const payment = await paymentOf(credentials, paymentId);
  return { kind: 'refund', refund: { providerPaymentId: payment.providerPaymentId, ...requiredMinorOf(refund, 'refund'), customer: payment.customer } };
}

/** `GET /v2/customers/{id}`: `email` and `name`; undefined when the customer has no email. */
async function fetchCustomer(credentials: ProviderApiCredentials, providerCustomerId: string): Promise<FetchedCustomer | undefined> {
  const customer = await getMollie(credentials, `/v2/customers/${encodeURIComponent(providerCustomerId)}`);
  const email = text(customer, 'email');
  return email === undefined ? undefined : { email, name: text(customer, 'name') };
}

export const mollieApi: ProviderApi & ProviderCustomerFetcher = {
  ...fetchingResources(PROVIDER, { payment: fetchPayment, chargeback: fetchChargeback, refund: fetchRefund }),
  fetchCustomer,
};
