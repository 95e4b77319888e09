import {
  type FetchedCustomer,
  type FetchedOwner,
  type FetchedPayment,
  type FetchedResource,
  fetchingResources,
  type ProviderApi,
  type ProviderApiCredentials,
  ProviderApiError,
  type ProviderCustomerFetcher,
} from '#core/provider-api';
import { toMinorUnits } from '#core/money';
import { isObject, type JsonObject, joinName, listAt, objectAt, text } from '#webhooks/json-payload';
import { baseUrlOf, postJson } from './http';

/**
 * Authorize.Net's JSON API (https://developer.authorize.net/api/reference/index.html): every call
 * is a POST to `/xml/v1/request.api`; the credentials travel in the body.
 *
 * **Credential**: the merchant's stored API key (`providers set-api-key authorize_net`) is
 * `<apiLoginId>:<transactionKey>` (Account > Settings > API Credentials & Keys), split at the
 * first colon into `merchantAuthentication { name, transactionKey }`. A key without a colon is
 * refused before any call (`unauthorized`, so the event ends in the DLQ until the key is fixed).
 *
 * The answer is HTTP 200 even for errors, which are `messages.resultCode: "Error"` with a code:
 * E00007 and E00011 (credential refused or not allowed the API) → unauthorized; E00040 (no such
 * record) and E00035 (no such subscription) → not_found; E00001 (processing error, try again) →
 * unavailable; any other → bad_response. Authorize.Net puts a byte order mark before its JSON
 * (postJson drops it).
 *
 * Resources, by the names functions/webhooks/authorize-net.ts gives them:
 * - `transaction` (#transaction-reporting-get-transaction-details): `getTransactionDetailsRequest
 *   { transId }` → `{ transaction: { transId, transactionType, responseCode, responseReasonCode,
 *   authAmount, settleAmount (major-unit numbers), customer { id, email }, billTo { firstName,
 *   lastName }, profile { customerProfileId }, subscription { id }, order { invoiceNumber } } }`.
 *   Status: responseCode 2 (declined) or 3 (error) → failed, with `responseReasonCode` as decline
 *   code; 1 (approved) → refunded for a `refundTransaction`, else succeeded; 4 (held for review) →
 *   other. Amount: `authAmount`, else `settleAmount`. Customer id: the CIM profile id (as on the
 *   subscription webhooks), else the merchant-assigned `customer.id`.
 * - `subscription` (#recurring-billing-get-subscription): `ARBGetSubscriptionRequest
 *   { subscriptionId }` → `{ subscription: { name, amount, status (active, expired, suspended,
 *   canceled, terminated), profile { email, customerProfileId, paymentProfile { billTo { firstName,
 *   lastName } } } } }`; canceled, terminated and expired are ended.
 * - `customerPaymentProfile` (#customer-profiles-get-customer-profile), id
 *   `<customerProfileId>/<customerPaymentProfileId>` (the webhook carries both):
 *   `getCustomerProfileRequest { customerProfileId }` → `{ profile: { email, merchantCustomerId,
 *   customerProfileId, paymentProfiles[] { customerPaymentProfileId, billTo { firstName, lastName } } } }`.
 *   One call gives the profile's email (which getCustomerPaymentProfileRequest does not) and the
 *   payment profile; a profile that no longer lists the payment profile is not_found (the updated
 *   card is gone: nothing to lift a card wait with). fetchCustomer reads the same call.
 *
 * **Currency**: neither a transaction nor a subscription documents one; Authorize.Net settles in
 * the merchant account's currency. A transaction's `currencyCode` is used when present, else
 * `usd`. Every currency Authorize.Net settles in has two decimals, so the minor units are right
 * either way.
 */
const PROVIDER = 'authorize_net';
const DEFAULT_CURRENCY = 'usd';

