import { type JsonApiServer, startJsonApiServer } from './json-api-server';

/**
 * Recurly's v3 API on loopback (https://recurly.com/developers/api/v2021-02-25/): GET
 * /transactions/{id} answers the seeded transaction, found by `uuid-<uuid>` or by its id; only
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

export interface FakeRecurlyApi extends JsonApiServer {
  /** Adds or replaces a transaction. */
  seedTransaction(transaction: RecurlyTransactionSeed): void;
}

export async function startFakeRecurlyApi(apiKey = RECURLY_TEST_API_KEY): Promise<FakeRecurlyApi> {
  const transactions = new Map<string, RecurlyTransactionSeed>();
  const basic = `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}`;
  const server = await startJsonApiServer({
    authorised: (headers) => headers.authorization === basic && headers.accept === 'application/vnd.recurly.v2021-02-25',
    route: (path) => {
      const [, rawId] = /^\/transactions\/([^/]+)$/.exec(path) ?? [];
      if (rawId === undefined) return undefined;
      const id = decodeURIComponent(rawId);
      const found = id.startsWith('uuid-') ? [...transactions.values()].find((t) => t.uuid === id.slice('uuid-'.length)) : transactions.get(id);
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
  return { ...server, seedTransaction: (transaction) => void transactions.set(transaction.id, transaction) };
}
