import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { paginateQuery } from '@aws-sdk/lib-dynamodb';
import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { InvalidRequestError } from '#core/errors';
import { documentClient } from '#data/client';
import { readSecret } from '#adapters/secrets';
import { env } from '#shared/env';

type Item = Record<string, unknown>;
type QueryInput = Omit<QueryCommandInput, 'ExclusiveStartKey' | 'Limit'>;

export { cursorPagingQuery, offsetPagingQuery } from './paging-query';

export interface Pagination {
  readonly total: number;
  readonly page: number;
  readonly per_page: number;
  readonly total_pages: number;
}

/**
 * One page of an offset-paged list. DynamoDB has no offset, so the items before the page are
 * read and passed over (cost grows with the page number, as with any offset paging); `total`
 * comes from a counter, never from a pass over all items. Counters are kept by the table-stream
 * consumer and trail writes by the stream's lag, so the first page is always read (an item
 * written a moment ago is listed even before the counter has it) and `total` is never less than
 * what the page shows; later pages past the counted total are not read.
 */
export async function queryOffsetPage(input: QueryInput, page: number, perPage: number, counted: number): Promise<{ items: Item[]; pagination: Pagination }> {
  const offset = (page - 1) * perPage;
  const items: Item[] = [];
  let seen = 0;
  if (offset === 0 || offset < counted) {
    for await (const result of paginateQuery({ client: documentClient, pageSize: Math.min(1000, offset + perPage) }, input)) {
      for (const item of result.Items ?? []) {
        if (seen >= offset && items.length < perPage) items.push(item);
        seen += 1;
      }
      if (items.length >= perPage) break;
    }
  }
  const total = items.length === 0 ? counted : Math.max(counted, offset + items.length);
  return { items, pagination: { total, page, per_page: perPage, total_pages: Math.ceil(total / perPage) } };
}

let cursorKey: Promise<Buffer> | undefined;

/**
 * The key that signs cursors: on AWS the Secrets Manager secret every function shares (read once
 * per cold start), or CURSOR_SIGNING_SECRET when set; locally a per-process key, so cursors do
 * not outlive a restart of the local stack.
 */
function signingKey(): Promise<Buffer> {
  cursorKey ??= (async () => {
    if (env.CURSOR_SIGNING_SECRET !== undefined) return Buffer.from(env.CURSOR_SIGNING_SECRET, 'utf8');
    if (env.CURSOR_SIGNING_SECRET_ARN !== undefined) return Buffer.from(await readSecret(env.CURSOR_SIGNING_SECRET_ARN), 'utf8');
    return randomBytes(32);
  })();
  cursorKey.catch(() => {
    cursorKey = undefined;
  });
  return cursorKey;
}

const sign = async (payload: string): Promise<string> =>
  createHmac('sha256', await signingKey())
    .update(payload)
    .digest('base64url');

/**
 * The filters a cursor is bound to: the list's query without its paging fields (`cursor` and
 * `limit`; the page size may change from page to page, as with Stripe), undefined values dropped,
 * names sorted, values as text (dates as ISO 8601), hashed. A cursor only continues the list it
 * was issued for: the same merchant, list and filters.
 */
export function cursorFilters(query: Readonly<Record<string, unknown>>): string {
  const normalised = Object.keys(query)
    .filter((name) => name !== 'cursor' && name !== 'limit' && query[name] !== undefined)
    .sort()
    .map((name) => {
      const value = query[name];
      return [name, value instanceof Date ? value.toISOString() : typeof value === 'string' ? value : JSON.stringify(value)];
    });
  return createHash('sha256').update(JSON.stringify(normalised)).digest('base64url').slice(0, 22);
}

/** An opaque cursor: the next start key, tied to the merchant, the list and the filters (`cursorFilters`) it came from. */
export async function encodeCursor(merchantId: string, list: string, startKey: Item, filters: string): Promise<string> {
  const payload = Buffer.from(JSON.stringify({ v: 2, m: merchantId, l: list, f: filters, k: startKey }), 'utf8').toString('base64url');
  return `${payload}.${await sign(payload)}`;
}

/**
 * The start key in a cursor, or 400 `invalid_request` (`param: cursor`) when it was altered, is
 * not this merchant's and this list's, or was issued with other filters (`cursorFilters`).
 */
export async function decodeCursor(cursor: string, merchantId: string, list: string, filters: string): Promise<Item> {
  const refuse = (message = 'The cursor is not valid for this list.'): never => {
    throw new InvalidRequestError(message, { param: 'cursor' });
  };
  const [payload, signature, extra] = cursor.split('.');
  if (payload === undefined || signature === undefined || extra !== undefined) return refuse();
  const expected = Buffer.from(await sign(payload), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return refuse();
  const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { v: number; m: string; l: string; f: string; k: Item };
  if (decoded.v !== 2 || decoded.m !== merchantId || decoded.l !== list) return refuse();
  if (decoded.f !== filters)
    return refuse('The cursor was issued for other filters: send the same filters as the request that returned it, or start without a cursor.');
  return decoded.k;
}

/** One page of a cursor-paged list: up to `limit` items and the cursor of the next page (null at the end). */
export async function queryCursorPage(
  input: QueryInput,
  options: {
    readonly merchantId: string;
    readonly list: string;
    /** The list's query (paging fields are left out of the binding): see cursorFilters. */
    readonly query: Readonly<Record<string, unknown>>;
    readonly cursor?: string | undefined;
    readonly limit: number;
  },
): Promise<{ items: Item[]; cursor: { next: string | null } }> {
  const filters = cursorFilters(options.query);
  const startKey = options.cursor === undefined ? undefined : await decodeCursor(options.cursor, options.merchantId, options.list, filters);
  const items: Item[] = [];
  let lastKey: Item | undefined;
  for await (const result of paginateQuery(
    { client: documentClient, pageSize: options.limit, ...(startKey === undefined ? {} : { startingToken: startKey }) },
    input,
  )) {
    for (const item of result.Items ?? []) if (items.length < options.limit) items.push(item);
    lastKey = result.LastEvaluatedKey;
    if (items.length >= options.limit || lastKey === undefined) break;
  }
  // A full page may still be the last: DynamoDB says so only with the next (empty) read, which the
  // next call makes; a null `next` always means the end.
  return {
    items,
    cursor: { next: items.length >= options.limit && lastKey !== undefined ? await encodeCursor(options.merchantId, options.list, lastKey, filters) : null },
  };
}
