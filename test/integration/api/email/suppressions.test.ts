import { deleteEmailSuppressionSchemas, getEmailSuppressionStatsSchemas, listEmailSuppressionsSchemas } from '#api/email/schemas';
import { getSuppression, type SuppressionReason, suppressEmail } from '#data/suppression-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { seedPayment } from '#test/fixtures/payments';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';
import { merchantItems } from './items';

interface SuppressionData {
  email: string;
  reason: string;
  customer_id: string;
  source_message_id: string | null;
  active: boolean;
  created_at: string;
  lifted_at: string | null;
}
interface Body<T> {
  data: T;
  pagination?: { total: number; page: number; per_page: number; total_pages: number };
  error?: { code: string; param?: string; message: string };
}

const suppress = (merchantId: string, email: string, reason: SuppressionReason, at?: Date) =>
  suppressEmail({ merchant_id: merchantId, email, customer_id: `cust_${email.split('@')[0]}`, reason, source_message_id: 'msg_01JTEST000000000000000000' }, at);

describe('email suppressions: /api/v1/email/suppressions', () => {
  let stack: LocalStack;
  let tenant: Tenant;
  const url = (path = ''): string => `${stack.api_url}/email/suppressions${path}`;
  const list = (query = '', key = tenant.key) => call<Body<SuppressionData[]>>(url(query), { key });
  const lift = (email: string, key = tenant.key) => call<Body<SuppressionData>>(url(`/${encodeURIComponent(email)}`), { method: 'DELETE', key });

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], UNLIMITED);
    const m = tenant.merchant.id;
    await suppress(m, 'carol@example.com', 'complaint');
    await suppress(m, 'Alice@Example.com', 'hard_bounce');
    await suppress(m, 'bob@example.org', 'unsubscribe');
    await suppress(m, 'alex@example.com', 'hard_bounce');
    await suppress(m, 'dave@example.com', 'manual');
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  describe('GET /email/suppressions', () => {
    it('lists the suppressions in force, alphabetical by address, with a total', async () => {
      // Act
      const response = await list();
      // Assess
      expect(response.status).toBe(200);
      expect(() => listEmailSuppressionsSchemas.responses[200].parse(response.body)).not.toThrow();
      expect(response.body.data.map((s) => s.email)).toEqual([
        'alex@example.com',
        'alice@example.com',
        'bob@example.org',
        'carol@example.com',
        'dave@example.com',
      ]);
      expect(response.body.pagination).toEqual({ total: 5, page: 1, per_page: 25, total_pages: 1 });
      expect(response.body.data[1]).toEqual({
        email: 'alice@example.com',
        reason: 'hard_bounce',
        customer_id: 'cust_Alice',
        source_message_id: 'msg_01JTEST000000000000000000',
        active: true,
        created_at: expect.any(String),
        lifted_at: null,
      });
    });

    it('finds addresses by prefix, in any case, and filters by reason', async () => {
      // Act
      const search = await list('?search=AL');
      const reason = await list('?reason=hard_bounce');
      const both = await list('?search=ali&reason=hard_bounce');
      // Assess
      expect(search.body.data.map((s) => s.email)).toEqual(['alex@example.com', 'alice@example.com']);
      expect(search.body.pagination?.total).toBe(2);
      expect(reason.body.data.map((s) => s.email)).toEqual(['alex@example.com', 'alice@example.com']);
      expect(reason.body.pagination?.total).toBe(2);
      expect(both.body.data.map((s) => s.email)).toEqual(['alice@example.com']);
    });

    it('pages through the list', async () => {
      // Act
      const page2 = await list('?per_page=2&page=2');
      // Assess
      expect(page2.body.data.map((s) => s.email)).toEqual(['bob@example.org', 'carol@example.com']);
      expect(page2.body.pagination).toEqual({ total: 5, page: 2, per_page: 2, total_pages: 3 });
    });

    it.each([
      ['?reason=soft_bounce', 400, 'reason'],
      ['?active_only=yes', 400, 'active_only'],
      ['?per_page=101', 422, 'per_page'],
      ['?sort=email', 400, 'sort'],
      [`?search=${encodeURIComponent('\u{1F600}'.repeat(100))}`, 422, 'search'],
    ])('refuses %s with %i and param', async (query, status, param) => {
      // Act
      const response = await list(query);
      // Assess
      expect({ status: response.status, param: response.body.error?.param }).toEqual({ status, param });
    });

    it("shows none of another merchant's suppressions", async () => {
      // Prepare
      const stranger = await newTenant(['admin'], UNLIMITED);
      // Act
      const response = await list('', stranger.key);
      // Assess
      expect(response.body.data).toEqual([]);
      expect(response.body.pagination?.total).toBe(0);
    });
  });

  describe('DELETE /email/suppressions/{email}', () => {
    it('lifts a suppression: getSuppression answers undefined, and the entry stays as history', async () => {
      // Prepare
      const own = await newTenant(['admin'], UNLIMITED);
      await suppress(own.merchant.id, 'erin@example.com', 'hard_bounce');
      await suppress(own.merchant.id, 'frank@example.com', 'complaint');
      // Act
      const response = await lift('Erin@Example.com', own.key);
      // Assess
      expect(response.status).toBe(200);
      expect(() => deleteEmailSuppressionSchemas.responses[200].parse(response.body)).not.toThrow();
      expect(response.body.data).toMatchObject({ email: 'erin@example.com', reason: 'hard_bounce', active: false, lifted_at: expect.any(String) });
      expect(await getSuppression(own.merchant.id, 'erin@example.com')).toBeUndefined();
      expect((await list('', own.key)).body.data.map((s) => s.email)).toEqual(['frank@example.com']);
      const all = await list('?active_only=false', own.key);
      expect(all.body.data.map((s) => [s.email, s.active])).toEqual([
        ['erin@example.com', false],
        ['frank@example.com', true],
      ]);
      expect(all.body.pagination?.total).toBe(2);
    });

    it('suppresses a lifted address again on new evidence, with the new reason', async () => {
      // Prepare
      const own = await newTenant(['admin'], UNLIMITED);
      await suppress(own.merchant.id, 'gina@example.com', 'hard_bounce');
      await lift('gina@example.com', own.key);
      // Act
      const again = await suppress(own.merchant.id, 'gina@example.com', 'complaint');
      const twice = await suppress(own.merchant.id, 'gina@example.com', 'hard_bounce');
      // Assess
      expect([again, twice]).toEqual([true, false]);
      expect(await getSuppression(own.merchant.id, 'gina@example.com')).toMatchObject({ reason: 'complaint' });
      expect((await list('', own.key)).body.data).toEqual([expect.objectContaining({ email: 'gina@example.com', active: true, lifted_at: null })]);
    });

    it('answers 404 for an address not suppressed, one already lifted, and one of another merchant, and writes nothing', async () => {
      // Prepare
      const own = await newTenant(['admin'], UNLIMITED);
      await suppress(own.merchant.id, 'hank@example.com', 'hard_bounce');
      await lift('hank@example.com', own.key);
      const stranger = await newTenant(['admin'], UNLIMITED);
      const before = await merchantItems(tenant.merchant.id);
      // Act
      const never = await lift('nobody@example.com', own.key);
      const again = await lift('hank@example.com', own.key);
      const foreign = await lift('alice@example.com', stranger.key);
      // Assess
      for (const response of [never, again, foreign]) {
        expect({ status: response.status, code: response.body.error?.code, param: response.body.error?.param }).toEqual({
          status: 404,
          code: 'resource_not_found',
          param: 'email',
        });
      }
      expect(await merchantItems(tenant.merchant.id)).toEqual(before);
      expect(await getSuppression(tenant.merchant.id, 'alice@example.com')).toBeDefined();
    });
  });

  describe('GET /email/suppressions/stats', () => {
    it('counts the list from its counters: total, active, lifted, by reason, added in the last 30 days', async () => {
      // Prepare
      const own = await newTenant(['admin'], UNLIMITED);
      const m = own.merchant.id;
      await suppress(m, 'old@example.com', 'hard_bounce', new Date(Date.now() - 45 * 86_400_000));
      await suppress(m, 'a@example.com', 'hard_bounce');
      await suppress(m, 'b@example.com', 'complaint');
      await suppress(m, 'c@example.com', 'unsubscribe');
      await suppress(m, 'c@example.com', 'complaint');
      await lift('b@example.com', own.key);
      await lift('a@example.com', own.key);
      await suppress(m, 'a@example.com', 'manual');
      // Act
      const response = await call<Body<Record<string, unknown>>>(url('/stats'), { key: own.key });
      // Assess
      expect(response.status).toBe(200);
      expect(() => getEmailSuppressionStatsSchemas.responses[200].parse(response.body)).not.toThrow();
      expect(response.body.data).toEqual({
        total: 4,
        active: 3,
        lifted: 1,
        by_reason: { hard_bounce: 1, complaint: 0, unsubscribe: 1, manual: 1 },
        added_last_30_days: 4,
      });
    });

    it("takes an erased customer's suppressions out of the list and the counts", async () => {
      // Prepare
      const own = await newTenant(['admin'], UNLIMITED);
      const payment = await seedPayment(own.merchant.id, { customer: { email: 'ivy@example.com', name: 'Ivy' } });
      const other = { merchant_id: own.merchant.id, customer_id: 'cust_other', source_message_id: null };
      await suppressEmail({ ...other, email: 'ivy@example.com', customer_id: payment.customer_id, reason: 'complaint' });
      await suppressEmail({ ...other, email: 'jon@example.com', reason: 'hard_bounce' });
      // Act
      const erased = await call(`${stack.api_url}/customers/${payment.customer_id}`, { method: 'DELETE', key: own.key });
      const stats = await call<Body<Record<string, unknown>>>(url('/stats'), { key: own.key });
      const listed = await list('?active_only=false', own.key);
      // Assess
      expect(erased.status).toBe(200);
      expect(stats.body.data).toMatchObject({ total: 1, active: 1, lifted: 0, by_reason: { hard_bounce: 1, complaint: 0, unsubscribe: 0, manual: 0 } });
      expect(listed.body.data.map((s) => s.email)).toEqual(['jon@example.com']);
    });

    it('answers zeros for a merchant without suppressions', async () => {
      // Prepare
      const own = await newTenant(['admin'], UNLIMITED);
      // Act
      const response = await call<Body<Record<string, unknown>>>(url('/stats'), { key: own.key });
      // Assess
      expect(response.body.data).toEqual({
        total: 0,
        active: 0,
        lifted: 0,
        by_reason: { hard_bounce: 0, complaint: 0, unsubscribe: 0, manual: 0 },
        added_last_30_days: 0,
      });
    });
  });
});