function merchantAuthentication(credentials: ProviderApiCredentials): { name: string; transactionKey: string } {
  const separator = credentials.apiKey.indexOf(':');
  const name = separator < 0 ? '' : credentials.apiKey.slice(0, separator).trim();
  const transactionKey = separator < 0 ? '' : credentials.apiKey.slice(separator + 1).trim();
  if (name === '' || transactionKey === '') throw new ProviderApiError(PROVIDER, 'unauthorized', 'the stored API key is not "apiLoginId:transactionKey"');
  return { name, transactionKey };
}

const NOT_FOUND_CODES: ReadonlySet<string> = new Set(['E00040', 'E00035']);

function failIfError(body: JsonObject): void {
  if (text(body, 'messages.resultCode') !== 'Error') return;
  const [first] = listAt(body, 'messages.message');
  const code = text(first, 'code') ?? 'unknown';
  if (code === 'E00007' || code === 'E00011')
    throw new ProviderApiError(PROVIDER, 'unauthorized', `answered error ${code} (the merchant's API credentials were refused)`);
  if (NOT_FOUND_CODES.has(code)) throw new ProviderApiError(PROVIDER, 'not_found', `answered error ${code} (no such record)`);
  if (code === 'E00001') throw new ProviderApiError(PROVIDER, 'unavailable', `answered error ${code}`);
  throw new ProviderApiError(PROVIDER, 'bad_response', `answered error ${code}`);
}

/** One API call: `{ [request]: { merchantAuthentication, ...fields } }`, answered with the object at `answer`. */
async function call(credentials: ProviderApiCredentials, request: string, fields: Readonly<Record<string, string>>, answer: string): Promise<JsonObject> {
  const body = await postJson(PROVIDER, `${baseUrlOf('AUTHORIZE_NET_API_BASE_URL')}/xml/v1/request.api`, {
    [request]: { merchantAuthentication: merchantAuthentication(credentials), ...fields },
  });
  failIfError(body);
  const found = objectAt(body, answer);
  if (found === undefined) throw new ProviderApiError(PROVIDER, 'bad_response', `answer has no "${answer}" object`);
  return found;
}

function statusOf(transaction: JsonObject): FetchedPayment['status'] {
  const responseCode = text(transaction, 'responseCode');
  if (responseCode === '2' || responseCode === '3') return 'failed';
  if (responseCode !== '1') return 'other';
  return text(transaction, 'transactionType') === 'refundTransaction' ? 'refunded' : 'succeeded';
}

function currencyOf(transaction: JsonObject): string {
  const code = text(transaction, 'currencyCode');
  if (code === undefined) return DEFAULT_CURRENCY;
  if (!/^[A-Za-z]{3}$/.test(code)) throw new ProviderApiError(PROVIDER, 'bad_response', 'transaction currencyCode is not a currency code');
  return code.toLowerCase();
}

function minorOf(major: unknown, currency: string, what: string): number {
  if ((typeof major !== 'number' && typeof major !== 'string') || (typeof major === 'number' && (!Number.isFinite(major) || major < 0))) {
    throw new ProviderApiError(PROVIDER, 'bad_response', `${what} has no amount`);
  }
  try {
    return toMinorUnits(major, currency);
  } catch (error) {
    throw new ProviderApiError(PROVIDER, 'bad_response', `${what} amount is not an amount`, { cause: error });
  }
}

const nameOf = (billTo: unknown): string | undefined => joinName(text(billTo, 'firstName'), text(billTo, 'lastName')) ?? text(billTo, 'company');

async function fetchTransaction(credentials: ProviderApiCredentials, id: string): Promise<FetchedResource> {
  const transaction = await call(credentials, 'getTransactionDetailsRequest', { transId: id }, 'transaction');
  const status = statusOf(transaction);
  const currency = currencyOf(transaction);
  return {
    kind: 'payment',
    payment: {
      status,
      providerPaymentId: text(transaction, 'transId') ?? id,
      amount: minorOf(transaction.authAmount ?? transaction.settleAmount, currency, 'transaction'),
      currency,
      declineCode: status === 'failed' ? text(transaction, 'responseReasonCode') : undefined,
      customer: {
        email: text(transaction, 'customer.email'),
        name: nameOf(objectAt(transaction, 'billTo')),
        providerCustomerId: text(transaction, 'profile.customerProfileId') ?? text(transaction, 'customer.id'),
      },
      subscriptionId: text(transaction, 'subscription.id'),
      invoiceId: text(transaction, 'order.invoiceNumber'),
    },
  };
}

