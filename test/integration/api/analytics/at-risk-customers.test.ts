/**
 * GET /api/v1/analytics/at-risk-customers and POST /api/v1/analytics/at-risk-customers/{id}/enroll,
 * over real HTTP: cohorts checked against a direct count over the seeded payments, paging, tenant
 * isolation, bad input, and enrollment through the campaign engine's enrollment.
 */
import { enrollAtRiskCustomerSchemas, listAtRiskCustomersSchemas } from '#api/analytics/engagement-schemas';
import { type PaymentRecord, isOpen } from '#core/payments';
import { getCampaign } from '#data/campaign-repository';
import { getEnrollment } from '#data/enrollment-repository';
import { getPayment } from '#data/payment-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { HARD_DECLINE, seedPayment, seedPaymentThrough } from '#test/fixtures/payments';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

interface Row {
  id: string;
  email: string;
  at_risk_amount_by_currency: Record<string, number>;
  open_payments: number;
  failed_payments: number;
  cohorts: string[];
}
interface ListAnswer {
  data: Row[];
  pagination: { total: number; page: number; per_page: number; total_pages: number };
  error?: { code: string; param?: string };
}
interface EnrollAnswer {
  data: { customer_id: string; campaign_id: string; enrolled: { payment_id: string; campaign_id: string; status: string }[]; skipped: unknown[] };
  error?: { code: string; param?: string };
}

const CAMPAIGN = { name: 'Win them back', trigger: 'soft_decline', steps: [{ action: 'retry', delay_hours: 24 }] };

