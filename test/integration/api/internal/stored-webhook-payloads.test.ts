/**
 * GET /api/v1/internal/webhook/{webhook_log_id} and DELETE /api/v1/internal/webhook-cleanup/{id}
 * over HTTP and DynamoDB Local: a delivery stored by the real intake (a signed Stripe event) is
 * found by its id alone, with its metadata and without its signature; the cleanup deletes it and
 * its links, and a second call deletes nothing (200, `deleted: false`). The cron secret is the only
 * credential (no scopes, no merchant): missing or wrong is 401 with nothing read or deleted.
 */
import { CRON_SECRET, cronAuth } from '#test/fixtures/cron-secret';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { deleteStoredWebhookPayloadsSchemas, getStoredWebhookPayloadSchemas } from '#api/internal/schemas';
import { timeOrderedId } from '#core/ids';
import { documentClient } from '#data/client';
import { setProviderSecret } from '#data/provider-secret-repository';
import { fileWebhookLogUnderCustomers, getWebhookLog, putWebhookLog, webhookLogBodyOf } from '#data/webhook-log-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { originOf, startTestStack } from '#test/fixtures/local-stack';
import { stripeFailedFor } from '#test/fixtures/provider-webhooks';
import { newTenant, UNLIMITED } from '#test/fixtures/tenants';

jest.setTimeout(60_000);

interface ErrorBody {
  error: { code: string; message: string; param?: string; request_id: string };
}
interface StoredBody extends Partial<ErrorBody> {
  data: {
    id: string;
    object: string;
    merchant_id: string;
    psp: string;
    route_variant: string;
    customer_id: string | null;
    received_at: string;
    expires_at: string;
    url: string;
    headers: Record<string, string>;
    body: string;
    body_encoding: string;
    size: number;
    payload: unknown;
  };
  meta: { merchant_id?: string; request_id: string };
}
interface CleanupBody extends Partial<ErrorBody> {
  data: { id: string; object: string; deleted: boolean; merchant_id: string | null; payloads_deleted: number; links_deleted: number };
}

const STRIPE_SECRET = 'whsec_internal_routes_test_secret';
const unknownId = (): string => `whk_${timeOrderedId()}`;