const ENDED_SUBSCRIPTION_STATUSES: ReadonlySet<string> = new Set(['canceled', 'terminated', 'expired']);

async function fetchSubscription(credentials: ProviderApiCredentials, id: string): Promise<FetchedResource> {
  const subscription = await call(credentials, 'ARBGetSubscriptionRequest', { subscriptionId: id }, 'subscription');
  const amount = subscription.amount;
  return {
    kind: 'subscription',
    subscription: {
      subscriptionId: id,
      ended: ENDED_SUBSCRIPTION_STATUSES.has(text(subscription, 'status') ?? ''),
      ...(amount === undefined ? {} : { amount: minorOf(amount, DEFAULT_CURRENCY, 'subscription'), currency: DEFAULT_CURRENCY }),
      customer: {
        email: text(subscription, 'profile.email'),
        name: nameOf(objectAt(subscription, 'profile.paymentProfile.billTo')),
        providerCustomerId: text(subscription, 'profile.customerProfileId'),
      },
    },
  };
}

/** The CIM customer profile: its email, and the payment profile `paymentProfileId` (else its first) for the name. */
async function profileOwner(
  credentials: ProviderApiCredentials,
  customerProfileId: string,
  paymentProfileId?: string,
): Promise<FetchedOwner & { readonly listsPaymentProfile: boolean }> {
  const profile = await call(credentials, 'getCustomerProfileRequest', { customerProfileId }, 'profile');
  const paymentProfiles = listAt(profile, 'paymentProfiles').filter(isObject);
  const named =
    paymentProfileId === undefined ? paymentProfiles[0] : paymentProfiles.find((candidate) => text(candidate, 'customerPaymentProfileId') === paymentProfileId);
  return {
    email: text(profile, 'email'),
    name: nameOf(objectAt(named, 'billTo')),
    providerCustomerId: text(profile, 'customerProfileId') ?? customerProfileId,
    listsPaymentProfile: named !== undefined,
  };
}

async function fetchPaymentProfile(credentials: ProviderApiCredentials, compoundId: string): Promise<FetchedResource> {
  const [customerProfileId, paymentProfileId, ...rest] = compoundId.split('/');
  if (customerProfileId === undefined || paymentProfileId === undefined || customerProfileId === '' || paymentProfileId === '' || rest.length > 0) {
    throw new Error('an authorize_net customerPaymentProfile is fetched as "<customerProfileId>/<customerPaymentProfileId>"');
  }
  const { listsPaymentProfile, ...customer } = await profileOwner(credentials, customerProfileId, paymentProfileId);
  if (!listsPaymentProfile) throw new ProviderApiError(PROVIDER, 'not_found', 'the customer profile no longer lists the payment profile');
  return { kind: 'payment_method', paymentMethod: { customer } };
}

/** getCustomerProfileRequest: the profile's email, and the name on its first payment profile; undefined without email. */
async function fetchCustomer(credentials: ProviderApiCredentials, providerCustomerId: string): Promise<FetchedCustomer | undefined> {
  const { email, name } = await profileOwner(credentials, providerCustomerId);
  return email === undefined ? undefined : { email, name };
}

export const authorizeNetApi: ProviderApi & ProviderCustomerFetcher = {
  ...fetchingResources(PROVIDER, { transaction: fetchTransaction, subscription: fetchSubscription, customerPaymentProfile: fetchPaymentProfile }),
  fetchCustomer,
};
