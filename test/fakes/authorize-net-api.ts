import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeRequest } from './json-api-server';

/**
 * Authorize.Net's JSON API on loopback (https://developer.authorize.net/api/reference/): POST
 * /xml/v1/request.api with `{ <call>: { merchantAuthentication { name, transactionKey }, … } }`
 * answers the seeded records: `getTransactionDetailsRequest { transId }` a transaction,
 * `ARBGetSubscriptionRequest { subscriptionId }` a subscription (with its CIM profile),
 * `getCustomerProfileRequest { customerProfileId }` a customer profile with its payment profiles.
 * As the live API does, every answer is HTTP 200 with a byte order mark before the JSON, and
 * errors are `messages.resultCode: "Error"`: E00007 for a wrong login id or transaction key,
 * E00040 for an unknown transId or profile, E00035 for an unknown subscription.
 * `failNextWith(503)` makes the next request fail once. Records every request with its parsed body.
 */
export const AUTHORIZE_NET_TEST_LOGIN_ID = '5KP3u95bQpv';
export const AUTHORIZE_NET_TEST_TRANSACTION_KEY = '346HZ32z3fP4hTG2';
/** What the merchant stores with `providers set-api-key authorize_net`. */
export const AUTHORIZE_NET_TEST_API_KEY = `${AUTHORIZE_NET_TEST_LOGIN_ID}:${AUTHORIZE_NET_TEST_TRANSACTION_KEY}`;

export interface AuthorizeNetTransactionSeed {
  readonly transId: string;
  readonly transactionType?: string;
  readonly transactionStatus?: string;
  /** 1 approved, 2 declined, 3 error, 4 held for review. */
  readonly responseCode: number;
  readonly responseReasonCode: number;
  readonly authAmount: number;
  readonly settleAmount?: number;
  readonly customer?: { readonly id?: string; readonly email?: string; readonly type?: string };
  readonly billTo?: Readonly<Record<string, string>>;
  readonly profile?: { readonly customerProfileId: string; readonly customerPaymentProfileId?: string };
  readonly subscription?: { readonly id: number; readonly payNum?: number };
  readonly order?: { readonly invoiceNumber?: string; readonly description?: string };
  readonly currencyCode?: string;
}

export interface AuthorizeNetCustomerProfileSeed {
  readonly customerProfileId: string;
  readonly email?: string;
  readonly merchantCustomerId?: string;
  readonly paymentProfiles: ReadonlyArray<{ readonly customerPaymentProfileId: string; readonly billTo?: Readonly<Record<string, string>> }>;
}

export interface AuthorizeNetSubscriptionSeed {
  readonly id: string;
  readonly status: 'active' | 'expired' | 'suspended' | 'canceled' | 'terminated';
  readonly amount: number;
  /** The subscription's CIM profile (ARB subscriptions have had one since 2016). */
  readonly profile: AuthorizeNetCustomerProfileSeed;
}

export interface FakeAuthorizeNetRequest extends FakeRequest {
  readonly body: unknown;
}

export interface FakeAuthorizeNetApi {
  readonly url: string;
  readonly requests: FakeAuthorizeNetRequest[];
  seedTransaction(transaction: AuthorizeNetTransactionSeed): void;
  /** Adds or replaces a subscription. */
  seedSubscription(subscription: AuthorizeNetSubscriptionSeed): void;
  seedCustomerProfile(profile: AuthorizeNetCustomerProfileSeed): void;
  failNextWith(status: number): void;
  stop(): Promise<void>;
}

const BOM = '\uFEFF';
const error = (code: string, text: string) => ({ messages: { resultCode: 'Error', message: [{ code, text }] } });
const OK = { messages: { resultCode: 'Ok', message: [{ code: 'I00001', text: 'Successful.' }] } };

type Call = { merchantAuthentication?: { name?: string; transactionKey?: string }; transId?: string; subscriptionId?: string; customerProfileId?: string };
const CALLS = ['getTransactionDetailsRequest', 'ARBGetSubscriptionRequest', 'getCustomerProfileRequest'] as const;

const transactionAnswer = (found: AuthorizeNetTransactionSeed) => ({
  transaction: {
    submitTimeUTC: '2026-03-10T11:59:57.627Z',
    submitTimeLocal: '2026-03-10T04:59:57.627',
    transactionType: 'authCaptureTransaction',
    transactionStatus: found.responseCode === 1 ? 'capturedPendingSettlement' : 'declined',
    authCode: '',
    AVSResponse: 'Y',
    settleAmount: 0,
    marketType: 'eCommerce',
    product: 'Card Not Present',
    payment: { creditCard: { cardNumber: 'XXXX1111', expirationDate: 'XXXX', cardType: 'Visa' } },
    recurringBilling: found.subscription !== undefined,
    ...found,
  },
  clientId: 'accept-hosted',
  ...OK,
});

