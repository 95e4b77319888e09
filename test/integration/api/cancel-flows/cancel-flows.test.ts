/**
 * /api/v1/cancel-flows over HTTP: create (inactive, validated steps), list (steps and statistics,
 * paging, status), replace, delete (inactive only), activate (exactly one active, also under
 * concurrent activations) and deactivate; scopes, another merchant's ids, bad input.
 */
import { createCancelFlowSchemas, listCancelFlowsSchemas, updateCancelFlowSchemas } from '#api/cancel-flows/schemas';
import type { LocalStack } from '#lib/local/local-stack';
import { createFlow, type FlowBody, SURVEY_FLOW } from '#test/fixtures/cancel-flows';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { expectOtherMerchantGets404, newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

interface ListBody {
  data: FlowBody['data'][];
  pagination: { total: number; page: number; per_page: number; total_pages: number };
}
interface ErrorBody {
  error: { code: string; param?: string; message: string };
}

describe('/api/v1/cancel-flows', () => {
  let stack: LocalStack;
  let tenant: Tenant;
  const base = () => `${stack.api_url}/cancel-flows`;

  beforeAll(async () => {
    stack = await startTestStack();
  });
  beforeEach(async () => {
    tenant = await newTenant(['admin'], UNLIMITED);
  });
  afterAll(async () => {
    await stack.stop();
  });

  describe('POST', () => {
    it('creates an inactive flow with its steps, ids kept or assigned and offer defaults filled', async () => {
      // Act
      const response = await call<FlowBody>(base(), {
        method: 'POST',
        key: tenant.key,
        body: { ...SURVEY_FLOW, steps: [...SURVEY_FLOW.steps, { step_type: 'custom', title: 'One more thing' }] },
      });
      // Assess
      expect(response.status).toBe(201);
      expect(createCancelFlowSchemas.responses[201].safeParse(response.body).success).toBe(true);
      expect(response.body.data).toMatchObject({ id: expect.stringMatching(/^cf_/), status: 'inactive', is_active: false, name: 'Default cancel flow' });
      expect(response.body.data.steps.map((step) => step.id)).toEqual(['why', 'discount', 'pause', 'confirm', 'step_5']);
      expect(response.body.data.steps[1]).toMatchObject({ offer: { type: 'discount', value: 30, duration_months: 3, redemption_cap: 1 } });
      expect(response.body.data.stats).toMatchObject({ started: 0, completed: 0, save_rate: null });
    });

    it('creates a flow without steps (B: steps optional)', async () => {
      // Act
      const response = await call<FlowBody>(base(), { method: 'POST', key: tenant.key, body: { name: 'Draft' } });
      // Assess
      expect(response.status).toBe(201);
      expect(response.body.data.steps).toEqual([]);
    });

    it.each([
      [
        'a branch to a step that does not exist',
        {
          name: 'x',
          steps: [
            {
              ...SURVEY_FLOW.steps[0],
              options: [
                { value: 'a', label: 'A', next_step: 'nowhere' },
                { value: 'b', label: 'B' },
              ],
            },
          ],
        },
        422,
        'steps.0.options.0.next_step',
      ],
      ['a name of 201 characters', { name: 'x'.repeat(201) }, 422, 'name'],
      ['an empty name', { name: '   ' }, 422, 'name'],
      ['no name', { steps: [] }, 400, 'name'],
      ['an unknown step type', { name: 'x', steps: [{ step_type: 'quiz', title: 'Q' }] }, 422, 'steps.0.step_type'],
      ['an offer without value', { name: 'x', steps: [{ step_type: 'offer', title: 'Deal', offer: { type: 'discount' } }] }, 400, 'steps.0.offer.value'],
      ['a pause of 13 months', { name: 'x', steps: [{ step_type: 'offer', title: 'Deal', offer: { type: 'pause', value: 13 } }] }, 422, 'steps.0.offer.value'],
      ['eleven steps', { name: 'x', steps: Array.from({ length: 11 }, (_, i) => ({ step_type: 'custom', title: `S${i}` })) }, 422, 'steps'],
      [
        'a redemption cap of 0',
        { name: 'x', steps: [{ step_type: 'offer', title: 'Deal', offer: { type: 'custom', value: 'A call with us', redemption_cap: 0 } }] },
        422,
        'steps.0.offer.redemption_cap',
      ],
    ])('refuses %s with its status, naming the field, and writes nothing', async (_name, body, status, param) => {
      // Act
      const response = await call<ErrorBody>(base(), { method: 'POST', key: tenant.key, body });
      const listed = await call<ListBody>(base(), { key: tenant.key });
      // Assess
      expect({ status: response.status, param: response.body.error.param }).toEqual({ status, param });
      expect(listed.body.pagination.total).toBe(0);
    });

    it('refuses a __proto__ key with 400', async () => {
      // Act
      const response = await call<ErrorBody>(base(), {
        method: 'POST',
        key: tenant.key,
        rawBody: '{"name":"x","__proto__":{"admin":true}}',
        headers: { 'Content-Type': 'application/json' },
      });
      // Assess
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_request');
    });

    it('needs write or write:cancel-flows (403 for read keys)', async () => {
      // Prepare
      const reader = await newTenant(['read:cancel-flows'], UNLIMITED);
      const granular = await newTenant(['write:cancel-flows'], UNLIMITED);
      // Act
      const refused = await call<ErrorBody>(base(), { method: 'POST', key: reader.key, body: { name: 'x' } });
      const allowed = await call<FlowBody>(base(), { method: 'POST', key: granular.key, body: { name: 'x' } });
      // Assess
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('insufficient_scope');
      expect(allowed.status).toBe(201);
    });
  });

  describe('GET', () => {
    it('lists the flows oldest first with steps and statistics, paged and filtered by status', async () => {
      // Prepare
      const first = await createFlow(stack.api_url, tenant);
      const second = await createFlow(stack.api_url, tenant, { name: 'Second' }, false);
      await createFlow(stack.api_url, tenant, SURVEY_FLOW, true);
      const reader = await newTenant(['read:cancel-flows'], UNLIMITED);
      // Act
      const page1 = await call<ListBody>(`${base()}?per_page=2`, { key: tenant.key });
      const page2 = await call<ListBody>(`${base()}?per_page=2&page=2`, { key: tenant.key });
      const active = await call<ListBody>(`${base()}?status=active`, { key: tenant.key });
      const bad = await call<ErrorBody>(`${base()}?status=draft`, { key: tenant.key });
      const foreign = await call<ListBody>(base(), { key: reader.key });
      // Assess
      expect(listCancelFlowsSchemas.responses[200].safeParse(page1.body).success).toBe(true);
      expect(page1.body.data.map((flow) => flow.id)).toEqual([first, second]);
      expect(page1.body.pagination).toEqual({ total: 3, page: 1, per_page: 2, total_pages: 2 });
      expect(page2.body.data).toHaveLength(1);
      expect(active.body.data.map((flow) => flow.status)).toEqual(['active']);
      expect(page1.body.data[0]?.steps).toHaveLength(4);
      expect({ status: bad.status, param: bad.body.error.param }).toEqual({ status: 400, param: 'status' });
      expect(foreign.body.data).toEqual([]);
    });
  });

  describe('PUT', () => {
    it('replaces every step and keeps the name unless given', async () => {
      // Prepare
      const id = await createFlow(stack.api_url, tenant);
      // Act
      const response = await call<FlowBody>(`${base()}/${id}`, { method: 'PUT', key: tenant.key, body: { steps: [{ step_type: 'confirm', title: 'Sure?' }] } });
      // Assess
      expect(response.status).toBe(200);
      expect(updateCancelFlowSchemas.responses[200].safeParse(response.body).success).toBe(true);
      expect(response.body.data).toMatchObject({ name: 'Default cancel flow', steps: [{ id: 'step_1', step_type: 'confirm', title: 'Sure?' }] });
    });

    it('refuses a branch to a missing step (422) and leaves the flow as it was', async () => {
      // Prepare
      const id = await createFlow(stack.api_url, tenant);
      const steps = [
        {
          step_type: 'survey',
          title: 'Why?',
          options: [
            { value: 'a', label: 'A', next_step: 'ghost' },
            { value: 'b', label: 'B' },
          ],
        },
      ];
      // Act
      const response = await call<ErrorBody>(`${base()}/${id}`, { method: 'PUT', key: tenant.key, body: { steps } });
      const listed = await call<ListBody>(base(), { key: tenant.key });
      // Assess
      expect({ status: response.status, param: response.body.error.param }).toEqual({ status: 422, param: 'steps.0.options.0.next_step' });
      expect(listed.body.data[0]?.steps).toHaveLength(4);
    });

    it("answers 404 for another merchant's flow, an unknown id and a 10 KB id", async () => {
      // Prepare
      const id = await createFlow(stack.api_url, tenant);
      // Act
      const unknown = await call<ErrorBody>(`${base()}/cf_01JD8Y1A2B3C4D5E6F7G8H9J0K`, { method: 'PUT', key: tenant.key, body: { steps: [] } });
      const huge = await call<ErrorBody>(`${base()}/${'x'.repeat(10_000)}`, { method: 'PUT', key: tenant.key, body: { steps: [] } });
      // Assess
      await expectOtherMerchantGets404(`${base()}/${id}`, { method: 'PUT', body: { steps: [] } });
      expect(unknown.status).toBe(404);
      expect(huge.status).toBe(404);
    });
  });

  describe('DELETE', () => {
    it('deletes an inactive flow (204, then 404) and refuses an active one (409)', async () => {
      // Prepare
      const inactive = await createFlow(stack.api_url, tenant);
      const active = await createFlow(stack.api_url, tenant, SURVEY_FLOW, true);
      // Act
      const deleted = await call(`${base()}/${inactive}`, { method: 'DELETE', key: tenant.key });
      const again = await call<ErrorBody>(`${base()}/${inactive}`, { method: 'DELETE', key: tenant.key });
      const refused = await call<ErrorBody>(`${base()}/${active}`, { method: 'DELETE', key: tenant.key });
      // Assess
      expect(deleted.status).toBe(204);
      expect(again.status).toBe(404);
      expect({ status: refused.status, code: refused.body.error.code }).toEqual({ status: 409, code: 'state_conflict' });
      await expectOtherMerchantGets404(`${base()}/${active}`, { method: 'DELETE' });
    });
  });

  describe('activate and deactivate', () => {
    it('keeps exactly one flow active: activating one deactivates the other', async () => {
      // Prepare
      const first = await createFlow(stack.api_url, tenant, SURVEY_FLOW, true);
      const second = await createFlow(stack.api_url, tenant);
      // Act
      const activated = await call<FlowBody>(`${base()}/${second}/activate`, { method: 'POST', key: tenant.key });
      const listed = await call<ListBody>(base(), { key: tenant.key });
      // Assess
      expect(activated.body.data).toMatchObject({ id: second, status: 'active', is_active: true });
      expect(listed.body.data.map((flow) => [flow.id, flow.status])).toEqual([
        [first, 'inactive'],
        [second, 'active'],
      ]);
    });

    it('ends with exactly one active flow when five are activated at once', async () => {
      // Prepare
      const ids = await Promise.all(Array.from({ length: 5 }, () => createFlow(stack.api_url, tenant)));
      // Act
      const responses = await Promise.all(ids.map((id) => call(`${base()}/${id}/activate`, { method: 'POST', key: tenant.key })));
      const listed = await call<ListBody>(`${base()}?status=active`, { key: tenant.key });
      // Assess
      expect(responses.every((response) => response.status === 200 || response.status === 409)).toBe(true);
      expect(listed.body.data).toHaveLength(1);
    }, 30_000);

    it('refuses to activate an active flow or a flow without steps, to empty an active one, and to deactivate an inactive one (409)', async () => {
      // Prepare
      const active = await createFlow(stack.api_url, tenant, SURVEY_FLOW, true);
      const empty = await createFlow(stack.api_url, tenant, { name: 'Empty' });
      // Act
      const twice = await call<ErrorBody>(`${base()}/${active}/activate`, { method: 'POST', key: tenant.key });
      const noSteps = await call<ErrorBody>(`${base()}/${empty}/activate`, { method: 'POST', key: tenant.key });
      const emptied = await call<ErrorBody>(`${base()}/${active}`, { method: 'PUT', key: tenant.key, body: { steps: [] } });
      const deactivated = await call<FlowBody>(`${base()}/${active}/deactivate`, { method: 'POST', key: tenant.key });
      const again = await call<ErrorBody>(`${base()}/${active}/deactivate`, { method: 'POST', key: tenant.key });
      // Assess
      expect([twice.status, noSteps.status, emptied.status, again.status]).toEqual([409, 409, 409, 409]);
      expect(deactivated.body.data).toMatchObject({ status: 'inactive', is_active: false, deactivated_at: expect.any(String) });
      await expectOtherMerchantGets404(`${base()}/${active}/activate`, { method: 'POST' });
      await expectOtherMerchantGets404(`${base()}/${active}/deactivate`, { method: 'POST' });
    });
  });
});
