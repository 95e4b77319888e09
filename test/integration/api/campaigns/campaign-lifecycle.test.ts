import { activateCampaignSchemas, getCampaignSchemas, updateCampaignSchemas } from '#api/campaigns/schemas';
import { getActiveCampaignIndex, getCampaign, incrementCampaignStats } from '#data/campaign-repository';
import { countSending, judgeSending } from '#data/channel-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { expectOtherMerchantGets404, newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

interface Answer {
  data: Record<string, unknown> & { id: string; status: string };
  error?: { code: string; param?: string; message: string };
}

const BODY = {
  name: 'Soft declines',
  trigger: 'soft_decline',
  steps: [{ action: 'retry', delay_hours: 24 }],
};

describe('campaign detail, update and status actions', () => {
  let stack: LocalStack;
  let tenant: Tenant;
  const url = (path = ''): string => `${stack.api_url}/campaigns${path}`;
  const create = async (body: object = BODY): Promise<string> => (await call<Answer>(url(), { method: 'POST', key: tenant.key, body })).body.data.id;
  const act = (id: string, action: string) => call<Answer>(url(`/${id}/${action}`), { method: 'POST', key: tenant.key });
  const inStatus = async (status: 'draft' | 'active' | 'paused' | 'archived'): Promise<string> => {
    const id = await create();
    if (status === 'active' || status === 'paused') await act(id, 'activate');
    if (status === 'paused') await act(id, 'pause');
    if (status === 'archived') await act(id, 'archive');
    return id;
  };

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], UNLIMITED);
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  describe('GET /api/v1/campaigns/{id}', () => {
    it('answers the full detail with performance from the stats the engine adds', async () => {
      // Prepare
      const id = await create({ ...BODY, filters_json: '{"psp":"stripe"}' });
      await incrementCampaignStats(tenant.merchant.id, id, { enrolled: 4, active: 3, recovered: 1, messages_sent: 2 });
      await incrementCampaignStats(tenant.merchant.id, id, { active: -1, recovered: 1 });
      // Act
      const response = await call<Answer>(url(`/${id}`), { key: tenant.key });
      // Assess
      expect(response.status).toBe(200);
      expect(() => getCampaignSchemas.responses[200].parse(response.body)).not.toThrow();
      expect(response.body.data).toMatchObject({
        id,
        trigger: 'soft_decline',
        trigger_type: 'payment_failed_soft',
        filters: { psp: ['stripe'] },
        stats: { enrolled: 4, active: 2, recovered: 2, stopped: 0, completed: 0, messages_sent: 2 },
        performance: { enrolled: 4, active: 2, recovered: 2, recovery_rate: 0.5 },
        sending_paused: null,
      });
    });

    it("says when and why the merchant's email sending is paused, in the detail and the list", async () => {
      // Prepare: a merchant of its own whose bounces passed 2.5% of 400 sends in the last 30 days.
      const paused = await newTenant(['admin'], UNLIMITED);
      const created = await call<Answer>(url(), { method: 'POST', key: paused.key, body: BODY });
      await countSending(paused.merchant.id, 'sent', new Date(Date.now() - 86_400_000), 400);
      await countSending(paused.merchant.id, 'bounced', new Date(Date.now() - 86_400_000), 11);
      const pause = await judgeSending(paused.merchant.id);
      // Act
      const detail = await call<Answer>(url(`/${created.body.data.id}`), { key: paused.key });
      const list = await call<{ data: Answer['data'][] }>(url(), { key: paused.key });
      // Assess
      expect(pause).toBeDefined();
      const expected = { since: pause?.since, reason: expect.stringContaining('bounce'), bounce_rate: 0.0275, complaint_rate: 0 };
      expect(detail.body.data.sending_paused).toEqual(expected);
      expect(list.body.data[0]?.sending_paused).toEqual(expected);
      expect(() => getCampaignSchemas.responses[200].parse(detail.body)).not.toThrow();
    });

    it("answers 404 for an unknown id and for another merchant's campaign", async () => {
      // Prepare
      const id = await create();
      // Act
      const unknown = await call<Answer>(url('/camp_01JZZZZZZZZZZZZZZZZZZZZZZZ'), { key: tenant.key });
      const malformed = await call<Answer>(url('/not-a-campaign'), { key: tenant.key });
      // Assess
      expect([unknown.status, unknown.body.error?.code, unknown.body.error?.param]).toEqual([404, 'resource_not_found', 'id']);
      expect(malformed.status).toBe(404);
      await expectOtherMerchantGets404(url(`/${id}`));
    });
  });

  describe('PUT /api/v1/campaigns/{id}', () => {
    it("updates only the fields of B's body (name, trigger, filters) on a draft", async () => {
      // Prepare
      const id = await create({ ...BODY, start_hour: 8 });
      // Act
      const response = await call<Answer>(url(`/${id}`), {
        method: 'PUT',
        key: tenant.key,
        body: { name: 'Renamed', trigger: 'card_expired', filters: { currency: 'eur', amount_max: 50000 } },
      });
      // Assess
      expect(response.status).toBe(200);
      expect(() => updateCampaignSchemas.responses[200].parse(response.body)).not.toThrow();
      expect(response.body.data).toMatchObject({
        name: 'Renamed',
        status: 'draft',
        trigger: 'card_expired',
        trigger_type: null,
        filters: { amount_max: 50000, currency: ['eur'] },
        start_hour: 8,
        steps: [{ action: 'retry', delay_hours: 24, template_id: null }],
      });
    });

    it("takes B's filters as JSON text too, and refuses text that is not JSON naming filters", async () => {
      // Prepare
      const id = await create();
      // Act
      const updated = await call<Answer>(url(`/${id}`), { method: 'PUT', key: tenant.key, body: { filters: '{"decline_code":"expired_card"}' } });
      const refused = await call<Answer>(url(`/${id}`), { method: 'PUT', key: tenant.key, body: { filters: 'expired_card' } });
      // Assess
      expect([updated.status, updated.body.data.filters]).toEqual([200, { decline_code: ['expired_card'] }]);
      expect([refused.status, refused.body.error?.code, refused.body.error?.param]).toEqual([422, 'validation_error', 'filters']);
    });

    it("updates a paused campaign with A's fields and keeps it paused", async () => {
      // Prepare
      const id = await inStatus('paused');
      // Act
      const response = await call<Answer>(url(`/${id}`), {
        method: 'PUT',
        key: tenant.key,
        body: { trigger_type: 'payment_failed_hard', steps: [{ action: 'email', delay_hours: 0, template_id: 'tmpl_card_update_1' }], end_hour: 18 },
      });
      // Assess
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({
        status: 'paused',
        trigger: 'payment_failed_hard',
        trigger_type: 'payment_failed_hard',
        end_hour: 18,
        total_steps: 1,
      });
    });

    it.each(['active', 'archived'] as const)('refuses to update an %s campaign with 409 and leaves it unchanged', async (status) => {
      // Prepare
      const id = await inStatus(status);
      const before = await getCampaign(tenant.merchant.id, id);
      // Act
      const response = await call<Answer>(url(`/${id}`), { method: 'PUT', key: tenant.key, body: { name: 'Nope' } });
      // Assess
      expect([response.status, response.body.error?.code]).toEqual([409, 'state_conflict']);
      expect(await getCampaign(tenant.merchant.id, id)).toEqual(before);
    });

    it('refuses bad values with 422 naming the field, and writes nothing', async () => {
      // Prepare
      const id = await create();
      const before = await getCampaign(tenant.merchant.id, id);
      // Act
      const hours = await call<Answer>(url(`/${id}`), { method: 'PUT', key: tenant.key, body: { name: 'x', start_hour: 30 } });
      const filters = await call<Answer>(url(`/${id}`), { method: 'PUT', key: tenant.key, body: { name: 'x', filters_json: '{"amount_min":5}' } });
      const both = await call<Answer>(url(`/${id}`), { method: 'PUT', key: tenant.key, body: { filters_json: '{"psp":"stripe"}', filters: { psp: 'adyen' } } });
      // Assess
      expect([hours.status, hours.body.error?.param]).toEqual([422, 'start_hour']);
      expect([filters.status, filters.body.error?.param]).toEqual([422, 'filters_json']);
      expect(filters.body.error?.message).toContain('amount_min');
      expect([both.status, both.body.error?.param]).toEqual([422, 'filters']);
      expect(await getCampaign(tenant.merchant.id, id)).toEqual(before);
    });

    it("answers 404 for another merchant's campaign", async () => {
      // Prepare
      const id = await create();
      // Act and assess
      await expectOtherMerchantGets404(url(`/${id}`), { method: 'PUT', body: { name: 'Mine now' } });
    });
  });

  describe('POST /api/v1/campaigns/{id}/activate, /pause, /archive', () => {
    it('activates a draft, pauses it, activates it again and archives it, keeping the active index in step', async () => {
      // Prepare
      const id = await create({ ...BODY, filters_json: '{"currency":"usd"}' });
      const m = tenant.merchant.id;
      // Act
      const activated = await act(id, 'activate');
      const indexWhenActive = await getActiveCampaignIndex(m);
      const paused = await act(id, 'pause');
      const indexWhenPaused = await getActiveCampaignIndex(m);
      const reactivated = await act(id, 'activate');
      const archived = await act(id, 'archive');
      const indexWhenArchived = await getActiveCampaignIndex(m);
      // Assess
      expect(activated.status).toBe(200);
      expect(() => activateCampaignSchemas.responses[200].parse(activated.body)).not.toThrow();
      expect(activated.body.data).toMatchObject({ status: 'active', activated_at: expect.any(String) });
      expect(indexWhenActive.campaigns.find((entry) => entry.id === id)).toEqual({
        id,
        trigger: 'soft_decline',
        filters: { currency: ['usd'] },
        activated_at: activated.body.data.activated_at,
        steps_count: 1,
        delay_hours: 0,
        first_step_delay_hours: 24,
        start_hour: 9,
        end_hour: 21,
      });
      expect(paused.body.data).toMatchObject({ status: 'paused', paused_at: expect.any(String) });
      expect(indexWhenPaused.campaigns.some((entry) => entry.id === id)).toBe(false);
      expect(reactivated.body.data.status).toBe('active');
      expect(archived.body.data).toMatchObject({ status: 'archived', archived_at: expect.any(String) });
      expect(indexWhenArchived.campaigns.some((entry) => entry.id === id)).toBe(false);
    });

    it.each([
      ['activate', 'active'],
      ['activate', 'archived'],
      ['pause', 'draft'],
      ['pause', 'paused'],
      ['pause', 'archived'],
      ['archive', 'archived'],
    ] as const)('refuses to %s a campaign that is %s with 409 and changes nothing', async (action, status) => {
      // Prepare
      const id = await inStatus(status);
      const before = await getCampaign(tenant.merchant.id, id);
      // Act
      const response = await act(id, action);
      // Assess
      expect([response.status, response.body.error?.code]).toEqual([409, 'state_conflict']);
      expect(await getCampaign(tenant.merchant.id, id)).toEqual(before);
    });

    it.each(['draft', 'paused'] as const)('archives a %s campaign', async (status) => {
      // Prepare
      const id = await inStatus(status);
      // Act
      const response = await act(id, 'archive');
      // Assess
      expect([response.status, response.body.data.status]).toEqual([200, 'archived']);
    });

    it('lets exactly one of concurrent activations of one campaign succeed, and indexes it once', async () => {
      // Prepare
      const id = await create();
      // Act
      const answers = await Promise.all(Array.from({ length: 5 }, () => act(id, 'activate')));
      // Assess
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409, 409]);
      expect((await getActiveCampaignIndex(tenant.merchant.id)).campaigns.filter((entry) => entry.id === id)).toHaveLength(1);
    });

    it('keeps every campaign of concurrent activations of different campaigns in the active index', async () => {
      // Prepare
      const ids = await Promise.all([create(), create(), create(), create()]);
      // Act
      const answers = await Promise.all(ids.map((id) => act(id, 'activate')));
      // Assess
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
      const indexed = (await getActiveCampaignIndex(tenant.merchant.id)).campaigns.map((entry) => entry.id);
      for (const id of ids) expect(indexed).toContain(id);
    });

    it.each(['activate', 'pause', 'archive'])("answers 404 to %s of another merchant's campaign", async (action) => {
      // Prepare
      const id = await inStatus(action === 'pause' ? 'active' : 'draft');
      // Act and assess
      await expectOtherMerchantGets404(url(`/${id}/${action}`), { method: 'POST' });
      expect((await getCampaign(tenant.merchant.id, id))?.status).toBe(action === 'pause' ? 'active' : 'draft');
    });
  });
});