describe('at-risk customers', () => {
  let stack: LocalStack;
  let tenant: Tenant;
  let stranger: Tenant;
  const payments: PaymentRecord[] = [];
  const customerOf = (email: string): string => (payments.find((p) => p.customer_email === email) as PaymentRecord).customer_id;
  const list = (query = '', key = tenant.key) => call<ListAnswer>(`${stack.api_url}/analytics/at-risk-customers${query}`, { key });
  const enroll = (customerId: string, campaignId: string, options: { key?: string; headers?: Record<string, string> } = {}) =>
    call<EnrollAnswer>(`${stack.api_url}/analytics/at-risk-customers/${customerId}/enroll`, {
      method: 'POST',
      key: options.key ?? tenant.key,
      body: { campaign_id: campaignId },
      ...(options.headers ? { headers: options.headers } : {}),
    });
  const newCampaign = async (t: Tenant, activate: boolean): Promise<string> => {
    const id = (await call<{ data: { id: string } }>(`${stack.api_url}/campaigns`, { method: 'POST', key: t.key, body: CAMPAIGN })).body.data.id;
    if (activate) await call(`${stack.api_url}/campaigns/${id}/activate`, { method: 'POST', key: t.key });
    return id;
  };

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], UNLIMITED);
    stranger = await newTenant(['admin'], UNLIMITED);
    const m = tenant.merchant.id;
    const ada = { customer: { email: 'ada@example.com', name: 'Ada' } };
    const bob = { customer: { email: 'bob@example.com', name: 'Bob' } };
    const cy = { customer: { email: 'cy@example.com', name: 'Cy' } };
    const dee = { customer: { email: 'dee@example.com', name: 'Dee' } };
    // Ada: two soft declines, both open (repeat failure). Bob: an expired card for $600 (expiring card, high value).
    // Cy: recovered (not at risk). Dee: a paused yen payment. The stranger's customer is open too.
    payments.push(await seedPayment(m, { ...ada, amount: 4999 }, new Date('2026-03-01T10:00:00Z')));
    payments.push(await seedPayment(m, { ...ada, amount: 1500, currency: 'eur' }, new Date('2026-03-02T10:00:00Z')));
    payments.push(await seedPayment(m, { ...bob, ...HARD_DECLINE, amount: 60_000 }, new Date('2026-03-03T10:00:00Z')));
    payments.push(await seedPaymentThrough(m, ['recover'], { ...cy, amount: 2500 }, new Date('2026-03-04T10:00:00Z')));
    payments.push(await seedPaymentThrough(m, ['pause'], { ...dee, amount: 3000, currency: 'jpy' }, new Date('2026-03-05T10:00:00Z')));
    await seedPayment(stranger.merchant.id, { customer: { email: 'eve@example.com', name: 'Eve' } });
    // The customer counters (the list's total) are the table-stream consumer's.
    await stack.runtime.stream.drain();
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
  });

  describe('GET /api/v1/analytics/at-risk-customers', () => {
    it('lists every customer with an open payment, amounts at risk per currency as a direct count gives them', async () => {
      // Prepare: the direct count over the same payments.
      const current = await Promise.all(payments.map((p) => getPayment(tenant.merchant.id, p.id)));
      const atRisk = new Map<string, Record<string, number>>();
      for (const p of current) {
        if (p === undefined || !isOpen(p.status)) continue;
        const sums = atRisk.get(p.customer_email) ?? {};
        sums[p.currency] = (sums[p.currency] ?? 0) + p.amount;
        atRisk.set(p.customer_email, sums);
      }
      // Act
      const response = await list();
      // Assess
      expect(response.status).toBe(200);
      expect(() => listAtRiskCustomersSchemas.responses[200].parse(response.body)).not.toThrow();
      expect(response.body.pagination).toEqual({ total: 3, page: 1, per_page: 25, total_pages: 1 });
      expect(Object.fromEntries(response.body.data.map((row) => [row.email, row.at_risk_amount_by_currency]))).toEqual(Object.fromEntries(atRisk));
      expect(response.body.data.map((row) => row.email)).toEqual(['dee@example.com', 'bob@example.com', 'ada@example.com']);
      expect(response.body.data.find((row) => row.email === 'ada@example.com')).toMatchObject({ open_payments: 2, failed_payments: 2 });
    });

    it.each([
      ['expiring_card', ['bob@example.com']],
      ['repeat_failure', ['ada@example.com']],
      ['high_value', ['bob@example.com']],
    ])('keeps the %s cohort only', async (cohort, emails) => {
      // Act
      const response = await list(`?cohort=${cohort}`);
      // Assess
      expect(response.status).toBe(200);
      expect(response.body.data.map((row) => row.email)).toEqual(emails);
      expect(response.body.data.every((row) => row.cohorts.includes(cohort))).toBe(true);
      expect(response.body.pagination.total).toBe(emails.length);
    });

    it('pages with page and per_page', async () => {
      // Act
      const second = await list('?page=2&per_page=2');
      // Assess
      expect(second.body.pagination).toEqual({ total: 3, page: 2, per_page: 2, total_pages: 2 });
      expect(second.body.data.map((row) => row.email)).toEqual(['ada@example.com']);
    });

    it("never shows another merchant's customers", async () => {
      // Act
      const response = await list('', stranger.key);
      // Assess
      expect(response.body.data.map((row) => row.email)).toEqual(['eve@example.com']);
    });

    it('refuses an unknown cohort with 400 naming it', async () => {
      // Act
      const response = await list('?cohort=churned');
      // Assess
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'invalid_request', param: 'cohort' });
    });
  });

  describe('POST /api/v1/analytics/at-risk-customers/{id}/enroll', () => {
    it("enrolls the customer's open payments in the campaign, once", async () => {
      // Prepare
      const campaignId = await newCampaign(tenant, true);
      const ada = customerOf('ada@example.com');
      // Act
      const first = await enroll(ada, campaignId);
      const again = await enroll(ada, campaignId);
      // Assess
      expect(first.status).toBe(201);
      expect(() => enrollAtRiskCustomerSchemas.responses[201].parse(first.body)).not.toThrow();
      expect(first.body.data.enrolled.map((e) => e.status)).toEqual(['active', 'active']);
      const adaPayments = payments.filter((p) => p.customer_id === ada);
      for (const p of adaPayments) expect((await getEnrollment(tenant.merchant.id, p.id))?.campaign_id).toBe(campaignId);
      expect((await getCampaign(tenant.merchant.id, campaignId))?.stats).toMatchObject({ enrolled: 2, active: 2 });
      expect(again.status).toBe(409);
      expect(again.body.error?.code).toBe('state_conflict');
    });

    it('leaves a payment already in another campaign where it is, and enrolls the others', async () => {
      // Prepare: Fay's first open payment is enrolled elsewhere before her second one fails.
      const elsewhere = await newCampaign(tenant, true);
      const here = await newCampaign(tenant, true);
      const fay = { customer: { email: 'fay@example.com', name: 'Fay' } };
      const first = await seedPayment(tenant.merchant.id, fay);
      await enroll(first.customer_id, elsewhere);
      const second = await seedPayment(tenant.merchant.id, fay);
      // Act
      const response = await enroll(first.customer_id, here);
      // Assess
      expect(response.status).toBe(201);
      expect(response.body.data.enrolled.map((e) => [e.payment_id, e.campaign_id])).toEqual([[second.id, here]]);
      expect(response.body.data.skipped).toEqual([{ payment_id: first.id, campaign_id: elsewhere, reason: 'already_enrolled' }]);
      expect((await getEnrollment(tenant.merchant.id, first.id))?.campaign_id).toBe(elsewhere);
    });

    it('replays the first answer for the same Idempotency-Key', async () => {
      // Prepare
      const campaignId = await newCampaign(tenant, true);
      const dee = customerOf('dee@example.com');
      const headers = { 'Idempotency-Key': `enroll-${dee}` };
      // Act
      const first = await enroll(dee, campaignId, { headers });
      const replay = await enroll(dee, campaignId, { headers });
      // Assess
      expect(first.status).toBe(201);
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(first.body);
    });

    it('answers 409 for a campaign that is not active and for a customer with nothing open', async () => {
      // Prepare
      const draft = await newCampaign(tenant, false);
      const active = await newCampaign(tenant, true);
      // Act
      const toDraft = await enroll(customerOf('bob@example.com'), draft);
      const nothingOpen = await enroll(customerOf('cy@example.com'), active);
      // Assess
      expect([toDraft.status, toDraft.body.error?.code]).toEqual([409, 'state_conflict']);
      expect([nothingOpen.status, nothingOpen.body.error?.code]).toEqual([409, 'state_conflict']);
    });

    it("answers 404 for another merchant's campaign or customer, and an unknown one", async () => {
      // Prepare
      const theirs = await newCampaign(stranger, true);
      const ours = await newCampaign(tenant, true);
      const bob = customerOf('bob@example.com');
      // Act
      const theirCampaign = await enroll(bob, theirs);
      const byStranger = await enroll(bob, theirs, { key: stranger.key });
      const unknown = await enroll('cust_0000000000000000000000000', ours);
      // Assess
      for (const response of [theirCampaign, byStranger, unknown]) expect([response.status, response.body.error?.code]).toEqual([404, 'resource_not_found']);
      expect(await getEnrollment(tenant.merchant.id, (payments.find((p) => p.customer_id === bob) as PaymentRecord).id)).toBeUndefined();
    });

    it('refuses a body without campaign_id with 400', async () => {
      // Act
      const response = await call<EnrollAnswer>(`${stack.api_url}/analytics/at-risk-customers/${customerOf('bob@example.com')}/enroll`, {
        method: 'POST',
        key: tenant.key,
        body: {},
      });
      // Assess
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'invalid_request', param: 'campaign_id' });
    });
  });
});
