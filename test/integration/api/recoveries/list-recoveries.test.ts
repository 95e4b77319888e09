import { listRecoveriesSchemas } from '#api/recoveries/schemas';
import type { PaymentRecord } from '#core/payments';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { HARD_DECLINE, seedPaymentThrough } from '#test/fixtures/payments';
import { activeCampaign, enrollInCampaign, keyWithScopes } from '#test/fixtures/recoveries';
import type { CampaignRecord } from '#core/campaigns/types';
import { newTenant, type Tenant } from '#test/fixtures/tenants';

interface ListBody {
  data: Array<Record<string, unknown> & { id: string; status: string }>;
  pagination: { total: number; page: number; per_page: number; total_pages: number };
  meta: { merchant_id: string };
  error?: { code: string; param?: string; message: string };
}

describe('GET /api/v1/recoveries', () => {
  let stack: LocalStack;
  let tenant: Tenant;
  let seeded: Record<'pending' | 'retrying' | 'recovered' | 'terminal' | 'paused', PaymentRecord>;
  let winter: CampaignRecord;
  const url = (query = ''): string => `${stack.api_url}/recoveries${query}`;

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], { read_per_minute: 100000, write_per_minute: 100000 });
    const m = tenant.merchant.id;
    // Sequential, so creation order (newest first in the list) is known. A soft decline is retrying
    // from its recording on; a hard decline stays pending until its card is updated.
    const pending = await seedPaymentThrough(m, [], { amount: 1000, ...HARD_DECLINE });
    const retrying = await seedPaymentThrough(m, ['retry'], { amount: 2000 });
    const recovered = await seedPaymentThrough(m, ['retry', 'recover'], { amount: 3000 });
    const terminal = await seedPaymentThrough(m, [], {
      amount: 4000,
      retryAllowed: false,
      declineCategory: 'terminal',
      declineSubcategory: 'fraud',
      declineCode: 'fraudulent',
    });
    const paused = await seedPaymentThrough(m, ['pause'], { amount: 5000 });
    seeded = { pending, retrying, recovered, terminal, paused };
    winter = await activeCampaign(m, 'Winter');
    const spring = await activeCampaign(m, 'Spring');
    await enrollInCampaign(pending, winter);
    await enrollInCampaign(recovered, winter);
    await enrollInCampaign(paused, spring);
    await stack.runtime.stream.drain();
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  it('lists every recovery newest first with A fields and B aliases when called without filters', async () => {
    // Act
    const response = await call<ListBody>(url(), { key: tenant.key });
    // Assess
    expect(response.status).toBe(200);
    expect(() => listRecoveriesSchemas.responses[200].parse(response.body)).not.toThrow();
    const { paused, terminal, recovered, retrying, pending } = seeded;
    expect(response.body.data.map((item) => item.id)).toEqual([paused, terminal, recovered, retrying, pending].map((p) => p.recovery_id));
    expect(response.body.data[2]).toMatchObject({
      id: recovered.recovery_id,
      payment_event_id: recovered.id,
      payment_id: recovered.id,
      status: 'recovered',
      amount: 3000,
      amount_cents: 3000,
      currency: 'usd',
      psp: 'stripe',
      psp_payment_id: recovered.provider_payment_id,
      decline_category: 'soft_retry',
      recovered_at: recovered.recovered_at,
      campaign_id: winter.id,
      customer_id: recovered.customer_id,
      current_step: 1,
      total_steps: 2,
    });
    expect(response.body.data[1]).toMatchObject({ id: terminal.recovery_id, campaign_id: null, current_step: null, total_steps: null });
    expect(response.body.pagination).toEqual({ total: 5, page: 1, per_page: 25, total_pages: 1 });
    expect(response.body.meta.merchant_id).toBe(tenant.merchant.id);
  });

  it.each(['pending', 'retrying', 'recovered', 'terminal', 'paused'] as const)('filters by A status %s when status is given', async (status) => {
    // Act
    const response = await call<ListBody>(url(`?status=${status}`), { key: tenant.key });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data.map((item) => item.id)).toEqual([seeded[status].recovery_id]);
    expect(response.body.data[0]?.status).toBe(status);
    expect(response.body.pagination.total).toBe(1);
  });

  it("returns pending and retrying recoveries when B's status=active is given", async () => {
    // Act
    const response = await call<ListBody>(url('?status=active'), { key: tenant.key });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data.map((item) => item.id)).toEqual([seeded.retrying.recovery_id, seeded.pending.recovery_id]);
    expect(response.body.pagination.total).toBe(2);
  });

  it('filters by campaign_id, alone and with a status, when campaign_id is given', async () => {
    // Act
    const all = await call<ListBody>(url(`?campaign_id=${winter.id}`), { key: tenant.key });
    const winterActive = await call<ListBody>(url(`?campaign_id=${winter.id}&status=active`), { key: tenant.key });
    const none = await call<ListBody>(url('?campaign_id=camp_none'), { key: tenant.key });
    // Assess
    expect(all.body.data.map((item) => item.id)).toEqual([seeded.recovered.recovery_id, seeded.pending.recovery_id]);
    expect(all.body.data[0]).toMatchObject({ campaign_id: winter.id, current_step: 1, total_steps: 2 });
    expect(all.body.pagination.total).toBe(2);
    expect(winterActive.body.data.map((item) => item.id)).toEqual([seeded.pending.recovery_id]);
    expect(winterActive.body.pagination.total).toBe(1);
    expect(none.body).toMatchObject({ data: [], pagination: { total: 0, total_pages: 0 } });
  });

  it('pages with page and per_page when both are given', async () => {
    // Act
    const first = await call<ListBody>(url('?per_page=2&page=1'), { key: tenant.key });
    const third = await call<ListBody>(url('?per_page=2&page=3'), { key: tenant.key });
    const beyond = await call<ListBody>(url('?per_page=2&page=4'), { key: tenant.key });
    // Assess
    expect(first.body.data.map((item) => item.id)).toEqual([seeded.paused.recovery_id, seeded.terminal.recovery_id]);
    expect(first.body.pagination).toEqual({ total: 5, page: 1, per_page: 2, total_pages: 3 });
    expect(third.body.data.map((item) => item.id)).toEqual([seeded.pending.recovery_id]);
    expect(beyond.body.data).toEqual([]);
  });

  it.each([
    ['?status=failed', 400, 'invalid_request', 'status'],
    ['?status=bogus', 400, 'invalid_request', 'status'],
    ['?per_page=101', 422, 'validation_error', 'per_page'],
    ['?page=0', 422, 'validation_error', 'page'],
    ['?page=abc', 422, 'validation_error', 'page'],
    ['?campaign_id=', 422, 'validation_error', 'campaign_id'],
  ])('refuses %s with %i naming the parameter', async (query, status, code, param) => {
    // Act
    const response = await call<ListBody>(url(query), { key: tenant.key });
    // Assess
    expect(response.status).toBe(status);
    expect(response.body.error).toMatchObject({ code, param });
  });

  it('refuses a key without read with 403 when it lists recoveries', async () => {
    // Prepare
    const key = await keyWithScopes(tenant.merchant.id, ['analytics']);
    // Act
    const response = await call<ListBody>(url(), { key });
    // Assess
    expect(response.status).toBe(403);
    expect(response.body.error?.code).toBe('insufficient_scope');
  });

  it("shows none of this merchant's recoveries when another merchant lists", async () => {
    // Prepare
    const stranger = await newTenant(['read']);
    // Act
    const response = await call<ListBody>(url(), { key: stranger.key });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ data: [], pagination: { total: 0 } });
  });
});
