/**
 * GET /api/v1/analytics/campaigns over real HTTP: one row per campaign whose sessions and
 * recoveries match a direct count of the campaign's enrollments, cursor paging (B) and tenant
 * isolation.
 */
import { getCampaignAnalyticsSchemas } from '#api/analytics/engagement-schemas';
import { campaignEnrollmentPaymentIds } from '#data/enrollment-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { moveThrough, seedPayment } from '#test/fixtures/payments';
import type { PaymentRecord } from '#core/payments';
import { advanceCampaignSteps } from '#jobs/advance-campaign-steps';
import { enrollmentsOf } from '#data/enrollment-repository';
import { getPayment } from '#data/payment-repository';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

interface Row {
  id: string;
  name: string;
  status: string;
  trigger: string;
  sessions_count: number;
  recovered_count: number;
  recovery_rate: number;
  recovery: { rate: number; numerator: number; denominator: number };
  enrolled_amount_by_currency: Record<string, number>;
  recovered_amount_by_currency: Record<string, number>;
}
interface Answer {
  data: Row[];
  cursor: { next: string | null };
  error?: { code: string; param?: string };
}

const CAMPAIGN = { trigger: 'soft_decline', steps: [{ action: 'retry', delay_hours: 24 }] };

describe('GET /api/v1/analytics/campaigns', () => {
  let stack: LocalStack;
  let tenant: Tenant;
  let stranger: Tenant;
  const ids: string[] = [];
  const read = (query = '', key = tenant.key) => call<Answer>(`${stack.api_url}/analytics/campaigns${query}`, { key });

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], UNLIMITED);
    stranger = await newTenant(['admin'], UNLIMITED);
    for (const name of ['First', 'Second', 'Third']) {
      const id = (await call<{ data: { id: string } }>(`${stack.api_url}/campaigns`, { method: 'POST', key: tenant.key, body: { ...CAMPAIGN, name } })).body
        .data.id;
      ids.push(id);
    }
    const [first, second] = ids as [string, string];
    for (const id of [first, second]) await call(`${stack.api_url}/campaigns/${id}/activate`, { method: 'POST', key: tenant.key });
    // Three customers enrolled in the first campaign, one in the second (through the enroll route).
    const enrolled: PaymentRecord[] = [];
    for (const [index, campaignId] of [first, first, first, second].entries()) {
      const payment = await seedPayment(tenant.merchant.id, { customer: { email: `c${index}@example.com`, name: `C${index}` } });
      await call(`${stack.api_url}/analytics/at-risk-customers/${payment.customer_id}/enroll`, {
        method: 'POST',
        key: tenant.key,
        body: { campaign_id: campaignId },
      });
      enrolled.push(payment);
    }
    // The first campaign's first payment is recovered; the engine ends its enrollment `recovered` at its next step.
    await moveThrough(tenant.merchant.id, enrolled[0] as PaymentRecord, ['recover']);
    await advanceCampaignSteps({ now: new Date(Date.now() + 30 * 86_400_000), executionId: 'campaign-analytics-test' });
    // The amounts come from the CAMP rollups, which the table-stream consumer keeps.
    await stack.runtime.stream.drain();
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it("answers a row per campaign, newest first, sessions as a direct count of the campaign's enrollments", async () => {
    // Prepare
    const m = tenant.merchant.id;
    const enrollments = await Promise.all(ids.map(async (id) => [...(await enrollmentsOf(m, await campaignEnrollmentPaymentIds(m, id))).values()]));
    const direct = Object.fromEntries(ids.map((id, i) => [id, enrollments[i]?.length]));
    const recovered = Object.fromEntries(ids.map((id, i) => [id, enrollments[i]?.filter((e) => e.status === 'recovered').length]));
    // Act
    const response = await read();
    // Assess
    expect(response.status).toBe(200);
    expect(() => getCampaignAnalyticsSchemas.responses[200].parse(response.body)).not.toThrow();
    expect(response.body.data.map((row) => row.name)).toEqual(['Third', 'Second', 'First']);
    expect(Object.fromEntries(response.body.data.map((row) => [row.id, row.sessions_count]))).toEqual(direct);
    expect(Object.fromEntries(response.body.data.map((row) => [row.id, row.recovered_count]))).toEqual(recovered);
    expect(direct).toEqual({ [ids[0] as string]: 3, [ids[1] as string]: 1, [ids[2] as string]: 0 });
    expect(response.body.data[2]).toMatchObject({
      status: 'active',
      trigger: 'soft_decline',
      recovered_count: 1,
      recovery_rate: 0.3333,
      recovery: { rate: 0.3333, numerator: 1, denominator: 3 },
    });
    expect(response.body.cursor).toEqual({ next: null });
  });

  it("gives each campaign's enrolled and recovered amounts per currency, as its payments add up", async () => {
    // Prepare: the direct sum over the payments each campaign took on.
    const m = tenant.merchant.id;
    const direct: Record<string, { enrolled: Record<string, number>; recovered: Record<string, number> }> = {};
    for (const id of ids) {
      const sums = { enrolled: {} as Record<string, number>, recovered: {} as Record<string, number> };
      for (const paymentId of await campaignEnrollmentPaymentIds(m, id)) {
        const payment = (await getPayment(m, paymentId)) as PaymentRecord;
        sums.enrolled[payment.currency] = (sums.enrolled[payment.currency] ?? 0) + payment.amount;
        if (payment.status === 'recovered') sums.recovered[payment.currency] = (sums.recovered[payment.currency] ?? 0) + payment.amount;
      }
      direct[id] = sums;
    }
    // Act
    const response = await read();
    // Assess
    expect(
      Object.fromEntries(response.body.data.map((row) => [row.id, { enrolled: row.enrolled_amount_by_currency, recovered: row.recovered_amount_by_currency }])),
    ).toEqual(direct);
    expect(direct[ids[0] as string]).toEqual({ enrolled: { usd: 3 * 4999 }, recovered: { usd: 4999 } });
  });

  it('pages with cursor and limit (B), the cursor tied to the merchant', async () => {
    // Act
    const first = await read('?limit=2');
    const next = first.body.cursor.next as string;
    const second = await read(`?limit=2&cursor=${encodeURIComponent(next)}`);
    const theirs = await read(`?limit=2&cursor=${encodeURIComponent(next)}`, stranger.key);
    // Assess
    expect(first.body.data.map((row) => row.name)).toEqual(['Third', 'Second']);
    expect(typeof next).toBe('string');
    expect(second.body.data.map((row) => row.name)).toEqual(['First']);
    expect(second.body.cursor.next).toBeNull();
    expect(theirs.status).toBe(400);
    expect(theirs.body.error).toMatchObject({ code: 'invalid_request', param: 'cursor' });
  });

  it("shows no other merchant's campaigns", async () => {
    // Act
    const response = await read('', stranger.key);
    // Assess
    expect(response.body.data).toEqual([]);
  });

  it('refuses a limit over 200 with 422', async () => {
    // Act
    const response = await read('?limit=201');
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: 'validation_error', param: 'limit' });
  });
});
