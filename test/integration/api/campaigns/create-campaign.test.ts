import { createCampaignSchemas } from '#api/campaigns/schemas';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

interface Answer {
  data: Record<string, unknown> & { id: string; status: string };
  pagination?: { total: number };
  error?: { code: string; param?: string; message: string };
}

const A_BODY = {
  name: 'Soft declines',
  trigger_type: 'payment_failed_soft',
  steps: [
    { action: 'retry', delay_hours: 24 },
    { action: 'email', delay_hours: 48, template_id: 'tmpl_soft_decline_1' },
  ],
};

const B_BODY = {
  name: 'Expired cards in usd',
  trigger: 'card_expired',
  steps: [{ action: 'email', delay_hours: 0, template_id: 'tmpl_card_update_1', subject: 'Your card expired' }],
  filters_json: '{"currency":"usd","amount_min":1000,"customer_segment":"repeat_failure"}',
};

describe('POST /api/v1/campaigns', () => {
  let stack: LocalStack;
  let tenant: Tenant;
  const url = (path = ''): string => `${stack.api_url}/campaigns${path}`;
  const total = async (): Promise<number> => ((await call<Answer>(url(), { key: tenant.key })).body.pagination as { total: number }).total;

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], UNLIMITED);
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  it("creates a draft from A's body with A's defaults and answers 201 with both trigger fields", async () => {
    // Act
    const response = await call<Answer>(url(), { method: 'POST', key: tenant.key, body: A_BODY });
    // Assess
    expect(response.status).toBe(201);
    expect(() => createCampaignSchemas.responses[201].parse(response.body)).not.toThrow();
    expect(response.body.data).toMatchObject({
      name: 'Soft declines',
      status: 'draft',
      trigger: 'soft_decline',
      trigger_type: 'payment_failed_soft',
      filters: {},
      filters_json: '{}',
      steps: [
        { action: 'retry', delay_hours: 24, template_id: null },
        { action: 'email', delay_hours: 48, template_id: 'tmpl_soft_decline_1' },
      ],
      total_steps: 2,
      delay_hours: 0,
      max_attempts: 4,
      stop_on_recovery: true,
      stop_on_card_update: true,
      start_hour: 9,
      end_hour: 21,
      stats: { enrolled: 0, active: 0, recovered: 0, stopped: 0, completed: 0, messages_sent: 0 },
      performance: { enrolled: 0, active: 0, recovered: 0, recovery_rate: 0 },
      sending_paused: null,
      source_template_id: null,
      activated_at: null,
    });
    expect(response.body.data.id).toMatch(/^camp_[0-9A-Z]{26}$/);
    const stored = await call<Answer>(url(`/${response.body.data.id}`), { key: tenant.key });
    expect(stored.body.data).toEqual(response.body.data);
  });

  it("creates a draft from B's body with its filters normalised, and answers trigger_type null for a B-only trigger", async () => {
    // Act
    const response = await call<Answer>(url(), { method: 'POST', key: tenant.key, body: B_BODY });
    // Assess
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({
      status: 'draft',
      trigger: 'card_expired',
      trigger_type: null,
      filters: { amount_min: 1000, currency: ['usd'], customer_segment: ['repeat_failure'] },
      steps: [{ action: 'email', delay_hours: 0, template_id: 'tmpl_card_update_1', subject: 'Your card expired' }],
    });
    expect(JSON.parse(response.body.data.filters_json as string)).toEqual({ amount_min: 1000, currency: ['usd'], customer_segment: ['repeat_failure'] });
  });

  it("defaults B's trigger to payment_failed and takes A's optional fields", async () => {
    // Act
    const response = await call<Answer>(url(), {
      method: 'POST',
      key: tenant.key,
      body: {
        name: 'Night owls',
        steps: [{ action: 'sms', delay_hours: 2, template_id: 'tmpl_card_update_sms' }],
        delay_hours: 6,
        max_attempts: 10,
        stop_on_recovery: false,
        stop_on_card_update: false,
        start_hour: 22,
        end_hour: 6,
      },
    });
    // Assess
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({
      trigger: 'payment_failed',
      trigger_type: 'payment_failed',
      delay_hours: 6,
      max_attempts: 10,
      stop_on_recovery: false,
      stop_on_card_update: false,
      start_hour: 22,
      end_hour: 6,
    });
  });

  it.each([
    ['a missing name', 400, 'invalid_request', 'name', { steps: A_BODY.steps }],
    ['missing steps', 400, 'invalid_request', 'steps', { name: 'x' }],
    ['an empty name', 422, 'validation_error', 'name', { ...A_BODY, name: '' }],
    ['a name of 201 characters', 422, 'validation_error', 'name', { ...A_BODY, name: 'n'.repeat(201) }],
    ['no steps', 422, 'validation_error', 'steps', { ...A_BODY, steps: [] }],
    ['21 steps', 422, 'validation_error', 'steps', { ...A_BODY, steps: Array.from({ length: 21 }, () => ({ action: 'retry', delay_hours: 1 })) }],
    ['an unknown step action', 422, 'validation_error', 'steps.0.action', { ...A_BODY, steps: [{ action: 'call', delay_hours: 1 }] }],
    ['an email step without template', 400, 'invalid_request', 'steps.0.template_id', { ...A_BODY, steps: [{ action: 'email', delay_hours: 1 }] }],
    [
      'a malformed template id',
      422,
      'validation_error',
      'steps.0.template_id',
      { ...A_BODY, steps: [{ action: 'sms', delay_hours: 1, template_id: 'welcome' }] },
    ],
    ['a delay over 720 hours', 422, 'validation_error', 'steps.0.delay_hours', { ...A_BODY, steps: [{ action: 'retry', delay_hours: 721 }] }],
    ['an unknown trigger', 422, 'validation_error', 'trigger', { ...B_BODY, trigger: 'payday' }],
    ['an unknown trigger_type', 422, 'validation_error', 'trigger_type', { ...A_BODY, trigger_type: 'card_expired' }],
    ['trigger and trigger_type that disagree', 422, 'validation_error', 'trigger', { ...A_BODY, trigger: 'card_expiring' }],
    ['start_hour 24', 422, 'validation_error', 'start_hour', { ...A_BODY, start_hour: 24 }],
    ['end_hour -1', 422, 'validation_error', 'end_hour', { ...A_BODY, end_hour: -1 }],
    ['a fractional hour', 422, 'validation_error', 'start_hour', { ...A_BODY, start_hour: 9.5 }],
    ['max_attempts 11', 422, 'validation_error', 'max_attempts', { ...A_BODY, max_attempts: 11 }],
    ['filters_json that is not JSON', 422, 'validation_error', 'filters_json', { ...B_BODY, filters_json: '{currency:' }],
    ['filters_json that is not an object', 422, 'validation_error', 'filters_json', { ...B_BODY, filters_json: '"usd"' }],
    ['filters_json with an unknown field', 422, 'validation_error', 'filters_json', { ...B_BODY, filters_json: '{"country":"fr"}' }],
    ['filters_json with a bad psp', 422, 'validation_error', 'filters_json', { ...B_BODY, filters_json: '{"psp":["acme"]}' }],
    [
      'a template that does not exist',
      404,
      'resource_not_found',
      'steps.1.template_id',
      { ...A_BODY, steps: [A_BODY.steps[0], { action: 'email', delay_hours: 1, template_id: 'tmpl_never_saved' }] },
    ],
    [
      'an email template on an SMS step',
      422,
      'validation_error',
      'steps.0.template_id',
      { ...A_BODY, steps: [{ action: 'sms', delay_hours: 1, template_id: 'tmpl_soft_decline_1' }] },
    ],
  ] as const)('refuses %s with %i %s naming %s, and writes nothing', async (_name, status, code, param, body) => {
    // Prepare
    const before = await total();
    // Act
    const response = await call<Answer>(url(), { method: 'POST', key: tenant.key, body });
    // Assess
    expect({ status: response.status, code: response.body.error?.code, param: response.body.error?.param }).toEqual({ status, code, param });
    expect(await total()).toBe(before);
  });

  it('names the unknown filter field in the message', async () => {
    // Act
    const response = await call<Answer>(url(), { method: 'POST', key: tenant.key, body: { ...B_BODY, filters_json: '{"country":"fr"}' } });
    // Assess
    expect(response.body.error?.message).toContain('country');
  });
});