const maskedPaymentProfile = (paymentProfile: AuthorizeNetCustomerProfileSeed['paymentProfiles'][number]) => ({
  customerType: 'individual',
  payment: { creditCard: { cardNumber: 'XXXX4242', expirationDate: 'XXXX', cardType: 'Visa' } },
  ...paymentProfile,
});

const subscriptionAnswer = (found: AuthorizeNetSubscriptionSeed) => {
  const { paymentProfiles, ...profile } = found.profile;
  const [paymentProfile] = paymentProfiles;
  return {
    subscription: {
      name: 'Monthly plan',
      paymentSchedule: { interval: { length: 1, unit: 'months' }, startDate: '2026-01-01', totalOccurrences: 9999, trialOccurrences: 0 },
      amount: found.amount,
      trialAmount: 0,
      status: found.status,
      profile: { ...profile, ...(paymentProfile === undefined ? {} : { paymentProfile: maskedPaymentProfile(paymentProfile) }) },
    },
    ...OK,
  };
};

const profileAnswer = (found: AuthorizeNetCustomerProfileSeed) => ({
  profile: { profileType: 'regular', description: 'Profile', ...found, paymentProfiles: found.paymentProfiles.map(maskedPaymentProfile) },
  subscriptionIds: [],
  ...OK,
});

export async function startFakeAuthorizeNetApi(
  loginId = AUTHORIZE_NET_TEST_LOGIN_ID,
  transactionKey = AUTHORIZE_NET_TEST_TRANSACTION_KEY,
): Promise<FakeAuthorizeNetApi> {
  const requests: FakeAuthorizeNetRequest[] = [];
  const transactions = new Map<string, AuthorizeNetTransactionSeed>();
  const subscriptions = new Map<string, AuthorizeNetSubscriptionSeed>();
  const profiles = new Map<string, AuthorizeNetCustomerProfileSeed>();
  let failures: number[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = new URL(request.url ?? '/', 'http://fake').pathname;
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = undefined;
      }
      requests.push({ method: request.method ?? 'GET', path, headers: request.headers, body });
      const send = (status: number, answer: unknown): void => {
        response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(BOM + JSON.stringify(answer));
      };
      const failure = failures.shift();
      if (failure !== undefined) return send(failure, { message: 'Service Unavailable' });
      if (request.method !== 'POST' || path !== '/xml/v1/request.api') return send(404, { message: 'Not Found' });
      const name = CALLS.find((candidate) => (body as Record<string, unknown> | undefined)?.[candidate] !== undefined);
      const call = name === undefined ? undefined : ((body as Record<string, Call>)[name] as Call);
      if (name === undefined || call === undefined) return send(200, error('E00003', 'The request is not a supported API call.'));
      if (call.merchantAuthentication?.name !== loginId || call.merchantAuthentication.transactionKey !== transactionKey) {
        return send(200, error('E00007', 'User authentication failed due to invalid authentication values.'));
      }
      if (name === 'ARBGetSubscriptionRequest') {
        const found = call.subscriptionId === undefined ? undefined : subscriptions.get(String(call.subscriptionId));
        return send(200, found === undefined ? error('E00035', 'The subscription cannot be found.') : subscriptionAnswer(found));
      }
      if (name === 'getCustomerProfileRequest') {
        const found = call.customerProfileId === undefined ? undefined : profiles.get(String(call.customerProfileId));
        return send(200, found === undefined ? error('E00040', 'The record cannot be found.') : profileAnswer(found));
      }
      const found = call.transId === undefined ? undefined : transactions.get(call.transId);
      return send(200, found === undefined ? error('E00040', 'The record cannot be found.') : transactionAnswer(found));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    seedTransaction: (transaction) => void transactions.set(transaction.transId, transaction),
    seedSubscription: (subscription) => void subscriptions.set(subscription.id, subscription),
    seedCustomerProfile: (profile) => void profiles.set(profile.customerProfileId, profile),
    failNextWith: (status) => {
      failures = [...failures, status];
    },
    stop: () => new Promise<void>((resolve, reject) => server.close((closing) => (closing ? reject(closing) : resolve()))),
  };
}
