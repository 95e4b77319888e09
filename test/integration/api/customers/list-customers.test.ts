/**
 * GET /api/v1/customers over HTTP: newest first, has_failed_payment (the sparse GSI4 index and
 * its complement), each search form (email prefix, name prefix, exact provider customer id) and
 * their union, the created range as days and timestamps, paging, totals, scopes, tenant isolation
 * and bad input. Customers come into being with their first failed payment (recordFailedPayment).
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { listCustomersSchemas } from '#api/customers/schemas';
import type { CustomerRecord } from '#core/customers';
import { documentClient } from '#data/client';
import { getCustomer } from '#data/customer-repository';
import { customerSearchKeys, queries } from '#data/keys';
import { env } from '#shared/env';
import type { LocalStack } from '#lib/local/local-stack';
import { moveThrough, seedCustomerPayment, UNLIMITED } from '#test/fixtures/customers';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { newTenant, type Tenant } from '#test/fixtures/tenants';

interface CustomerBody {
  id: string;
  email: string;
  name: string | null;
  provider_customer_id: string | null;
  total_payments: number;
  failed_payments: number;
  recovered_payments: number;
  lifetime_value_cents: number;
  total_revenue_cents: number;
  created_at: string;
}
interface ListBody {
  data: CustomerBody[];
  pagination: { total: number; page: number; per_page: number; total_pages: number };
  meta: { merchant_id: string };
  error?: { code: string; param?: string };
}

describe('GET /api/v1/customers', () => {
  let stack: LocalStack;
  let tenant: Tenant;
  /**
   * c[0] alice (open, 2 payments), c[1] bob (recovered), c[2] alina (open), c[3] moon "Alister"
   * (paused: open), c[4] dave (terminal, no name); created at 10:00Z on 2026-10-01 … 2026-10-05.
   */
  let c: CustomerRecord[];

  const list = (query: string, key = tenant.key) => call<ListBody>(`${stack.api_url}/customers${query}`, { key });
  const ids = (...indexes: number[]) => indexes.map((index) => c[index]?.id);
  const day = (n: number) => new Date(`2026-10-0${n}T10:00:00.000Z`);

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], UNLIMITED);
    const m = tenant.merchant.id;
    const alice = await seedCustomerPayment(m, { email: 'Alice@Example.com', name: 'Alice Zephyr', provider_customer_id: 'cus_ALICE1' }, {}, day(1));
    await seedCustomerPayment(m, { email: 'alice@example.com' }, { amount: 1500 }, day(1));
    const bob = await seedCustomerPayment(m, { email: 'bob@example.com', name: 'Bob Young', provider_customer_id: 'cus_BOB42' }, { amount: 2500 }, day(2));
    await moveThrough(m, bob, ['retry', 'recover']);
    const alina = await seedCustomerPayment(m, { email: 'alina.b@sample.org', name: 'Carol Alvarez' }, {}, day(3));
    const moon = await seedCustomerPayment(m, { email: 'moon@sample.org', name: 'Alister Moon' }, {}, day(4));
    await moveThrough(m, moon, ['pause']);
    const dave = await seedCustomerPayment(
      m,
      { email: 'dave@example.com' },
      { declineCategory: 'terminal', declineSubcategory: 'fraud', retryAllowed: false },
      day(5),
    );
    c = (await Promise.all([alice, bob, alina, moon, dave].map((payment) => getCustomer(m, payment.customer_id)))) as CustomerRecord[];
    // Another merchant's customer, with a name and email that every search below would match.
    await seedCustomerPayment((await newTenant()).merchant.id, { email: 'alice@example.com', name: 'Alice Other' }, {}, day(3));
    await stack.runtime.stream.drain();
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  it('lists every customer of the merchant newest first, in the documented shape with B aliases', async () => {
    // Act
    const response = await list('');
    // Assess
    expect(response.status).toBe(200);
    expect(listCustomersSchemas.responses[200].safeParse(response.body).success).toBe(true);
    expect(response.body.data.map((customer) => customer.id)).toEqual(ids(4, 3, 2, 1, 0));
    expect(response.body.pagination).toEqual({ total: 5, page: 1, per_page: 25, total_pages: 1 });
    expect(response.body.meta.merchant_id).toBe(tenant.merchant.id);
    expect(response.body.data[4]).toEqual({
      id: c[0]?.id,
      provider_customer_id: 'cus_ALICE1',
      email: 'alice@example.com',
      name: 'Alice Zephyr',
      psp: 'stripe',
      total_payments: 2,
      failed_payments: 2,
      recovered_payments: 0,
      currency: 'usd',
      lifetime_value_cents: 0,
      total_revenue_cents: 0,
      lifetime_value_by_currency: {},
      total_revenue_by_currency: {},
      timezone: null,
      phone: null,
      card_expiry: null,
      created_at: '2026-10-01T10:00:00.000Z',
    });
    expect(response.body.data[3]).toMatchObject({ email: 'bob@example.com', recovered_payments: 1, lifetime_value_cents: 2500, total_revenue_cents: 2500 });
  });

  it.each([
    ['true', [3, 2, 0]],
    ['false', [4, 1]],
  ])('filters has_failed_payment=%s (open recoveries: pending, retrying or paused)', async (value, expected) => {
    // Act
    const response = await list(`?has_failed_payment=${value}`);
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data.map((customer) => customer.id)).toEqual(ids(...expected));
    expect(response.body.pagination.total).toBe(expected.length);
  });

  it.each([
    ['an email prefix', 'alice@', [0]],
    ['an email prefix matching several customers', 'al', [3, 2, 0]],
    ['an email prefix in another case', 'BOB@EXAMPLE', [1]],
    ['a whole email', 'dave@example.com', [4]],
    ['a name prefix', 'carol', [2]],
    ['a name prefix with a space, in another case', 'Bob Y', [1]],
    ['a prefix that is an email prefix of some and a name prefix of others (union, deduplicated)', 'ali', [3, 2, 0]],
    ['an exact provider customer id', 'cus_BOB42', [1]],
    ['a provider customer id in another case (exact match only)', 'cus_bob42', []],
    ['a prefix of a provider customer id (exact match only)', 'cus_BOB', []],
    ['a term with surrounding spaces', '  moon@  ', [3]],
    ['a term nobody matches', 'zed', []],
  ])('searches by %s', async (_name, term, expected) => {
    // Act
    const response = await list(`?search=${encodeURIComponent(term)}`);
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data.map((customer) => customer.id)).toEqual(ids(...expected));
    expect(response.body.pagination.total).toBe(expected.length);
  });

  it('treats an empty search as no search', async () => {
    // Act
    const response = await list('?search=');
    // Assess
    expect(response.body.data.map((customer) => customer.id)).toEqual(ids(4, 3, 2, 1, 0));
  });

  it.each([
    ['a day: after is inclusive from 00:00Z', 'created_after=2026-10-02', [4, 3, 2, 1]],
    ['a day: before is exclusive at 00:00Z', 'created_before=2026-10-04', [2, 1, 0]],
    ['days on both sides', 'created_after=2026-10-02&created_before=2026-10-04', [2, 1]],
    ['a timestamp: after is inclusive to the millisecond', 'created_after=2026-10-02T10:00:00.000Z', [4, 3, 2, 1]],
    ['a timestamp one millisecond later', 'created_after=2026-10-02T10:00:00.001Z', [4, 3, 2]],
    ['a timestamp: before is exclusive', 'created_before=2026-10-04T10:00:00.000Z', [2, 1, 0]],
    ['a timestamp with an offset', `created_before=${encodeURIComponent('2026-10-04T12:00:00.001+02:00')}`, [3, 2, 1, 0]],
    ['a range before any customer', 'created_before=1990-01-01', []],
    ['a range after any customer', 'created_after=2999-06-01', []],
  ])('filters the created range by %s', async (_name, query, expected) => {
    // Act
    const response = await list(`?${query}`);
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data.map((customer) => customer.id)).toEqual(ids(...expected));
    expect(response.body.pagination.total).toBe(expected.length);
  });

  it.each([
    ['has_failed_payment=true&created_after=2026-10-02', [3, 2]],
    ['has_failed_payment=false&created_before=2026-10-03', [1]],
    ['search=ali&has_failed_payment=true&created_after=2026-10-03', [3, 2]],
    ['search=ali&has_failed_payment=false', []],
    ['search=b&has_failed_payment=false', [1]],
    ['search=a&created_before=2026-10-02', [0]],
  ])('combines filters: %s', async (query, expected) => {
    // Act
    const response = await list(`?${query}`);
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data.map((customer) => customer.id)).toEqual(ids(...expected));
    expect(response.body.pagination.total).toBe(expected.length);
  });

  it('pages with page and per_page, plain and filtered', async () => {
    // Act
    const second = await list('?per_page=2&page=2');
    const last = await list('?per_page=2&page=3');
    const beyond = await list('?per_page=2&page=9');
    const failedSecond = await list('?has_failed_payment=true&per_page=2&page=2');
    const searchSecond = await list('?search=al&per_page=2&page=2');
    const rangeFirst = await list('?created_after=2026-10-02&per_page=3');
    // Assess
    expect(second.body.data.map((customer) => customer.id)).toEqual(ids(2, 1));
    expect(second.body.pagination).toEqual({ total: 5, page: 2, per_page: 2, total_pages: 3 });
    expect(last.body.data.map((customer) => customer.id)).toEqual(ids(0));
    expect(beyond.status).toBe(200);
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.pagination).toEqual({ total: 5, page: 9, per_page: 2, total_pages: 3 });
    expect(failedSecond.body.data.map((customer) => customer.id)).toEqual(ids(0));
    expect(failedSecond.body.pagination).toEqual({ total: 3, page: 2, per_page: 2, total_pages: 2 });
    expect(searchSecond.body.data.map((customer) => customer.id)).toEqual(ids(0));
    expect(searchSecond.body.pagination).toEqual({ total: 3, page: 2, per_page: 2, total_pages: 2 });
    expect(rangeFirst.body.data.map((customer) => customer.id)).toEqual(ids(4, 3, 2));
    expect(rangeFirst.body.pagination).toEqual({ total: 4, page: 1, per_page: 3, total_pages: 2 });
  });

  it('moves a customer between has_failed_payment=true and false when its last open recovery closes', async () => {
    // Prepare
    const other = await newTenant(['read'], UNLIMITED);
    const payment = await seedCustomerPayment(other.merchant.id, { email: 'closing@example.com' });
    await stack.runtime.stream.drain();
    const before = await call<ListBody>(`${stack.api_url}/customers?has_failed_payment=true`, { key: other.key });
    // Act
    await moveThrough(other.merchant.id, payment, ['terminate']);
    await stack.runtime.stream.drain();
    // Assess
    const open = await call<ListBody>(`${stack.api_url}/customers?has_failed_payment=true`, { key: other.key });
    const closed = await call<ListBody>(`${stack.api_url}/customers?has_failed_payment=false`, { key: other.key });
    expect(before.body.data.map((customer) => customer.id)).toEqual([payment.customer_id]);
    expect(open.body).toMatchObject({ data: [], pagination: { total: 0 } });
    expect(closed.body.data.map((customer) => customer.id)).toEqual([payment.customer_id]);
    expect(closed.body.pagination.total).toBe(1);
  });

  it.each([
    ['has_failed_payment=yes', 400, 'invalid_request', 'has_failed_payment'],
    ['has_failed_payment=1', 400, 'invalid_request', 'has_failed_payment'],
    ['has_failed_payment=TRUE', 400, 'invalid_request', 'has_failed_payment'],
    ['per_page=0', 422, 'validation_error', 'per_page'],
    ['per_page=101', 422, 'validation_error', 'per_page'],
    ['page=0', 422, 'validation_error', 'page'],
    ['page=two', 422, 'validation_error', 'page'],
    [`search=${'a'.repeat(201)}`, 422, 'validation_error', 'search'],
    ['created_after=notadate', 422, 'validation_error', 'created_after'],
    ['created_after=2026-02-30', 422, 'validation_error', 'created_after'],
    ['created_before=2026-10-01T10:00:00', 422, 'validation_error', 'created_before'],
    ['created_after=2026-10-04&created_before=2026-10-02', 422, 'validation_error', 'created_before'],
  ])('refuses %s with %i %s naming the parameter', async (query, status, code, param) => {
    // Act
    const response = await list(`?${query}`);
    // Assess
    expect(response.status).toBe(status);
    expect(response.body.error).toMatchObject({ code, param });
  });

  it("never lists another merchant's customers", async () => {
    // Prepare
    const stranger = await newTenant(['read']);
    // Act
    const theirs = await call<ListBody>(`${stack.api_url}/customers?search=alice`, { key: stranger.key });
    const ours = await list('?search=alice');
    // Assess
    expect(theirs.body).toMatchObject({ data: [], pagination: { total: 0 } });
    expect(ours.body.data.map((customer) => customer.id)).toEqual(ids(0));
  });

  describe('search by any word of the name or email', () => {
    let words: Tenant;
    /** w[0] Frank Ocean, w[1] Gina Müller, w[2] named Ocean Bay on its second payment, w[3] zsmith@oceanic.io; a day apart. */
    let w: string[];
    const search = (term: string) => call<ListBody>(`${stack.api_url}/customers?search=${encodeURIComponent(term)}`, { key: words.key });

    beforeAll(async () => {
      words = await newTenant(['admin'], UNLIMITED);
      const m = words.merchant.id;
      w = [
        (await seedCustomerPayment(m, { email: 'frank.ocean@example.com', name: 'Frank Ocean' }, {}, day(1))).customer_id,
        (await seedCustomerPayment(m, { email: 'gina@example.org', name: 'Gina Müller' }, {}, day(2))).customer_id,
        (await seedCustomerPayment(m, { email: 'o.malley@sample.net' }, {}, day(3))).customer_id,
        (await seedCustomerPayment(m, { email: 'zsmith@oceanic.io', name: 'Zoe Smith' }, {}, day(4))).customer_id,
      ];
      // The name arrives with a later payment of the same customer.
      await seedCustomerPayment(m, { email: 'o.malley@sample.net', name: 'Ocean Bay' }, {}, day(5));
    }, 60_000);

    it.each([
      ['a later word of the name, and of email and domain words', 'Ocean', [3, 2, 0]],
      ['a word with an accent', 'müller', [1]],
      ['the same word without its accent, in capitals', 'MULLER', [1]],
      ['a prefix of an accented word', 'Mü', [1]],
      ['the whole name with a partial second word', 'frank oc', [0]],
      ['a word of the email domain', 'example', [1, 0]],
      ['a word of a name learnt with a later payment', 'bay', [2]],
      ['a word of the email local part after a dot', 'malley', [2]],
      ['the middle of a word (words match from their start only)', 'cean', []],
    ])('finds %s (%s)', async (_name, term, expected) => {
      // Act
      const response = await search(term);
      // Assess
      expect(response.status).toBe(200);
      expect(response.body.data.map((customer) => customer.id)).toEqual(expected.map((index) => w[index]));
      expect(response.body.pagination.total).toBe(expected.length);
    });

    it('finds an erased customer by no word, and erasure leaves none of its search terms behind', async () => {
      // Prepare
      const erased = w[0] as string;
      expect((await search('frank')).body.data.map((customer) => customer.id)).toEqual([erased]);
      // Act
      const deleted = await call(`${stack.api_url}/customers/${erased}`, { method: 'DELETE', key: words.key });
      // Assess
      expect(deleted.status).toBe(200);
      expect((await search('frank')).body.data).toEqual([]);
      expect((await search('ocean')).body.data.map((customer) => customer.id)).toEqual([w[3], w[2]]);
      const terms = await documentClient.send(
        new QueryCommand({ TableName: env.TABLE_NAME, ...queries.partitionPrefix(customerSearchKeys.termPrefix(words.merchant.id, '')), ConsistentRead: true }),
      );
      expect(terms.Items?.length).toBeGreaterThan(0);
      expect(terms.Items?.filter((item) => item.customer_id === erased)).toEqual([]);
    });
  });
});
