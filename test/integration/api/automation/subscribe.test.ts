/**
 * POST and DELETE /api/v1/automation/subscribe over HTTP: REST-hook subscriptions stored under the
 * catalogue's canonical name (found by the dispatcher's one Query), idempotent subscribe, unknown
 * event types and targets failing the SSRF rules refused with 422 and `param`, unsubscribe by id or
 * by target and type, and another merchant's subscription answered 404.
 */
import { listSubscriptionsForEvent, listSubscriptionsOfType, MAX_AUTOMATION_SUBSCRIPTIONS, subscribe as storeSubscription } from '#data/automation-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { newTenant, type Tenant } from '#test/fixtures/tenants';

interface Subscription {
  id: string;
  target_url: string;
  event_type: string;
  created_at: string;
  deleted?: boolean;
}
interface Body {
  data: Subscription;
  meta: { merchant_id?: string };
  error?: { code: string; param?: string };
}

/** A literal public address: no DNS needed, and nothing listens there (subscribing sends nothing). */
const TARGET = 'https://93.184.215.14/hooks/catch/123/abc';

describe('/api/v1/automation/subscribe', () => {
  let stack: LocalStack;

  const url = (): string => `${stack.api_url}/automation/subscribe`;
  const subscribe = (tenant: Tenant, body: unknown) => call<Body>(url(), { method: 'POST', key: tenant.key, body });
  const unsubscribe = (tenant: Tenant, body: unknown) => call<Body>(url(), { method: 'DELETE', key: tenant.key, body });

  beforeAll(async () => {
    stack = await startTestStack();
  });

  afterAll(async () => {
    await stack.stop();
  });

  it("subscribes a target under the type's canonical name (201), once: the other name again answers the same subscription (200)", async () => {
    // Prepare
    const tenant = await newTenant(['write']);
    // Act
    const first = await subscribe(tenant, { target_url: TARGET, event_type: 'payment.recovered' });
    const again = await subscribe(tenant, { target_url: TARGET, event_type: 'recovery.succeeded' });
    const stored = await listSubscriptionsOfType(tenant.merchant.id, 'recovery.succeeded');
    // Assess
    expect(first.status).toBe(201);
    expect(first.body.data).toEqual({
      id: expect.stringMatching(/^hook_[0-9A-Z]{26}$/),
      target_url: TARGET,
      event_type: 'recovery.succeeded',
      created_at: expect.any(String),
    });
    expect(first.body.meta.merchant_id).toBe(tenant.merchant.id);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    expect(stored.map((s) => [s.id, s.target_url, s.event_type])).toEqual([[first.body.data.id, TARGET, 'recovery.succeeded']]);
  });

  it('keeps subscriptions of one type apart from other types and other targets (the dispatcher Query)', async () => {
    // Prepare
    const tenant = await newTenant(['write']);
    const other = `${TARGET}/other`;
    // Act
    const a = await subscribe(tenant, { target_url: TARGET, event_type: 'recovery.retry_attempted' });
    const b = await subscribe(tenant, { target_url: other, event_type: 'recovery.retry_attempted' });
    const c = await subscribe(tenant, { target_url: TARGET, event_type: 'recovery.failed' });
    // Assess
    expect([a.status, b.status, c.status]).toEqual([201, 201, 201]);
    expect((await listSubscriptionsOfType(tenant.merchant.id, 'recovery.retry_attempted')).map((s) => s.id).sort()).toEqual(
      [a.body.data.id, b.body.data.id].sort(),
    );
    expect((await listSubscriptionsOfType(tenant.merchant.id, 'recovery.failed')).map((s) => s.id)).toEqual([c.body.data.id]);
  });

  it("gives the dispatcher an event's subscriptions with one Query, whichever name each was made with", async () => {
    // Prepare
    const tenant = await newTenant(['write']);
    const byB = (await subscribe(tenant, { target_url: TARGET, event_type: 'payment.terminal' })).body.data;
    const byA = (await subscribe(tenant, { target_url: `${TARGET}/a`, event_type: 'recovery.failed' })).body.data;
    await subscribe(tenant, { target_url: TARGET, event_type: 'recovery.retry_attempted' });
    // Act
    const found = await listSubscriptionsForEvent(tenant.merchant.id, ['payment.terminal', 'recovery.failed']);
    const uncatalogued = await listSubscriptionsForEvent(tenant.merchant.id, ['payment.exploded']);
    // Assess
    expect(found.map((s) => s.id).sort()).toEqual([byA.id, byB.id].sort());
    expect(uncatalogued).toEqual([]);
  });

  it('stores the target URL normalised, and unsubscribes by it in any spelling of the same URL', async () => {
    // Prepare
    const tenant = await newTenant(['write']);
    const created = (await subscribe(tenant, { target_url: 'HTTPS://93.184.215.14:443/hooks/Z', event_type: 'dunning.sent' })).body.data;
    // Act
    const removed = await unsubscribe(tenant, { target_url: 'https://93.184.215.14/hooks/Z', event_type: 'dunning.sent' });
    // Assess
    expect(created.target_url).toBe('https://93.184.215.14/hooks/Z');
    expect([removed.status, removed.body.data?.id]).toEqual([200, created.id]);
  });

  it(`holds a merchant to ${MAX_AUTOMATION_SUBSCRIPTIONS} subscriptions: 422 past it, the same one again still 200, room again after an unsubscribe`, async () => {
    // Prepare
    const tenant = await newTenant(['write']);
    const targets = Array.from({ length: MAX_AUTOMATION_SUBSCRIPTIONS }, (_, i) => `${TARGET}/${i}`);
    for (const target of targets) await storeSubscription(tenant.merchant.id, 'recovery.retry_scheduled', target);
    // Act
    const over = await subscribe(tenant, { target_url: `${TARGET}/over`, event_type: 'recovery.retry_scheduled' });
    const same = await subscribe(tenant, { target_url: targets[0], event_type: 'recovery.retry_scheduled' });
    const freed = await unsubscribe(tenant, { target_url: targets[1], event_type: 'recovery.retry_scheduled' });
    const after = await subscribe(tenant, { target_url: `${TARGET}/over`, event_type: 'recovery.retry_scheduled' });
    // Assess
    expect([over.status, over.body.error?.param]).toEqual([422, 'target_url']);
    expect(same.status).toBe(200);
    expect(freed.status).toBe(200);
    expect(after.status).toBe(201);
    expect(await listSubscriptionsOfType(tenant.merchant.id, 'recovery.retry_scheduled')).toHaveLength(MAX_AUTOMATION_SUBSCRIPTIONS);
    // 100 sequential transactions to fill the quota: over jest's default 5 s on a busy machine.
  }, 60_000);

  it('refuses an unknown event type with 422 param event_type, and stores nothing', async () => {
    // Prepare
    const tenant = await newTenant(['write']);
    // Act
    const response = await subscribe(tenant, { target_url: TARGET, event_type: 'payment.exploded' });
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: 'validation_error', param: 'event_type' });
    expect(await listSubscriptionsOfType(tenant.merchant.id, 'payment.exploded')).toEqual([]);
  });

  describe('as on AWS (WEBHOOK_ALLOW_LOOPBACK unset)', () => {
    let saved: string | undefined;
    beforeAll(() => {
      saved = process.env.WEBHOOK_ALLOW_LOOPBACK;
      delete process.env.WEBHOOK_ALLOW_LOOPBACK;
    });
    afterAll(() => {
      if (saved === undefined) delete process.env.WEBHOOK_ALLOW_LOOPBACK;
      else process.env.WEBHOOK_ALLOW_LOOPBACK = saved;
    });

    it.each([
      ['loopback', 'https://127.0.0.1/hook'],
      ['loopback by name', 'https://localhost/hook'],
      ['IPv6 loopback', 'https://[::1]/hook'],
      ['private', 'https://10.0.0.7/hook'],
      ['private 192.168', 'https://192.168.1.20/hook'],
      ['link-local metadata', 'https://169.254.169.254/latest/meta-data'],
      ['CGNAT', 'https://100.64.0.1/hook'],
      ['IPv4-mapped private IPv6', 'https://[::ffff:10.0.0.1]/hook'],
      ['plain http', 'http://93.184.215.14/hook'],
      ['credentials', 'https://user:pass@93.184.215.14/hook'],
      ['not a URL', 'hooks.example.com'],
    ])('refuses a %s target_url with 422 param target_url, and stores nothing', async (_kind, target) => {
      // Prepare
      const tenant = await newTenant(['write']);
      // Act
      const response = await subscribe(tenant, { target_url: target, event_type: 'recovery.failed' });
      // Assess
      expect(response.status).toBe(422);
      expect(response.body.error).toMatchObject({ code: 'validation_error', param: 'target_url' });
      expect(await listSubscriptionsOfType(tenant.merchant.id, 'recovery.failed')).toEqual([]);
    });
  });

  describe('on the local stack (WEBHOOK_ALLOW_LOOPBACK=true)', () => {
    let saved: string | undefined;
    beforeAll(() => {
      saved = process.env.WEBHOOK_ALLOW_LOOPBACK;
      process.env.WEBHOOK_ALLOW_LOOPBACK = 'true';
    });
    afterAll(() => {
      if (saved === undefined) delete process.env.WEBHOOK_ALLOW_LOOPBACK;
      else process.env.WEBHOOK_ALLOW_LOOPBACK = saved;
    });

    it("admits a developer's loopback receiver, over http:// too, and still refuses private addresses and http:// elsewhere", async () => {
      // Prepare
      const tenant = await newTenant(['write']);
      // Act
      const loopback = await subscribe(tenant, { target_url: 'http://127.0.0.1:4999/hook', event_type: 'recovery.failed' });
      const privateTarget = await subscribe(tenant, { target_url: 'https://10.0.0.7/hook', event_type: 'recovery.failed' });
      const plainPublic = await subscribe(tenant, { target_url: 'http://93.184.215.14/hook', event_type: 'recovery.failed' });
      // Assess
      expect(loopback.status).toBe(201);
      expect([privateTarget.status, privateTarget.body.error?.param]).toEqual([422, 'target_url']);
      expect([plainPublic.status, plainPublic.body.error?.param]).toEqual([422, 'target_url']);
      expect((await listSubscriptionsOfType(tenant.merchant.id, 'recovery.failed')).map((s) => s.target_url)).toEqual(['http://127.0.0.1:4999/hook']);
    });
  });

  it('answers 400 param target_url when target_url is missing', async () => {
    // Prepare
    const tenant = await newTenant(['write']);
    // Act
    const response = await subscribe(tenant, { event_type: 'recovery.failed' });
    // Assess
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'invalid_request', param: 'target_url' });
  });

  it('unsubscribes by id (200 with the removed subscription), then answers 404 for it', async () => {
    // Prepare
    const tenant = await newTenant(['write']);
    const created = (await subscribe(tenant, { target_url: TARGET, event_type: 'dunning.sent' })).body.data;
    // Act
    const removed = await unsubscribe(tenant, { id: created.id });
    const again = await unsubscribe(tenant, { id: created.id });
    // Assess
    expect(removed.status).toBe(200);
    expect(removed.body.data).toEqual({ ...created, deleted: true });
    expect(again.status).toBe(404);
    expect(again.body.error).toMatchObject({ code: 'resource_not_found', param: 'id' });
    expect(await listSubscriptionsOfType(tenant.merchant.id, 'dunning.sent')).toEqual([]);
  });

  it('unsubscribes by target_url and event_type in either name, and a new subscribe after it gets a new id', async () => {
    // Prepare
    const tenant = await newTenant(['write']);
    const created = (await subscribe(tenant, { target_url: TARGET, event_type: 'recovery.failed' })).body.data;
    // Act
    const removed = await unsubscribe(tenant, { target_url: TARGET, event_type: 'payment.terminal' });
    const renewed = await subscribe(tenant, { target_url: TARGET, event_type: 'recovery.failed' });
    // Assess
    expect(removed.status).toBe(200);
    expect(removed.body.data.id).toBe(created.id);
    expect(renewed.status).toBe(201);
    expect(renewed.body.data.id).not.toBe(created.id);
    expect((await listSubscriptionsOfType(tenant.merchant.id, 'recovery.failed')).map((s) => s.id)).toEqual([renewed.body.data.id]);
  });

  it("answers 404 for another merchant's subscription, by id or by target, and leaves it in place", async () => {
    // Prepare
    const owner = await newTenant(['write']);
    const stranger = await newTenant(['write']);
    const created = (await subscribe(owner, { target_url: TARGET, event_type: 'campaign.paused' })).body.data;
    // Act
    const byId = await unsubscribe(stranger, { id: created.id });
    const byTarget = await unsubscribe(stranger, { target_url: TARGET, event_type: 'campaign.paused' });
    // Assess
    expect([byId.status, byTarget.status]).toEqual([404, 404]);
    expect((await listSubscriptionsOfType(owner.merchant.id, 'campaign.paused')).map((s) => s.id)).toEqual([created.id]);
  });

  it('answers 400 when neither id nor both of target_url and event_type are given', async () => {
    // Prepare
    const tenant = await newTenant(['write']);
    // Act
    const empty = await unsubscribe(tenant, {});
    const half = await unsubscribe(tenant, { target_url: TARGET });
    // Assess
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatchObject({ code: 'invalid_request', param: 'id' });
    expect(half.status).toBe(400);
    expect(half.body.error).toMatchObject({ code: 'invalid_request', param: 'event_type' });
  });
});
