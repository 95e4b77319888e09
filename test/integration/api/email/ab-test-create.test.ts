import { createEmailAbTestSchemas, getEmailAbTestSchemas } from '#api/email/ab-test-schemas';
import { recordAbTestEvent } from '#data/ab-test-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { AB_VARIANTS, createCampaignWithEmail } from '#test/fixtures/ab-tests';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { keyWithScopes } from '#test/fixtures/recoveries';
import { expectOtherMerchantGets404, newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

interface Variant {
  arm: string;
  name: string;
  subject: string;
  template_id: string;
  assigned: number;
  sent: number;
  clicked: number;
  recovered: number;
  recovery_rate: number | null;
  click_rate: number | null;
}
interface AbTestBody {
  data: {
    id: string;
    campaign_id: string;
    status: string;
    traffic_split: number;
    metric: string;
    minimum_sample_per_arm: number;
    variants: Variant[];
    statistics: { reason: string; winner_arm: string | null; z_test: { p_value: number | null }; probability_b_beats_a: number };
    method: Record<string, unknown>;
    last_evaluation: unknown;
    winner: string | null;
  };
  meta: { merchant_id: string };
  error?: { code: string; param?: string };
}

const variants = AB_VARIANTS;

describe('POST /api/v1/email/ab-test and GET /api/v1/email/ab-test/{campaign_id}', () => {
  let stack: LocalStack;
  let tenant: Tenant;

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], UNLIMITED);
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const create = (body: unknown, key = tenant.key) => call<AbTestBody>(`${stack.api_url}/email/ab-test`, { method: 'POST', key, body });
  const read = (campaignId: string, key = tenant.key) => call<AbTestBody>(`${stack.api_url}/email/ab-test/${campaignId}`, { key });

  it('creates a running test with the defaults from the minimal body (campaign_id, variants): 201', async () => {
    // Prepare
    const campaignId = await createCampaignWithEmail(stack.api_url, tenant.key);
    // Act
    const response = await create({ campaign_id: campaignId, variants });
    // Assess
    expect(response.status).toBe(201);
    expect(() => createEmailAbTestSchemas.responses[201].parse(response.body)).not.toThrow();
    expect(response.body.data).toMatchObject({
      campaign_id: campaignId,
      status: 'running',
      traffic_split: 0.5,
      metric: 'recovery',
      minimum_sample_per_arm: 100,
      last_evaluation: null,
      winner: null,
    });
    expect(response.body.data.id).toMatch(/^abt_[0-9A-Z]{26}$/);
    expect(response.body.data.variants).toEqual([
      { arm: 'A', ...variants[0], assigned: 0, sent: 0, clicked: 0, recovered: 0, recovery_rate: null, click_rate: null },
      { arm: 'B', ...variants[1], assigned: 0, sent: 0, clicked: 0, recovered: 0, recovery_rate: null, click_rate: null },
    ]);
    expect(response.body.data.statistics).toMatchObject({
      reason: 'insufficient_sample',
      winner_arm: null,
      z_test: { p_value: null },
      probability_b_beats_a: expect.closeTo(0.5, 12),
    });
    expect(response.body.meta.merchant_id).toBe(tenant.merchant.id);
  });

  it('creates a test with every field (traffic_split, metric click, minimum_sample_per_arm) on an active campaign', async () => {
    // Prepare
    const campaignId = await createCampaignWithEmail(stack.api_url, tenant.key, { activate: true });
    // Act
    const response = await create({ campaign_id: campaignId, variants, traffic_split: 0.3, metric: 'click', minimum_sample_per_arm: 250 });
    // Assess
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({ traffic_split: 0.3, metric: 'click', minimum_sample_per_arm: 250, status: 'running' });
    expect(response.body.data.method).toMatchObject({
      metric: 'click',
      rate: 'clicked / sent',
      minimum_sample_per_arm: 250,
      alpha: 0.05,
      prior: 'Beta(1, 1) on each arm',
    });
  });

  it('reads the test back with per-variant counts, rates and the statistics computed on read', async () => {
    // Prepare
    const campaignId = await createCampaignWithEmail(stack.api_url, tenant.key, { activate: true });
    const created = await create({ campaign_id: campaignId, variants });
    const testId = created.body.data.id;
    for (const event of ['assigned', 'assigned', 'assigned', 'assigned', 'sent', 'sent', 'clicked', 'recovered'] as const) {
      await recordAbTestEvent(tenant.merchant.id, campaignId, 'A', event, testId);
    }
    await recordAbTestEvent(tenant.merchant.id, campaignId, 'B', 'assigned', testId);
    // Act
    const response = await read(campaignId);
    // Assess
    expect(response.status).toBe(200);
    expect(() => getEmailAbTestSchemas.responses[200].parse(response.body)).not.toThrow();
    expect(response.body.data.id).toBe(testId);
    expect(
      response.body.data.variants.map(({ arm, assigned, sent, clicked, recovered, recovery_rate, click_rate }) => ({
        arm,
        assigned,
        sent,
        clicked,
        recovered,
        recovery_rate,
        click_rate,
      })),
    ).toEqual([
      { arm: 'A', assigned: 4, sent: 2, clicked: 1, recovered: 1, recovery_rate: 0.25, click_rate: 0.5 },
      { arm: 'B', assigned: 1, sent: 0, clicked: 0, recovered: 0, recovery_rate: 0, click_rate: null },
    ]);
    expect(response.body.data.statistics.reason).toBe('insufficient_sample');
  });

  it('drops an engine event for another test id or a campaign without a test', async () => {
    // Prepare
    const campaignId = await createCampaignWithEmail(stack.api_url, tenant.key);
    const bare = await createCampaignWithEmail(stack.api_url, tenant.key);
    await create({ campaign_id: campaignId, variants });
    // Act
    const stale = await recordAbTestEvent(tenant.merchant.id, campaignId, 'A', 'assigned', 'abt_01J00000000000000000000000');
    const none = await recordAbTestEvent(tenant.merchant.id, bare, 'A', 'assigned');
    // Assess
    expect({ stale, none }).toEqual({ stale: false, none: false });
    expect((await read(campaignId)).body.data.variants[0]?.assigned).toBe(0);
    expect((await read(bare)).status).toBe(404);
  });

  it('refuses a second running test on one campaign with 409 and keeps the first', async () => {
    // Prepare
    const campaignId = await createCampaignWithEmail(stack.api_url, tenant.key);
    const first = await create({ campaign_id: campaignId, variants });
    // Act
    const second = await create({ campaign_id: campaignId, variants: [variants[1], variants[0]], traffic_split: 0.2 });
    // Assess
    expect(second.status).toBe(409);
    expect(second.body.error?.code).toBe('state_conflict');
    expect((await read(campaignId)).body.data).toMatchObject({ id: first.body.data.id, traffic_split: 0.5 });
  });

  it("answers 404 naming campaign_id for another merchant's campaign, and writes nothing", async () => {
    // Prepare
    const campaignId = await createCampaignWithEmail(stack.api_url, tenant.key);
    const stranger = await newTenant(['admin'], UNLIMITED);
    // Act
    const response = await create({ campaign_id: campaignId, variants }, stranger.key);
    // Assess
    expect(response.status).toBe(404);
    expect(response.body.error).toMatchObject({ code: 'resource_not_found', param: 'campaign_id' });
    expect((await read(campaignId)).status).toBe(404);
    expect((await read(campaignId, stranger.key)).status).toBe(404);
  });

  it.each(['camp_01J00000000000000000000000', 'camp_unknown', 'pe_01J00000000000000000000000'])(
    'answers 404 naming campaign_id for the unknown campaign %s',
    async (campaignId) => {
      // Act
      const response = await create({ campaign_id: campaignId, variants });
      // Assess
      expect(response.status).toBe(404);
      expect(response.body.error).toMatchObject({ code: 'resource_not_found', param: 'campaign_id' });
    },
  );

  it('refuses an archived campaign with 409 and writes nothing', async () => {
    // Prepare
    const campaignId = await createCampaignWithEmail(stack.api_url, tenant.key);
    await call(`${stack.api_url}/campaigns/${campaignId}/archive`, { method: 'POST', key: tenant.key });
    // Act
    const response = await create({ campaign_id: campaignId, variants });
    // Assess
    expect(response.status).toBe(409);
    expect(response.body.error?.code).toBe('state_conflict');
    expect((await read(campaignId)).status).toBe(404);
  });

  it('refuses a campaign without an email step with 422 naming campaign_id', async () => {
    // Prepare
    const campaignId = await createCampaignWithEmail(stack.api_url, tenant.key, { emailSteps: false });
    // Act
    const response = await create({ campaign_id: campaignId, variants });
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: 'validation_error', param: 'campaign_id' });
    expect((await read(campaignId)).status).toBe(404);
  });

  it.each([
    ['one variant', 'variants', { variants: [variants[0]] }],
    ['three variants', 'variants', { variants: [...variants, { ...variants[0], name: 'Third' }] }],
    ['two variants of one name (any case)', 'variants.1.name', { variants: [variants[0], { ...variants[1], name: 'CONTROL' }] }],
    ['an empty name', 'variants.0.name', { variants: [{ ...variants[0], name: ' ' }, variants[1]] }],
    ['a name over 100 characters', 'variants.1.name', { variants: [variants[0], { ...variants[1], name: 'n'.repeat(101) }] }],
    ['a subject over 200 characters', 'variants.0.subject', { variants: [{ ...variants[0], subject: 's'.repeat(201) }, variants[1]] }],
    ['a subject of two lines', 'variants.1.subject', { variants: [variants[0], { ...variants[1], subject: 'one\ntwo' }] }],
    ['a template id that is not tmpl_', 'variants.1.template_id', { variants: [variants[0], { ...variants[1], template_id: 'welcome' }] }],
    ['an SMS template', 'variants.0.template_id', { variants: [{ ...variants[0], template_id: 'tmpl_card_update_sms' }, variants[1]] }],
    ['a traffic_split below 0.05', 'traffic_split', { variants, traffic_split: 0.01 }],
    ['a traffic_split above 0.95', 'traffic_split', { variants, traffic_split: 0.99 }],
    ['an unknown metric', 'metric', { variants, metric: 'opens' }],
    ['a minimum sample below 30', 'minimum_sample_per_arm', { variants, minimum_sample_per_arm: 10 }],
  ])('refuses %s with 422 naming %s, and writes nothing', async (_case, param, fields) => {
    // Prepare
    const campaignId = await createCampaignWithEmail(stack.api_url, tenant.key);
    // Act
    const response = await create({ campaign_id: campaignId, ...fields });
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: 'validation_error', param });
    expect((await read(campaignId)).status).toBe(404);
  });

  it('refuses a variant naming a template the merchant does not have with 404 naming it, and writes nothing', async () => {
    // Prepare
    const campaignId = await createCampaignWithEmail(stack.api_url, tenant.key);
    // Act
    const response = await create({ campaign_id: campaignId, variants: [variants[0], { ...variants[1], template_id: 'tmpl_never_saved' }] });
    // Assess
    expect(response.status).toBe(404);
    expect(response.body.error).toMatchObject({ code: 'resource_not_found', param: 'variants.1.template_id' });
    expect((await read(campaignId)).status).toBe(404);
  });

  it.each([
    ['campaign_id', { variants }],
    ['variants', {}],
  ])('refuses a body without %s with 400 naming it', async (param, fields) => {
    // Prepare
    const campaignId = await createCampaignWithEmail(stack.api_url, tenant.key);
    // Act
    const response = await create(param === 'campaign_id' ? fields : { campaign_id: campaignId, ...fields });
    // Assess
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'invalid_request', param });
  });

  it('answers GET with 404 naming campaign_id when the campaign has no test', async () => {
    // Prepare
    const campaignId = await createCampaignWithEmail(stack.api_url, tenant.key);
    // Act
    const response = await read(campaignId);
    // Assess
    expect(response.status).toBe(404);
    expect(response.body.error).toMatchObject({ code: 'resource_not_found', param: 'campaign_id' });
  });

  it("answers 404 when another merchant reads this merchant's test", async () => {
    // Prepare
    const campaignId = await createCampaignWithEmail(stack.api_url, tenant.key);
    await create({ campaign_id: campaignId, variants });
    // Act and assess
    await expectOtherMerchantGets404(`${stack.api_url}/email/ab-test/${campaignId}`);
  });

  it('refuses GET to a key without read, and POST to a key with read only, with 403', async () => {
    // Prepare
    const campaignId = await createCampaignWithEmail(stack.api_url, tenant.key);
    const webhooksOnly = await keyWithScopes(tenant.merchant.id, ['webhooks']);
    const readOnly = await keyWithScopes(tenant.merchant.id, ['read']);
    // Act
    const get = await read(campaignId, webhooksOnly);
    const post = await create({ campaign_id: campaignId, variants }, readOnly);
    // Assess
    expect([get.status, post.status]).toEqual([403, 403]);
    expect((await read(campaignId)).status).toBe(404);
  });
});
