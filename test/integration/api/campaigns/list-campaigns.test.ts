import { listCampaignsSchemas, listCampaignTemplatesSchemas } from '#api/campaigns/schemas';
import { getCampaign } from '#data/campaign-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

interface ListAnswer {
  data: Array<Record<string, unknown> & { id: string; status: string; trigger: string }>;
  pagination: { total: number; page: number; per_page: number; total_pages: number };
  error?: { code: string; param?: string };
}
interface Answer {
  data: Record<string, unknown> & { id: string; status: string };
  error?: { code: string; param?: string; message: string };
}

describe('GET /api/v1/campaigns and the campaign templates', () => {
  let stack: LocalStack;
  let tenant: Tenant;
  const ids: Record<string, string> = {};
  const url = (path = ''): string => `${stack.api_url}/campaigns${path}`;
  const create = async (name: string, trigger: string): Promise<string> =>
    (await call<Answer>(url(), { method: 'POST', key: tenant.key, body: { name, trigger, steps: [{ action: 'retry', delay_hours: 1 }] } })).body.data.id;

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], UNLIMITED);
    // Sequential, so that creation order (newest first in the list) is known.
    ids.draft = await create('Draft', 'soft_decline');
    ids.active = await create('Active', 'soft_decline');
    ids.paused = await create('Paused', 'card_expired');
    ids.archived = await create('Archived', 'payment_failed');
    await call(url(`/${ids.active}/activate`), { method: 'POST', key: tenant.key });
    await call(url(`/${ids.paused}/activate`), { method: 'POST', key: tenant.key });
    await call(url(`/${ids.paused}/pause`), { method: 'POST', key: tenant.key });
    await call(url(`/${ids.archived}/archive`), { method: 'POST', key: tenant.key });
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  it('lists every campaign of the merchant newest first, and none of another merchant', async () => {
    // Prepare
    const stranger = await newTenant(['admin']);
    // Act
    const response = await call<ListAnswer>(url(), { key: tenant.key });
    const theirs = await call<ListAnswer>(url(), { key: stranger.key });
    // Assess
    expect(response.status).toBe(200);
    expect(() => listCampaignsSchemas.responses[200].parse(response.body)).not.toThrow();
    expect(response.body.data.map((c) => c.id)).toEqual([ids.archived, ids.paused, ids.active, ids.draft]);
    expect(response.body.pagination).toEqual({ total: 4, page: 1, per_page: 25, total_pages: 1 });
    expect(theirs.body.data).toEqual([]);
  });

  it.each(['draft', 'active', 'paused', 'archived'] as const)('filters by status=%s', async (status) => {
    // Act
    const response = await call<ListAnswer>(url(`?status=${status}`), { key: tenant.key });
    // Assess
    expect(response.body.data.map((c) => c.id)).toEqual([ids[status]]);
    expect(response.body.pagination.total).toBe(1);
  });

  it("accepts B's status=completed", async () => {
    // Act
    const response = await call<ListAnswer>(url('?status=completed'), { key: tenant.key });
    // Assess
    expect([response.status, response.body.data.length, response.body.pagination.total]).toEqual([200, 0, 0]);
  });

  it("filters by B's trigger, and by A's value of the same trigger, alone and with a status", async () => {
    // Act
    const soft = await call<ListAnswer>(url('?trigger=soft_decline'), { key: tenant.key });
    const softA = await call<ListAnswer>(url('?trigger=payment_failed_soft'), { key: tenant.key });
    const softActive = await call<ListAnswer>(url('?trigger=soft_decline&status=active'), { key: tenant.key });
    // Assess
    expect(soft.body.data.map((c) => c.id)).toEqual([ids.active, ids.draft]);
    expect(soft.body.pagination.total).toBe(2);
    expect(softA.body.data.map((c) => c.id)).toEqual([ids.active, ids.draft]);
    expect(softActive.body.data.map((c) => c.id)).toEqual([ids.active]);
  });

  it('pages with page and per_page', async () => {
    // Act
    const second = await call<ListAnswer>(url('?per_page=3&page=2'), { key: tenant.key });
    // Assess
    expect(second.body.data.map((c) => c.id)).toEqual([ids.draft]);
    expect(second.body.pagination).toEqual({ total: 4, page: 2, per_page: 3, total_pages: 2 });
  });

  it.each([
    ['status=deleted', 400, 'invalid_request', 'status'],
    ['trigger=payday', 400, 'invalid_request', 'trigger'],
    ['colour=red', 400, 'invalid_request', 'colour'],
    ['per_page=101', 422, 'validation_error', 'per_page'],
  ])('refuses %s with %i %s naming %s', async (query, status, code, param) => {
    // Act
    const response = await call<ListAnswer>(url(`?${query}`), { key: tenant.key });
    // Assess
    expect([response.status, response.body.error?.code, response.body.error?.param]).toEqual([status, code, param]);
  });

  describe('GET /api/v1/campaigns/templates', () => {
    it('lists the four decline-aware templates with their cadence', async () => {
      // Act
      const response = await call<{ data: Array<Record<string, unknown>> }>(url('/templates'), { key: tenant.key });
      // Assess
      expect(response.status).toBe(200);
      expect(() => listCampaignTemplatesSchemas.responses[200].parse(response.body)).not.toThrow();
      expect(response.body.data.map((t) => t.id)).toEqual(['soft_decline', 'hard_decline', 'card_expiring', 'high_value']);
      expect(response.body.data[1]).toMatchObject({
        trigger: 'payment_failed_hard',
        trigger_type: 'payment_failed_hard',
        duration_days: 28,
        messages: { email: 5, sms: 1, whatsapp: 0 },
        retries: 0,
      });
      expect(response.body.data[0]).toMatchObject({ trigger: 'soft_decline', trigger_type: 'payment_failed_soft', duration_days: 14 });
    });
  });

  describe('POST /api/v1/campaigns/from-template', () => {
    it('creates a draft from a template, named as asked, with 201', async () => {
      // Act
      const response = await call<Answer>(url('/from-template'), {
        method: 'POST',
        key: tenant.key,
        body: { template_id: 'hard_decline', name: 'Our card updates' },
      });
      // Assess
      expect(response.status).toBe(201);
      expect(response.body.data).toMatchObject({
        name: 'Our card updates',
        status: 'draft',
        trigger: 'payment_failed_hard',
        source_template_id: 'hard_decline',
        total_steps: 6,
        end_hour: 20,
      });
      expect(await getCampaign(tenant.merchant.id, response.body.data.id)).toMatchObject({ source_template_id: 'hard_decline' });
    });

    it("names it after the template when no name is given (B's optional name)", async () => {
      // Act
      const response = await call<Answer>(url('/from-template'), { method: 'POST', key: tenant.key, body: { template_id: 'soft_decline' } });
      // Assess
      expect(response.status).toBe(201);
      expect(response.body.data.name).toBe('Soft decline: retries and reminders over 14 days');
    });

    it('refuses an unknown template with 404 naming template_id and a missing one with 400, and writes nothing', async () => {
      // Prepare
      const before = (await call<ListAnswer>(url(), { key: tenant.key })).body.pagination.total;
      // Act
      const unknown = await call<Answer>(url('/from-template'), { method: 'POST', key: tenant.key, body: { template_id: 'black_friday' } });
      const missing = await call<Answer>(url('/from-template'), { method: 'POST', key: tenant.key, body: { name: 'x' } });
      // Assess
      expect([unknown.status, unknown.body.error?.code, unknown.body.error?.param]).toEqual([404, 'resource_not_found', 'template_id']);
      expect([missing.status, missing.body.error?.code, missing.body.error?.param]).toEqual([400, 'invalid_request', 'template_id']);
      expect((await call<ListAnswer>(url(), { key: tenant.key })).body.pagination.total).toBe(before);
    });
  });
});
