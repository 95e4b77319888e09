/**
 * GET /api/v1/decline-codes over HTTP: the full cursor walk of the 268-code catalogue, every
 * filter and combinations, limit bounds, unknown filter values, altered and foreign cursors, scopes.
 */
import { ListDeclineCodesResponse } from '#api/decline-codes/schemas';
import { DECLINE_CATALOGUE_SIZE, DECLINE_PSPS, listDeclineCodes } from '#core/decline-codes/index';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

interface Item {
  code: string;
  psp: string;
  category: string;
  subcategory: string;
  description: string;
  recommended_action: string;
  recovery_rate: number;
}

interface ListBody {
  data: Item[];
  cursor: { next: string | null };
  meta: { request_id: string; merchant_id?: string };
  error?: { code: string; param?: string; message: string };
}

describe('GET /api/v1/decline-codes', () => {
  let stack: LocalStack;
  let tenant: Tenant;

  const list = (query: string, key = tenant.key) => call<ListBody>(`${stack.api_url}/decline-codes${query}`, { key });

  /** Follows `cursor.next` to the end, returning every item and the number of pages read. */
  const walk = async (query: string, limit: number): Promise<{ items: Item[]; pages: number }> => {
    const items: Item[] = [];
    let pages = 0;
    let cursor: string | null = null;
    do {
      const separator = query === '' ? '?' : '&';
      const response: Awaited<ReturnType<typeof list>> = await list(
        `${query}${separator}limit=${limit}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
      );
      expect(response.status).toBe(200);
      items.push(...response.body.data);
      cursor = response.body.cursor.next;
      pages += 1;
      expect(pages).toBeLessThanOrEqual(DECLINE_CATALOGUE_SIZE);
    } while (cursor !== null);
    return { items, pages };
  };

  const keyOf = (item: Pick<Item, 'psp' | 'code'>) => `${item.psp}/${item.code}`;

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['read'], UNLIMITED);
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  it('returns the first 50 records in the documented shape with a next cursor when no query is given', async () => {
    // Act
    const response = await list('');
    // Assess
    expect(response.status).toBe(200);
    expect(ListDeclineCodesResponse.safeParse(response.body).success).toBe(true);
    expect(response.body.data).toHaveLength(50);
    expect(response.body.data.map(keyOf)).toEqual(listDeclineCodes().slice(0, 50).map(keyOf));
    expect(Object.keys(response.body.data[0] as Item).sort()).toEqual([
      'category',
      'code',
      'description',
      'psp',
      'recommended_action',
      'recovery_rate',
      'subcategory',
    ]);
    expect(typeof response.body.cursor.next).toBe('string');
    expect(response.body.meta.merchant_id).toBe(tenant.merchant.id);
  });

  it('collects exactly the 268 unique (psp, code) records when walking every page with limit=50', async () => {
    // Act
    const { items, pages } = await walk('', 50);
    // Assess
    expect(DECLINE_CATALOGUE_SIZE).toBe(268);
    expect(items).toHaveLength(268);
    expect(new Set(items.map(keyOf)).size).toBe(268);
    expect(new Set(items.map((item) => item.psp))).toEqual(new Set(DECLINE_PSPS));
    expect(items.map(keyOf)).toEqual(listDeclineCodes().map(keyOf));
    expect(pages).toBe(6);
  });

  it('returns every record on one page with a null cursor when limit=200 exceeds a filtered list', async () => {
    // Act
    const response = await list('?psp=stripe&limit=200');
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data.map(keyOf)).toEqual(listDeclineCodes({ psp: 'stripe' }).map(keyOf));
    expect(response.body.cursor.next).toBeNull();
  });

  it('accepts the bounds limit=1 and limit=200 when walking', async () => {
    // Act
    const one = await walk('?psp=square', 1);
    const max = await walk('', 200);
    // Assess
    expect(one.items.map(keyOf)).toEqual(listDeclineCodes({ psp: 'square' }).map(keyOf));
    expect(one.pages).toBe(listDeclineCodes({ psp: 'square' }).length);
    expect(max.items).toHaveLength(268);
    expect(max.pages).toBe(2);
  });

  it.each(DECLINE_PSPS.map((psp) => [psp]))('filters psp=%s to that provider only', async (psp) => {
    // Act
    const { items } = await walk(`?psp=${psp}`, 200);
    // Assess
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((item) => item.psp === psp)).toBe(true);
    expect(items.map(keyOf)).toEqual(listDeclineCodes({ psp }).map(keyOf));
  });

  it.each([['soft_retry'], ['hard_customer'], ['terminal'], ['unknown']] as const)('filters category=%s across pages', async (category) => {
    // Act
    const { items } = await walk(`?category=${category}`, 50);
    // Assess
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((item) => item.category === category)).toBe(true);
    expect(items.map(keyOf)).toEqual(listDeclineCodes({ category }).map(keyOf));
  });

  it('filters subcategory=balance to soft_retry records only', async () => {
    // Act
    const { items } = await walk('?subcategory=balance', 50);
    // Assess
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((item) => item.subcategory === 'balance' && item.category === 'soft_retry')).toBe(true);
    expect(items.map(keyOf)).toEqual(listDeclineCodes({ subcategory: 'balance' }).map(keyOf));
  });

  it('combines psp, category and subcategory filters', async () => {
    // Act
    const combined = await list('?psp=stripe&category=soft_retry&subcategory=balance');
    const pspAndCategory = await walk('?psp=adyen&category=terminal', 3);
    // Assess
    expect(combined.status).toBe(200);
    expect(combined.body.data.map(keyOf)).toEqual(['stripe/insufficient_funds']);
    expect(combined.body.cursor.next).toBeNull();
    expect(pspAndCategory.items.length).toBeGreaterThan(0);
    expect(pspAndCategory.items.every((item) => item.psp === 'adyen' && item.category === 'terminal')).toBe(true);
    expect(pspAndCategory.items.map(keyOf)).toEqual(listDeclineCodes({ psp: 'adyen', category: 'terminal' }).map(keyOf));
  });

  it('returns an empty list when a subcategory does not belong to the category', async () => {
    // Act
    const response = await list('?category=terminal&subcategory=balance');
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([]);
    expect(response.body.cursor.next).toBeNull();
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=1.5', 'limit'],
  ])('refuses %s with 422 validation_error', async (query, param) => {
    // Act
    const response = await list(`?${query}`);
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: 'validation_error', param });
  });

  it.each([
    ['psp=visa', 'psp'],
    ['category=soft', 'category'],
    ['subcategory=insufficient', 'subcategory'],
    ['psp=stripe&category=Terminal', 'category'],
  ])('refuses the unknown filter value %s with 400 invalid_request naming the param', async (query, param) => {
    // Act
    const response = await list(`?${query}`);
    // Assess
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'invalid_request', param });
  });

  it('refuses an altered cursor with 400 naming cursor', async () => {
    // Prepare
    const first = await list('?limit=10');
    const cursor = first.body.cursor.next as string;
    const [payload, signature] = cursor.split('.') as [string, string];
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { k: { psp: string; code: string } };
    decoded.k = { psp: 'zuora', code: 'zzz' };
    const forged = `${Buffer.from(JSON.stringify(decoded), 'utf8').toString('base64url')}.${signature}`;
    const flipped = `${cursor.slice(0, -1)}${cursor.endsWith('A') ? 'B' : 'A'}`;
    // Act
    const responses = await Promise.all([forged, flipped, 'not-a-cursor', `${cursor}.x`].map((value) => list(`?cursor=${encodeURIComponent(value)}`)));
    // Assess
    for (const response of responses) {
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'invalid_request', param: 'cursor' });
    }
  });

  it('refuses a cursor reused with other filters with 400 naming cursor, and continues it with its own filters at another limit', async () => {
    // Prepare
    const first = await list('?psp=stripe&limit=5');
    const cursor = encodeURIComponent(first.body.cursor.next as string);
    // Act
    const otherPsp = await list(`?psp=adyen&cursor=${cursor}`);
    const noFilter = await list(`?cursor=${cursor}`);
    const addedFilter = await list(`?psp=stripe&category=soft_retry&cursor=${cursor}`);
    const sameFilters = await list(`?psp=stripe&limit=7&cursor=${cursor}`);
    // Assess
    for (const response of [otherPsp, noFilter, addedFilter]) {
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'invalid_request', param: 'cursor' });
    }
    expect(sameFilters.status).toBe(200);
    expect(sameFilters.body.data).toHaveLength(7);
    expect(sameFilters.body.data.every((item) => item.psp === 'stripe')).toBe(true);
    expect(sameFilters.body.data[0]?.code).not.toBe(first.body.data[4]?.code);
  });

  it("refuses another merchant's cursor with 400 naming cursor", async () => {
    // Prepare
    const other = await newTenant(['read'], UNLIMITED);
    const theirs = await list('?limit=10', other.key);
    // Act
    const response = await list(`?limit=10&cursor=${encodeURIComponent(theirs.body.cursor.next as string)}`);
    // Assess
    expect(theirs.status).toBe(200);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'invalid_request', param: 'cursor' });
  });

  it('continues after the last returned record when the cursor comes back', async () => {
    // Prepare
    const first = await list('?limit=7');
    // Act
    const second = await list(`?limit=7&cursor=${encodeURIComponent(first.body.cursor.next as string)}`);
    // Assess
    expect(second.status).toBe(200);
    expect([...first.body.data, ...second.body.data].map(keyOf)).toEqual(listDeclineCodes().slice(0, 14).map(keyOf));
  });

  it('answers 403 insufficient_scope when the key has only the email scope', async () => {
    // Prepare
    const emailOnly = await newTenant(['email'], UNLIMITED);
    // Act
    const response = await list('', emailOnly.key);
    // Assess
    expect(response.status).toBe(403);
    expect(response.body.error?.code).toBe('insufficient_scope');
  });

  it('answers 401 when no key is sent', async () => {
    // Act
    const response = await call<ListBody>(`${stack.api_url}/decline-codes`);
    // Assess
    expect(response.status).toBe(401);
    expect(response.body.error?.code).toBe('invalid_api_key');
  });
});