describe('internal stored webhook payloads', () => {
  let stack: LocalStack;
  const get = (id: string, headers: Record<string, string> = cronAuth()) =>
    call<StoredBody>(`${stack.api_url}/internal/webhook/${encodeURIComponent(id)}`, { headers });
  const cleanUp = (id: string, headers: Record<string, string> = cronAuth()) =>
    call<CleanupBody>(`${stack.api_url}/internal/webhook-cleanup/${encodeURIComponent(id)}`, { method: 'DELETE', headers });
  /** A Stripe failed-payment event through the real intake: its stored delivery's id. */
  const receiveStripeEvent = async (): Promise<{ id: string; merchantId: string; body: string }> => {
    const tenant = await newTenant(['admin'], UNLIMITED);
    await setProviderSecret(tenant.merchant.id, 'stripe', STRIPE_SECRET);
    const delivery = stripeFailedFor(STRIPE_SECRET);
    const response = await call<{ data: { id: string } }>(`${originOf(stack)}/stripe/${tenant.merchant.id}?token=not-for-display`, {
      method: 'POST',
      rawBody: delivery.body,
      headers: delivery.headers,
    });
    expect(response.status).toBe(200);
    return { id: response.body.data.id, merchantId: tenant.merchant.id, body: delivery.body };
  };
  const lookupOf = async (id: string) =>
    (await documentClient.send(new GetCommand({ TableName: process.env.TABLE_NAME as string, Key: { PK: `WHKID#${webhookLogBodyOf(id)}`, SK: 'WHKID' } })))
      .Item;

  beforeAll(async () => {
    stack = await startTestStack();
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  describe('GET /internal/webhook/{webhook_log_id}', () => {
    it('answers a delivery the intake stored, found by its id alone, with its metadata and no signature', async () => {
      // Prepare
      const stored = await receiveStripeEvent();
      // Act
      const response = await get(stored.id);
      // Assess
      expect(response.status).toBe(200);
      expect(getStoredWebhookPayloadSchemas.responses[200].safeParse(response.body).success).toBe(true);
      const data = response.body.data;
      expect(data).toMatchObject({
        id: stored.id,
        object: 'webhook_log',
        merchant_id: stored.merchantId,
        psp: 'stripe',
        route_variant: 'default',
        headers: { 'content-type': 'application/json' },
        body: stored.body,
        body_encoding: 'utf8',
        size: Buffer.byteLength(stored.body),
        payload: JSON.parse(stored.body),
      });
      expect(data.url).toMatch(new RegExp(`/stripe/${stored.merchantId}$`));
      expect(Date.parse(data.expires_at) - Date.parse(data.received_at)).toBe(30 * 24 * 3600 * 1000 - (Date.parse(data.received_at) % 1000));
      expect(response.text).not.toMatch(/stripe-signature|t=\d+,v1=|not-for-display/);
      expect(response.body.meta.merchant_id).toBe(stored.merchantId);
    });

    it('answers a body that is not UTF-8 as base64, and no payload', async () => {
      // Prepare
      const tenant = await newTenant();
      const log = await putWebhookLog({
        merchantId: tenant.merchant.id,
        psp: 'adyen',
        routeVariant: 'default',
        rawBody: Buffer.from([0xff, 0xfe, 0x00, 0x41]),
        contentType: null,
        url: 'https://hooks.example.com/adyen/m',
      });
      // Act
      const response = await get(log.id);
      // Assess
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ body: '//4AQQ==', body_encoding: 'base64', payload: null, headers: {}, size: 4, customer_id: null });
    });

    it.each([
      ['missing', {}],
      ['wrong', cronAuth(`${CRON_SECRET}-wrong`)],
      ['merchant API key as', { Authorization: 'Bearer rk_test_0000000000000000000000000000000000' }],
    ])('refuses a %s cron secret with 401 invalid_api_key', async (_case, headers) => {
      // Prepare
      const stored = await receiveStripeEvent();
      // Act
      const response = await get(stored.id, headers);
      // Assess
      expect(response.status).toBe(401);
      expect(response.body.error?.code).toBe('invalid_api_key');
      expect(response.text).not.toContain(stored.body.slice(0, 40));
    });

    it.each([
      ['an unknown id', unknownId()],
      ['a payment id', `pe_${timeOrderedId()}`],
      ['a body in lower case', `whk_${timeOrderedId().toLowerCase()}`],
      ['a 10 KB id', `whk_${'A'.repeat(10_240)}`],
      ['a path climbing out', '../../payments'],
      ['__proto__', '__proto__'],
    ])('answers 404 resource_not_found with the envelope for %s', async (_case, id) => {
      // Act
      const response = await get(id);
      // Assess
      expect(response.status).toBe(404);
      expect(response.body.error).toMatchObject({ code: 'resource_not_found', param: 'webhook_log_id' });
      expect(response.body.error?.request_id).toBe(response.headers.get('x-request-id'));
    });
  });

  describe('DELETE /internal/webhook-cleanup/{id}', () => {
    it('deletes the delivery and its links to further customers, then a second call deletes nothing (200, deleted false)', async () => {
      // Prepare
      const tenant = await newTenant();
      const log = await putWebhookLog({
        merchantId: tenant.merchant.id,
        psp: 'adyen',
        routeVariant: 'default',
        rawBody: Buffer.from('{"live":"false","notificationItems":[]}'),
        contentType: 'application/json',
        url: 'https://hooks.example.com/adyen/m',
      });
      await fileWebhookLogUnderCustomers(tenant.merchant.id, log, ['cust_first', 'cust_second', 'cust_third']);
      // Act
      const first = await cleanUp(log.id);
      const second = await cleanUp(log.id);
      // Assess
      expect(first.status).toBe(200);
      expect(deleteStoredWebhookPayloadsSchemas.responses[200].safeParse(first.body).success).toBe(true);
      expect(first.body.data).toEqual({
        id: log.id,
        object: 'webhook_log_cleanup',
        deleted: true,
        merchant_id: tenant.merchant.id,
        payloads_deleted: 1,
        links_deleted: 2,
      });
      expect(await getWebhookLog(tenant.merchant.id, log.id)).toBeUndefined();
      expect(await lookupOf(log.id)).toBeUndefined();
      expect((await get(log.id)).status).toBe(404);
      expect(second.status).toBe(200);
      expect(second.body.data).toEqual({ id: log.id, object: 'webhook_log_cleanup', deleted: false, merchant_id: null, payloads_deleted: 0, links_deleted: 0 });
    });

    it('deletes a delivery stored by the intake, leaving the other deliveries of the merchant', async () => {
      // Prepare
      const stored = await receiveStripeEvent();
      const other = await putWebhookLog({
        merchantId: stored.merchantId,
        psp: 'stripe',
        routeVariant: 'default',
        rawBody: Buffer.from('{}'),
        contentType: 'application/json',
        url: 'https://hooks.example.com/stripe/m',
      });
      // Act
      const response = await cleanUp(stored.id);
      // Assess
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ deleted: true, merchant_id: stored.merchantId, payloads_deleted: 1 });
      expect(await getWebhookLog(stored.merchantId, stored.id)).toBeUndefined();
      expect(await getWebhookLog(stored.merchantId, other.id)).toBeDefined();
      expect((await get(other.id)).status).toBe(200);
    });

    it('answers an unknown well-formed id with 200 and deleted false', async () => {
      // Act
      const response = await cleanUp(unknownId());
      // Assess
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ deleted: false, payloads_deleted: 0, links_deleted: 0, merchant_id: null });
    });

    it.each([
      ['missing', {}],
      ['wrong', cronAuth('x'.repeat(40))],
    ])('refuses a %s cron secret with 401 and deletes nothing', async (_case, headers) => {
      // Prepare
      const stored = await receiveStripeEvent();
      // Act
      const response = await cleanUp(stored.id, headers);
      // Assess
      expect(response.status).toBe(401);
      expect(response.body.error?.code).toBe('invalid_api_key');
      expect(await getWebhookLog(stored.merchantId, stored.id)).toBeDefined();
    });

    it.each([
      ['a customer id', 'cust_01JABCDEFGHJKMNPQRSTVWXYZ0'],
      ['a 10 KB id', `whk_${'B'.repeat(10_240)}`],
      ['a path climbing out', '../../exports'],
      ['__proto__', '__proto__'],
    ])('answers 404 resource_not_found with the envelope for %s', async (_case, id) => {
      // Act
      const response = await cleanUp(id);
      // Assess
      expect(response.status).toBe(404);
      expect(response.body.error).toMatchObject({ code: 'resource_not_found', param: 'id' });
    });
  });
});
