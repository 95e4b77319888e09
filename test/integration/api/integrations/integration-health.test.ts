/**
 * GET /api/v1/integrations/health, /integrations/{id}/health and /integrations/{id}/errors over
 * real HTTP and DynamoDB Local: real signed Stripe deliveries through the provider-webhook intake
 * (test/fixtures/provider-webhooks.ts), a refused signature counted, an event dead-lettered by the
 * inbound-webhooks consumer counted, another merchant's deliveries never counted, unknown ids 404.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { IntegrationHealth } from '#api/integrations/schemas';
import { PSPS } from '#core/providers';
import { documentClient } from '#data/client';
import { markDeadLetteredEventsRedriven } from '#data/dead-letter-repository';
import { setProviderSecret } from '#data/provider-secret-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { originOf, startTestStack } from '#test/fixtures/local-stack';
import { type Delivery, type ProviderCase, providerCases, stripeFailedFor, stripePoisonEvent } from '#test/fixtures/provider-webhooks';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';
import { postUntilDeadLettered as deadLetterAfterPost } from '#test/fixtures/inbound-dead-letters';

interface Health {
  id: string;
  type: string;
  connected: boolean;
  status: string;
  last_event_received_at: string | null;
  events_24h: number;
  events_24h_complete: boolean;
  signature_failures_24h: number;
  dead_lettered_events: number;
  dead_lettered_pending: number;
  last_error: { type: string; code: string; at: string } | null;
}
interface ErrorEntry {
  type: string;
  code: string;
  at: string;
  hour?: string;
  count?: number;
  id?: string;
  webhook_log_id?: string;
  redriven_at?: string | null;
}
interface Body<T> {
  data: T;
  meta: { merchant_id?: string };
  error?: { code: string; param?: string };
}
interface Received {
  data: { received: true; id: string };
}

const SECRET = 'whsec_health_0000000000000000000000';
const stripeCase = providerCases.find((c) => c.psp === 'stripe') as ProviderCase;

describe('/api/v1/integrations/{id}/health and /errors', () => {
  let stack: LocalStack;

  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const post = (path: string, delivery: Delivery) =>
    call<Received>(`${originOf(stack)}${path}`, { method: 'POST', rawBody: delivery.body, headers: delivery.headers });
  const get = <T>(path: string, tenant: Tenant) => call<Body<T>>(`${stack.api_url}${path}`, { key: tenant.key });
  /** Posts through queues with an injected clock and delivers until the message is dead-lettered (as the intake's own tests do). */
  const postUntilDeadLettered = async (path: string, delivery: Delivery) => (await deadLetterAfterPost(stack, () => post(path, delivery))).response;
  /** A direct count of the merchant's items under a sort-key prefix (the stored deliveries, the dead letters). */
  const countItems = async (merchantId: string, prefix: string): Promise<number> =>
    (
      await documentClient.send(
        new QueryCommand({
          TableName: process.env.TABLE_NAME as string,
          KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
          ExpressionAttributeValues: { ':pk': `M#${merchantId}`, ':sk': prefix },
          Select: 'COUNT',
        }),
      )
    ).Count ?? 0;

  /** A merchant with a Stripe secret that received two signed events, one refused delivery and one event dead-lettered. */
  const seeded = async () => {
    const tenant = await newTenant(['read'], UNLIMITED);
    await setProviderSecret(tenant.merchant.id, 'stripe', SECRET);
    const path = `/stripe/${tenant.merchant.id}`;
    const first = await post(path, stripeFailedFor(SECRET));
    const later = await post(path, stripeCase.laterEvent?.('', SECRET) as Delivery);
    const replay = await post(path, stripeFailedFor(SECRET));
    const refused = await post(path, stripeFailedFor('whsec_not_the_merchants_secret_000000'));
    const poison = await postUntilDeadLettered(path, stripePoisonEvent(SECRET));
    expect([first.status, later.status, replay.status, refused.status, poison.status]).toEqual([200, 200, 200, 401, 200]);
    return { tenant, poisonId: poison.body.data.id };
  };

  it("reports a provider's events, signature failures, dead letters and last error from the intake's records", async () => {
    // Prepare
    const { tenant } = await seeded();
    // Another merchant's deliveries and failures, on the same provider, are never counted.
    const other = await newTenant(['read'], UNLIMITED);
    await setProviderSecret(other.merchant.id, 'stripe', SECRET);
    await post(`/stripe/${other.merchant.id}`, stripeFailedFor(SECRET));
    await post(`/stripe/${other.merchant.id}`, stripeFailedFor('whsec_wrong_for_the_other_one_00000'));
    await post(`/stripe/${other.merchant.id}`, stripeFailedFor('whsec_wrong_for_the_other_one_00000'));
    // Act
    const response = await get<Health>('/integrations/stripe/health', tenant);
    // Assess
    expect(response.status).toBe(200);
    expect(IntegrationHealth.safeParse(response.body.data).success).toBe(true);
    const stored = await countItems(tenant.merchant.id, 'WHK#');
    const deadLettered = await countItems(tenant.merchant.id, 'DEADLETTER#');
    expect({ stored, deadLettered }).toEqual({ stored: 3, deadLettered: 1 });
    expect(response.body.data).toEqual({
      id: 'stripe',
      type: 'psp',
      connected: true,
      status: 'degraded',
      last_event_received_at: expect.any(String),
      events_24h: stored,
      events_24h_complete: true,
      signature_failures_24h: 1,
      dead_lettered_events: deadLettered,
      dead_lettered_pending: deadLettered,
      last_error: { type: 'dead_lettered', code: expect.any(String), at: expect.any(String) },
    });
    expect(Date.now() - Date.parse(response.body.data.last_event_received_at as string)).toBeLessThan(120_000);
    const others = await get<Health>('/integrations/stripe/health', other);
    expect(others.body.data).toMatchObject({ events_24h: 1, signature_failures_24h: 2, dead_lettered_events: 0, dead_lettered_pending: 0, status: 'degraded' });
  });

  it('lists every provider and CRM, healthy, not connected or degraded', async () => {
    // Prepare
    const { tenant } = await seeded();
    // Act
    const response = await get<Health[]>('/integrations/health', tenant);
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data.map((health) => health.id)).toEqual([...PSPS, 'crm_a', 'crm_b']);
    const byId = new Map(response.body.data.map((health) => [health.id, health]));
    expect(byId.get('stripe')).toMatchObject({ connected: true, events_24h: 3, signature_failures_24h: 1, dead_lettered_events: 1 });
    expect(byId.get('paypal')).toEqual({
      id: 'paypal',
      type: 'psp',
      connected: false,
      status: 'not_connected',
      last_event_received_at: null,
      events_24h: 0,
      events_24h_complete: true,
      signature_failures_24h: 0,
      dead_lettered_events: 0,
      dead_lettered_pending: 0,
      last_error: null,
    });
    expect(byId.get('crm_a')).toMatchObject({ type: 'crm', connected: false, status: 'not_connected', events_24h: 0 });
  });

  it('answers healthy for a connected provider whose deliveries all succeeded', async () => {
    // Prepare
    const tenant = await newTenant(['read'], UNLIMITED);
    await setProviderSecret(tenant.merchant.id, 'stripe', SECRET);
    await post(`/stripe/${tenant.merchant.id}`, stripeFailedFor(SECRET));
    // Act
    const response = await get<Health>('/integrations/stripe/health', tenant);
    // Assess
    expect(response.body.data).toMatchObject({ connected: true, status: 'healthy', events_24h: 1, signature_failures_24h: 0, last_error: null });
  });

  it('lists the errors newest first: the dead-lettered event, then the hour of signature failures', async () => {
    // Prepare
    const hourBefore = new Date().toISOString().slice(0, 13);
    const { tenant, poisonId } = await seeded();
    // Act
    const response = await get<ErrorEntry[]>('/integrations/stripe/errors', tenant);
    const hourAfter = new Date().toISOString().slice(0, 13);
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([
      expect.objectContaining({ type: 'dead_lettered', webhook_log_id: poisonId, redriven_at: null, id: expect.stringMatching(/^dle_/) }),
      expect.objectContaining({ type: 'signature_failure', code: 'invalid_signature', count: 1 }),
    ]);
    expect([hourBefore, hourAfter]).toContain(response.body.data[1]?.hour);
    expect((await get<ErrorEntry[]>('/integrations/paypal/errors', tenant)).body.data).toEqual([]);
    expect((await get<ErrorEntry[]>('/integrations/crm_b/errors', tenant)).body.data).toEqual([]);
  });

  it('counts a refused delivery in an hourly counter that keeps nothing of the delivery', async () => {
    // Prepare
    const tenant = await newTenant(['read'], UNLIMITED);
    await setProviderSecret(tenant.merchant.id, 'stripe', SECRET);
    // Act
    const refused = await post(`/stripe/${tenant.merchant.id}`, stripeFailedFor('whsec_not_the_merchants_secret_000000'));
    // Assess
    expect(refused.status).toBe(401);
    const { Items = [] } = await documentClient.send(
      new QueryCommand({
        TableName: process.env.TABLE_NAME as string,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
        ExpressionAttributeValues: { ':pk': `M#${tenant.merchant.id}`, ':sk': 'SIGFAIL#' },
      }),
    );
    expect(Items).toHaveLength(1);
    expect(Object.keys(Items[0] ?? {}).sort()).toEqual(['PK', 'SK', 'count', 'entity', 'expires_at', 'hour', 'last_at', 'psp']);
    expect(Items[0]).toMatchObject({ count: 1, psp: 'stripe' });
    expect(Number(Items[0]?.expires_at) - Date.now() / 1000).toBeGreaterThan(47 * 3600);
    expect(await countItems(tenant.merchant.id, 'WHK#')).toBe(0);
  });

  it('stops counting a dead-lettered event as pending once an operator redrove it', async () => {
    // Prepare
    const tenant = await newTenant(['read'], UNLIMITED);
    await setProviderSecret(tenant.merchant.id, 'stripe', SECRET);
    const poison = await postUntilDeadLettered(`/stripe/${tenant.merchant.id}`, stripePoisonEvent(SECRET));
    const before = await get<Health>('/integrations/stripe/health', tenant);
    // Act
    await markDeadLetteredEventsRedriven({ merchant_id: tenant.merchant.id, webhook_log_id: poison.body.data.id }, 'succeeded');
    const after = await get<Health>('/integrations/stripe/health', tenant);
    // Assess
    expect(before.body.data).toMatchObject({ status: 'degraded', dead_lettered_events: 1, dead_lettered_pending: 1 });
    expect(after.body.data).toMatchObject({ status: 'healthy', dead_lettered_events: 1, dead_lettered_pending: 0 });
    const errors = await get<ErrorEntry[]>('/integrations/stripe/errors', tenant);
    expect(errors.body.data).toEqual([expect.objectContaining({ type: 'dead_lettered', redriven_at: expect.any(String), redrive_outcome: 'succeeded' })]);
  });

  it.each([['/integrations/shopify/health'], ['/integrations/crm_c/errors'], ['/integrations/STRIPE/health']])(
    'answers 404 with param id for an unknown integration (%s)',
    async (path) => {
      // Prepare
      const tenant = await newTenant(['read']);
      // Act
      const response = await get<unknown>(path, tenant);
      // Assess
      expect({ status: response.status, code: response.body.error?.code, param: response.body.error?.param }).toEqual({
        status: 404,
        code: 'resource_not_found',
        param: 'id',
      });
    },
  );

  it('needs an API key', async () => {
    // Act
    const response = await call(`${stack.api_url}/integrations/health`);
    // Assess
    expect(response.status).toBe(401);
  });
});
