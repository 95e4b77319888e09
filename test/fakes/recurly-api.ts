import { type JsonApiServer, startJsonApiServer } from './json-api-server';

/**
 * Recurly's v3 API on loopback (https://recurly.com/developers/api/v2021-02-25/): GET
 * /transactions/{id} and /subscriptions/{id} answer the seeded object, found by `uuid-<uuid>` or
 * by its id, and GET /accounts/{id} the seeded account, found by `code-<code>` or by its id; only
 * HTTP Basic auth with the fake's API key as user, together with an `Accept:
 * application/vnd.recurly.v2021-02-25` header, is let in.
 */
export const RECURLY_TEST_API_KEY = '9d1c4b2a7e6f40d8b3a5c0e1f2d3a4b5';

export interface RecurlyTransactionSeed {
  readonly id: string;
  readonly uuid: string;
  readonly type?: 'authorization' | 'capture' | 'purchase' | 'refund' | 'verify';
  readonly status: 'chargeback' | 'declined' | 'error' | 'pending' | 'processing' | 'scheduled' | 'success' | 'void';
  readonly status_code?: string;
  readonly gateway_response_code?: string;
  readonly amount: number;
  readonly currency: string;
  readonly account: { readonly id: string; readonly code: string; readonly email?: string; readonly first_name?: string; readonly last_name?: string };
  readonly invoice?: { readonly id: string; readonly number?: string };
  readonly subscription_ids?: readonly string[];
}

export interface RecurlyAccountSeed {
  readonly id: string;
  readonly code: string;
  readonly email?: string;
  readonly first_name?: string;
  readonly last_name?: string;
  readonly company?: string;
}

export interface RecurlySubscriptionSeed {
  readonly id: string;
  readonly uuid: string;
  readonly state: 'active' | 'canceled' | 'expired' | 'failed' | 'future' | 'paused';
  readonly currency: string;
  readonly unit_amount: number;
  readonly account: RecurlyAccountSeed;
}

export interface FakeRecurlyApi extends JsonApiServer {
  /** Adds or replaces a transaction. */
  seedTransaction(transaction: RecurlyTransactionSeed): void;
  /** Adds or replaces a subscription. */
  seedSubscription(subscription: RecurlySubscriptionSeed): void;
  seedAccount(account: RecurlyAccountSeed): void;
}

/** The seed whose `key` is the id, or whose `alternate` is what follows `prefix` (`uuid-`, `code-`). */
function findBy<T extends { id: string }>(seeds: ReadonlyMap<string, T>, id: string, prefix: string, alternate: (seed: T) => string): T | undefined {
  return id.startsWith(prefix) ? [...seeds.values()].find((seed) => alternate(seed) === id.slice(prefix.length)) : seeds.get(id);
}

export async function startFakeRecurlyApi(apiKey = RECURLY_TEST_API_KEY): Promise<FakeRecurlyApi> {
  const transactions = new Map<string, RecurlyTransactionSeed>();
  const subscriptions = new Map<string, RecurlySubscriptionSeed>();
  const accounts = new Map<string, RecurlyAccountSeed>();
  const basic = `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}`;
  const server = await startJsonApiServer({
    authorised: (headers) => headers.authorization === basic && headers.accept === 'application/vnd.recurly.v2021-02-25',
    route: (path) => {
      const [, collection, rawId] = /^\/(transactions|subscriptions|accounts)\/([^/]+)$/.exec(path) ?? [];
      if (collection === undefined || rawId === undefined) return undefined;
      const id = decodeURIComponent(rawId);
      if (collection === 'accounts') {
        const account = findBy(accounts, id, 'code-', (a) => a.code);
        return account === undefined ? undefined : { body: { object: 'account', state: 'active', created_at: '2026-01-05T08:00:00Z', ...account } };
      }
      if (collection === 'subscriptions') {
        const subscription = findBy(subscriptions, id, 'uuid-', (s) => s.uuid);
        return subscription === undefined
          ? undefined
          : {
              body: {
                object: 'subscription',
                plan: { object: 'plan_mini', code: 'monthly', name: 'Monthly' },
                quantity: 1,
                canceled_at: null,
                ...subscription,
                account: { object: 'account_mini', ...subscription.account },
              },
            };
      }
      const found = findBy(transactions, id, 'uuid-', (t) => t.uuid);
      if (found === undefined) return undefined;
      return {
        body: {
          object: 'transaction',
          type: 'purchase',
          origin: 'recurring',
          collection_method: 'automatic',
          success: found.status === 'success',
          subscription_ids: [],
          created_at: '2026-03-11T08:00:00Z',
          ...found,
          account: { object: 'account_mini', ...found.account },
          invoice: found.invoice === undefined ? null : { object: 'invoice_mini', type: 'charge', state: 'past_due', ...found.invoice },
        },
      };
    },
  });
  return {
    ...server,
    seedTransaction: (transaction) => void transactions.set(transaction.id, transaction),
    seedSubscription: (subscription) => void subscriptions.set(subscription.id, subscription),
    seedAccount: (account) => void accounts.set(account.id, account),
  };
}
