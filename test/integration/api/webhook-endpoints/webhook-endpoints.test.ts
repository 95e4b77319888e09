/**
 * /api/v1/webhooks/endpoints over HTTP: create (secret shown once, stored sealed), list (cursor
 * paging), update (and secret rotation), delete, and a real signed test event to a receiver on
 * loopback that verifies it with the `standardwebhooks` package; bad input (422 with `param`),
 * scopes and another merchant's id (404).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { Webhook } from 'standardwebhooks';
import {
  createWebhookEndpointSchemas,
  listWebhookDeliveriesSchemas,
  listWebhookEndpointsSchemas,
  testWebhookEndpointSchemas,
} from '#api/webhook-endpoints/schemas';
import { createApiKey } from '#data/api-key-repository';
import { EVENT_TYPES } from '#core/webhooks/events';
import { documentClient } from '#data/client';
import { queries, webhookKeys } from '#data/keys';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startDnsServer, type TestDnsServer } from '#test/fixtures/dns-server';
import { startTestStack } from '#test/fixtures/local-stack';
import { expectOtherMerchantGets404, newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

interface Endpoint {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  created_at: string;
  updated_at: string;
  signing_secret?: string;
}
interface Body<T> {
  data: T;
  cursor?: { next: string | null };
  error?: { code: string; message: string; param?: string };
}

interface Received {
  headers: Record<string, string>;
  body: string;
}

/** A receiver on loopback answering `status`; it keeps every request. */
async function startReceiver(status = 200): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    req.on('end', () => {
      received.push({ headers: req.headers as Record<string, string>, body });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received };
}

const stop = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

describe('/api/v1/webhooks/endpoints', () => {
  let stack: LocalStack;
  const base = () => `${stack.api_url}/webhooks/endpoints`;
  const create = (tenant: Tenant, body: unknown) => call<Body<Endpoint>>(base(), { method: 'POST', key: tenant.key, body });

  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => {
    await stack.stop();
  });

  describe('POST', () => {
    it('answers 201 with a whsec_ secret shown once, subscribed to every event by default, stored sealed', async () => {
      // Prepare
      const tenant = await newTenant(['webhooks'], UNLIMITED);

      // Act
      const response = await create(tenant, { url: 'https://93.184.216.34/hooks', description: 'CRM bridge' });

      // Assess
      expect(response.status).toBe(201);
      expect(createWebhookEndpointSchemas.responses[201].safeParse(response.body).success).toBe(true);
      const endpoint = response.body.data;
      expect(endpoint).toEqual({
        id: expect.stringMatching(/^we_/),
        url: 'https://93.184.216.34/hooks',
        events: [...EVENT_TYPES],
        description: 'CRM bridge',
        enabled: true,
        disabled_reason: null,
        disabled_at: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
        signing_secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
      });
      const { Item } = await documentClient.send(
        new GetCommand({ TableName: process.env.TABLE_NAME, Key: webhookKeys.endpoint(tenant.merchant.id, endpoint.id.slice(3)) }),
      );
      expect(JSON.stringify(Item)).not.toContain((endpoint.signing_secret as string).slice(6));
      expect(String(Item?.secret_sealed)).toMatch(/^v1\.local\./);
      const listed = await call<Body<Endpoint[]>>(base(), { key: tenant.key });
      expect(listed.body.data.map((item) => item.signing_secret)).toEqual([undefined]);
    });

    it('keeps the events asked for, A or B names', async () => {
      const tenant = await newTenant(['admin'], UNLIMITED);
      const response = await create(tenant, { url: 'https://93.184.216.34/a', events: ['recovery.succeeded', 'payment.failed'] });
      expect(response.status).toBe(201);
      expect(response.body.data.events).toEqual(['recovery.succeeded', 'payment.failed']);
    });

    it.each([
      ['http:// to a public host', 'http://93.184.216.34/hooks', 'url'],
      ['credentials in the URL', 'https://user:secret@93.184.216.34/hooks', 'url'],
      ['a private address', 'https://10.1.2.3/hooks', 'url'],
      ['the metadata address', 'https://169.254.169.254/latest/meta-data/', 'url'],
      ['an IPv4-mapped private IPv6 address', 'https://[::ffff:192.168.0.10]/hooks', 'url'],
      ['a CGNAT address', 'https://100.64.0.9/hooks', 'url'],
      ['a unique-local IPv6 address', 'https://[fd00::5]/hooks', 'url'],
    ])('refuses %s with 422 param url', async (_label, url, param) => {
      // Prepare
      const tenant = await newTenant(['admin'], UNLIMITED);

      // Act
      const response = await create(tenant, { url });

      // Assess
      expect(response.status).toBe(422);
      expect(response.body.error).toMatchObject({ code: 'validation_error', param });
      expect((await call<Body<Endpoint[]>>(base(), { key: tenant.key })).body.data).toEqual([]);
    });

    it('refuses unknown or no event types with 422 param events, and a missing url with 400', async () => {
      const tenant = await newTenant(['admin'], UNLIMITED);
      const unknown = await create(tenant, { url: 'https://93.184.216.34/a', events: ['payment.recovered', 'payment.exploded'] });
      const empty = await create(tenant, { url: 'https://93.184.216.34/a', events: [] });
      const missing = await create(tenant, { events: ['payment.failed'] });
      expect([unknown.status, unknown.body.error?.param]).toEqual([422, 'events']);
      expect(unknown.body.error?.message).toContain('payment.exploded');
      expect([empty.status, empty.body.error?.param]).toEqual([422, 'events']);
      expect(missing.status).toBe(400);
    });

    it('allows 16 endpoints per merchant and answers 422 for the 17th; a delete frees a place', async () => {
      // Prepare
      const tenant = await newTenant(['admin'], UNLIMITED);
      const made: Endpoint[] = [];
      for (let i = 0; i < 16; i += 1) made.push((await create(tenant, { url: `https://93.184.216.34/hook-${i}` })).body.data);

      // Act
      const seventeenth = await create(tenant, { url: 'https://93.184.216.34/hook-16' });
      await call(`${base()}/${made[0]?.id}`, { method: 'DELETE', key: tenant.key });
      const again = await create(tenant, { url: 'https://93.184.216.34/hook-17' });

      // Assess
      expect(made.every((endpoint) => endpoint.id.startsWith('we_'))).toBe(true);
      expect(seventeenth.status).toBe(422);
      expect(seventeenth.body.error).toMatchObject({ code: 'validation_error', param: 'url', message: expect.stringContaining('16') });
      expect(again.status).toBe(201);
      const { Items } = await documentClient.send(
        new QueryCommand({ TableName: process.env.TABLE_NAME, ...queries.partitionPrefix(webhookKeys.endpointPrefix(tenant.merchant.id)) }),
      );
      expect(Items).toHaveLength(16);
    });

    it('needs the webhooks or admin scope', async () => {
      const reader = await newTenant(['read']);
      const response = await create(reader, { url: 'https://93.184.216.34/a' });
      expect(response.status).toBe(403);
    });
  });

  describe('GET', () => {
    it('lists the endpoints oldest first with cursor paging, and only the merchant own', async () => {
      // Prepare
      const tenant = await newTenant(['admin'], UNLIMITED);
      const other = await newTenant(['admin'], UNLIMITED);
      const ids: string[] = [];
      for (let i = 0; i < 3; i += 1) ids.push((await create(tenant, { url: `https://93.184.216.34/p${i}` })).body.data.id);
      await create(other, { url: 'https://93.184.216.34/other' });

      // Act
      const first = await call<Body<Endpoint[]>>(`${base()}?limit=2`, { key: tenant.key });
      const second = await call<Body<Endpoint[]>>(`${base()}?limit=2&cursor=${encodeURIComponent(first.body.cursor?.next as string)}`, { key: tenant.key });

      // Assess
      expect(first.status).toBe(200);
      expect(listWebhookEndpointsSchemas.responses[200].safeParse(first.body).success).toBe(true);
      expect([...first.body.data, ...second.body.data].map((endpoint) => endpoint.id)).toEqual(ids);
      expect(second.body.cursor?.next).toBeNull();
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=1000', 'limit'],
      ['limit=abc', 'limit'],
    ])('refuses %s with 422 validation_error naming the param', async (query, param) => {
      // Prepare
      const tenant = await newTenant(['admin'], UNLIMITED);

      // Act
      const response = await call<Body<Endpoint[]>>(`${base()}?${query}`, { key: tenant.key });

      // Assess
      expect(response.status).toBe(422);
      expect(response.body.error).toMatchObject({ code: 'validation_error', param });
    });

    it("refuses a tampered cursor, and a cursor of another merchant's listing, with 400 naming cursor", async () => {
      // Prepare
      const tenant = await newTenant(['admin'], UNLIMITED);
      const other = await newTenant(['admin'], UNLIMITED);
      for (const owner of [tenant, tenant, other, other]) await create(owner, { url: 'https://93.184.216.34/paged' });
      const mine = (await call<Body<Endpoint[]>>(`${base()}?limit=1`, { key: tenant.key })).body.cursor?.next as string;
      const theirs = (await call<Body<Endpoint[]>>(`${base()}?limit=1`, { key: other.key })).body.cursor?.next as string;
      // The start key rewritten to another merchant's partition, the signature kept.
      const [payload, signature] = mine.split('.') as [string, string];
      const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { k: Record<string, string> };
      decoded.k = { ...decoded.k, PK: webhookKeys.endpointPrefix(other.merchant.id).PK };
      const tampered = `${Buffer.from(JSON.stringify(decoded), 'utf8').toString('base64url')}.${signature}`;

      // Act
      const answers = await Promise.all(
        [tampered, theirs, 'not-a-cursor'].map((cursor) =>
          call<Body<Endpoint[]>>(`${base()}?limit=1&cursor=${encodeURIComponent(cursor)}`, { key: tenant.key }),
        ),
      );

      // Assess
      expect(mine).toEqual(expect.any(String));
      expect(theirs).toEqual(expect.any(String));
      expect(answers.map((answer) => [answer.status, answer.body.error?.code, answer.body.error?.param])).toEqual([
        [400, 'invalid_request', 'cursor'],
        [400, 'invalid_request', 'cursor'],
        [400, 'invalid_request', 'cursor'],
      ]);
    });

    it('is readable with the read scope', async () => {
      const reader = await newTenant(['read']);
      expect((await call(base(), { key: reader.key })).status).toBe(200);
    });
  });

  describe('PUT', () => {
    it('changes url, events, description and enabled; leaves what is not sent', async () => {
      // Prepare
      const tenant = await newTenant(['admin'], UNLIMITED);
      const made = (await create(tenant, { url: 'https://93.184.216.34/a', description: 'first' })).body.data;

      // Act
      const response = await call<Body<Endpoint>>(`${base()}/${made.id}`, {
        method: 'PUT',
        key: tenant.key,
        body: { url: 'https://93.184.216.35/b', events: ['payment.recovered'], enabled: false },
      });

      // Assess
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({
        id: made.id,
        url: 'https://93.184.216.35/b',
        events: ['payment.recovered'],
        description: 'first',
        enabled: false,
        disabled_reason: 'disabled through the API',
        disabled_at: expect.any(String),
      });
      expect(response.body.data.signing_secret).toBeUndefined();
      const listed = await call<Body<Endpoint[]>>(base(), { key: tenant.key });
      expect(listed.body.data[0]).toEqual({ ...response.body.data });
    });

    it('changes the description, and clears it with null', async () => {
      // Prepare
      const tenant = await newTenant(['admin'], UNLIMITED);
      const made = (await create(tenant, { url: 'https://93.184.216.34/a', description: 'first' })).body.data;

      // Act
      const changed = await call<Body<Endpoint>>(`${base()}/${made.id}`, { method: 'PUT', key: tenant.key, body: { description: 'billing sync' } });
      const cleared = await call<Body<Endpoint>>(`${base()}/${made.id}`, { method: 'PUT', key: tenant.key, body: { description: null } });
      const tooLong = await call<Body<Endpoint>>(`${base()}/${made.id}`, { method: 'PUT', key: tenant.key, body: { description: 'x'.repeat(501) } });

      // Assess
      expect(changed.status).toBe(200);
      expect(changed.body.data).toMatchObject({ id: made.id, url: made.url, events: made.events, description: 'billing sync', enabled: true });
      expect(cleared.status).toBe(200);
      expect(cleared.body.data.description).toBeNull();
      expect([tooLong.status, tooLong.body.error?.param]).toEqual([422, 'description']);
      expect((await call<Body<Endpoint[]>>(base(), { key: tenant.key })).body.data[0]?.description).toBeNull();
    });

    it.each([
      ['http:// to a public host', 'http://93.184.216.34/b'],
      ['credentials in the URL', 'https://user:secret@93.184.216.34/b'],
    ])('refuses %s with 422 param url, and changes nothing', async (_label, url) => {
      // Prepare
      const tenant = await newTenant(['admin'], UNLIMITED);
      const made = (await create(tenant, { url: 'https://93.184.216.34/a', description: 'kept' })).body.data;

      // Act
      const response = await call<Body<Endpoint>>(`${base()}/${made.id}`, { method: 'PUT', key: tenant.key, body: { url, description: 'changed' } });

      // Assess
      expect(response.status).toBe(422);
      expect(response.body.error).toMatchObject({ code: 'validation_error', param: 'url' });
      const [stored] = (await call<Body<Endpoint[]>>(base(), { key: tenant.key })).body.data;
      expect(stored).toMatchObject({ url: 'https://93.184.216.34/a', description: 'kept', updated_at: made.updated_at });
    });

    it('refuses a private URL or an unknown event with 422, and changes nothing', async () => {
      const tenant = await newTenant(['admin'], UNLIMITED);
      const made = (await create(tenant, { url: 'https://93.184.216.34/a' })).body.data;
      const badUrl = await call<Body<Endpoint>>(`${base()}/${made.id}`, { method: 'PUT', key: tenant.key, body: { url: 'https://192.168.1.1/x' } });
      const badEvent = await call<Body<Endpoint>>(`${base()}/${made.id}`, { method: 'PUT', key: tenant.key, body: { events: ['nope'] } });
      expect([badUrl.status, badUrl.body.error?.param]).toEqual([422, 'url']);
      expect([badEvent.status, badEvent.body.error?.param]).toEqual([422, 'events']);
      expect((await call<Body<Endpoint[]>>(base(), { key: tenant.key })).body.data[0]?.url).toBe('https://93.184.216.34/a');
    });

    it("answers 404 for another merchant's endpoint", async () => {
      const tenant = await newTenant(['admin'], UNLIMITED);
      const made = (await create(tenant, { url: 'https://93.184.216.34/a' })).body.data;
      await expectOtherMerchantGets404(`${base()}/${made.id}`, { method: 'PUT', body: { enabled: false } });
    });
  });

  describe('DELETE', () => {
    it('answers 204 and the endpoint is gone; again is 404', async () => {
      // Prepare
      const tenant = await newTenant(['admin'], UNLIMITED);
      const made = (await create(tenant, { url: 'https://93.184.216.34/a' })).body.data;

      // Act
      const deleted = await call(`${base()}/${made.id}`, { method: 'DELETE', key: tenant.key });
      const again = await call(`${base()}/${made.id}`, { method: 'DELETE', key: tenant.key });

      // Assess
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe('');
      expect(again.status).toBe(404);
      expect((await call<Body<Endpoint[]>>(base(), { key: tenant.key })).body.data).toEqual([]);
    });

    it("answers 404 for another merchant's endpoint and an id of no endpoint", async () => {
      const tenant = await newTenant(['admin'], UNLIMITED);
      const made = (await create(tenant, { url: 'https://93.184.216.34/a' })).body.data;
      await expectOtherMerchantGets404(`${base()}/${made.id}`, { method: 'DELETE' });
      expect((await call(`${base()}/we_nothing`, { method: 'DELETE', key: tenant.key })).status).toBe(404);
      expect((await call<Body<Endpoint[]>>(base(), { key: tenant.key })).body.data).toHaveLength(1);
    });
  });

  describe('POST /{id}/test', () => {
    it('sends a real signed test event that the receiver verifies with standardwebhooks, and logs the attempt', async () => {
      // Prepare
      const receiver = await startReceiver(200);
      const tenant = await newTenant(['webhooks'], UNLIMITED);
      const made = (await create(tenant, { url: receiver.url })).body.data;

      // Act
      const response = await call<Body<{ success: boolean; status_code: number; response_time_ms: number; endpoint_id: string; event_id: string }>>(
        `${base()}/${made.id}/test`,
        { method: 'POST', key: tenant.key },
      );
      await stop(receiver.server);

      // Assess
      expect(response.status).toBe(200);
      expect(testWebhookEndpointSchemas.responses[200].safeParse(response.body).success).toBe(true);
      expect(response.body.data).toMatchObject({ success: true, status_code: 200, endpoint_id: made.id, error: null });
      expect(response.body.data.response_time_ms).toBeGreaterThanOrEqual(0);
      expect(receiver.received).toHaveLength(1);
      const delivered = receiver.received[0] as Received;
      const verified = new Webhook(made.signing_secret as string).verify(delivered.body, delivered.headers) as Record<string, unknown>;
      expect(verified).toEqual({
        id: response.body.data.event_id,
        type: 'webhook.test',
        created_at: expect.any(String),
        merchant_id: tenant.merchant.id,
        data: { object: { endpoint_id: made.id, message: expect.any(String) } },
      });
      expect(delivered.headers['webhook-id']).toBe(response.body.data.event_id);
      const { Items } = await documentClient.send(
        new QueryCommand({ TableName: process.env.TABLE_NAME, ...queries.partitionPrefix(webhookKeys.deliveryPrefix(tenant.merchant.id)) }),
      );
      expect(Items).toHaveLength(1);
      expect(Items?.[0]).toMatchObject({
        endpoint_id: made.id,
        event_id: response.body.data.event_id,
        event_type: 'webhook.test',
        attempt: 1,
        status: 'delivered',
        status_code: 200,
      });
    });

    it('reports a receiver answering 500 as failed with its status, logged as failed', async () => {
      const receiver = await startReceiver(500);
      const tenant = await newTenant(['admin'], UNLIMITED);
      const made = (await create(tenant, { url: receiver.url })).body.data;
      const response = await call<Body<{ success: boolean; status_code: number | null }>>(`${base()}/${made.id}/test`, { method: 'POST', key: tenant.key });
      await stop(receiver.server);
      expect(response.body.data).toMatchObject({ success: false, status_code: 500 });
      const { Items } = await documentClient.send(
        new QueryCommand({ TableName: process.env.TABLE_NAME, ...queries.partitionPrefix(webhookKeys.deliveryPrefix(tenant.merchant.id)) }),
      );
      expect(Items?.map((item) => item.status)).toEqual(['failed']);
    });

    it('after a rotation signs with both secrets, so the old and the new one verify', async () => {
      // Prepare
      const receiver = await startReceiver(200);
      const tenant = await newTenant(['admin'], UNLIMITED);
      const made = (await create(tenant, { url: receiver.url })).body.data;
      const rotated = await call<Body<Endpoint>>(`${base()}/${made.id}`, { method: 'PUT', key: tenant.key, body: { rotate_secret: true } });

      // Act
      await call(`${base()}/${made.id}/test`, { method: 'POST', key: tenant.key });
      await stop(receiver.server);

      // Assess
      expect(rotated.body.data.signing_secret).toMatch(/^whsec_/);
      expect(rotated.body.data.signing_secret).not.toBe(made.signing_secret);
      const delivered = receiver.received[0] as Received;
      expect(delivered.headers['webhook-signature']?.split(' ')).toHaveLength(2);
      expect(() => new Webhook(made.signing_secret as string).verify(delivered.body, delivered.headers)).not.toThrow();
      expect(() => new Webhook(rotated.body.data.signing_secret as string).verify(delivered.body, delivered.headers)).not.toThrow();
    });

    it("answers 404 for another merchant's endpoint, sending nothing", async () => {
      const receiver = await startReceiver(200);
      const tenant = await newTenant(['admin'], UNLIMITED);
      const made = (await create(tenant, { url: receiver.url })).body.data;
      await expectOtherMerchantGets404(`${base()}/${made.id}/test`, { method: 'POST' });
      await stop(receiver.server);
      expect(receiver.received).toHaveLength(0);
    });

    it('needs the webhooks or admin scope', async () => {
      const tenant = await newTenant(['admin'], UNLIMITED);
      const made = (await create(tenant, { url: 'https://93.184.216.34/a' })).body.data;
      const { key } = await createApiKey({ merchantId: tenant.merchant.id, scopes: ['read'], mode: 'test' });
      const response = await call<Body<unknown>>(`${base()}/${made.id}/test`, { method: 'POST', key });
      expect([response.status, response.body.error?.code]).toEqual([403, 'insufficient_scope']);
    });
  });

  describe('GET /webhooks/events (delivery log)', () => {
    interface Delivery {
      id: string;
      event_id: string;
      event_type: string;
      endpoint_id: string;
      attempt: number;
      status: string;
      status_code: number | null;
      duration_ms: number;
      error: string | null;
      next_attempt_at: string | null;
      created_at: string;
    }
    const log = (tenant: Tenant, query = '') => call<Body<Delivery[]>>(`${stack.api_url}/webhooks/events${query}`, { key: tenant.key });

    it('lists every attempt newest first, filters by endpoint and status, and pages each filter with its own cursor', async () => {
      // Prepare
      const ok = await startReceiver(200);
      const failing = await startReceiver(500);
      const tenant = await newTenant(['webhooks'], UNLIMITED);
      const good = (await create(tenant, { url: ok.url })).body.data;
      const bad = (await create(tenant, { url: failing.url })).body.data;
      const sent: string[] = [];
      for (const endpoint of [good, bad, good]) {
        const response = await call<Body<{ event_id: string }>>(`${base()}/${endpoint.id}/test`, { method: 'POST', key: tenant.key });
        sent.push(response.body.data.event_id);
      }
      await stop(ok.server);
      await stop(failing.server);
      await newTenant(['admin']).then((other) => create(other, { url: 'https://93.184.216.34/x' }));

      // Act
      const all = await log(tenant);
      const ofGood = await log(tenant, `?endpoint_id=${good.id}`);
      const failed = await log(tenant, '?status=failed');
      const firstPage = await log(tenant, `?endpoint_id=${good.id}&limit=1`);
      const secondPage = await log(tenant, `?endpoint_id=${good.id}&limit=1&cursor=${encodeURIComponent(firstPage.body.cursor?.next as string)}`);
      const otherFilters = await log(tenant, `?status=failed&limit=1&cursor=${encodeURIComponent(firstPage.body.cursor?.next as string)}`);

      // Assess
      expect(all.status).toBe(200);
      expect(listWebhookDeliveriesSchemas.responses[200].safeParse(all.body).success).toBe(true);
      const { Items } = await documentClient.send(
        new QueryCommand({ TableName: process.env.TABLE_NAME, ...queries.partitionPrefix(webhookKeys.deliveryPrefix(tenant.merchant.id)) }),
      );
      expect(all.body.data).toHaveLength(Items?.length ?? -1);
      expect(all.body.data.map((row) => row.event_id)).toEqual([...sent].reverse());
      expect(all.body.data.map((row) => [row.endpoint_id, row.status, row.status_code, row.attempt])).toEqual([
        [good.id, 'delivered', 200, 1],
        [bad.id, 'failed', 500, 1],
        [good.id, 'delivered', 200, 1],
      ]);
      expect(ofGood.body.data.map((row) => row.event_id)).toEqual([sent[2], sent[0]]);
      expect(failed.body.data.map((row) => row.event_id)).toEqual([sent[1]]);
      expect([...firstPage.body.data, ...secondPage.body.data].map((row) => row.event_id)).toEqual([sent[2], sent[0]]);
      expect([otherFilters.status, otherFilters.body.error?.param]).toEqual([400, 'cursor']);
    });

    it("shows nothing of another merchant's log, reads with the read scope, and refuses an unknown status", async () => {
      const receiver = await startReceiver(200);
      const tenant = await newTenant(['admin'], UNLIMITED);
      const made = (await create(tenant, { url: receiver.url })).body.data;
      await call(`${base()}/${made.id}/test`, { method: 'POST', key: tenant.key });
      await stop(receiver.server);
      const reader = await newTenant(['read']);
      expect((await log(reader)).body.data).toEqual([]);
      expect((await log(reader, `?endpoint_id=${made.id}`)).body.data).toEqual([]);
      expect((await log(tenant, '?status=lost')).status).toBe(400);
    });
  });

  describe('host names (resolved through a DNS server on loopback)', () => {
    let dns: TestDnsServer;
    beforeAll(async () => {
      dns = await startDnsServer();
      process.env.WEBHOOK_DNS_SERVERS = dns.address;
    });
    afterAll(async () => {
      delete process.env.WEBHOOK_DNS_SERVERS;
      await dns.close();
    });

    it('refuses at save a name that resolves to a private or metadata address, and one that does not resolve', async () => {
      // Prepare
      const tenant = await newTenant(['admin'], UNLIMITED);
      dns.set('internal.example.test', ['10.20.30.40']);
      dns.set('metadata.example.test', ['169.254.169.254']);
      dns.set('mixed.example.test', ['93.184.216.34', '::ffff:192.168.0.1']);

      // Act
      const answers = await Promise.all(
        ['internal', 'metadata', 'mixed', 'unknown'].map((name) => create(tenant, { url: `https://${name}.example.test/hooks` })),
      );

      // Assess
      expect(answers.map((answer) => [answer.status, answer.body.error?.param])).toEqual([
        [422, 'url'],
        [422, 'url'],
        [422, 'url'],
        [422, 'url'],
      ]);
    });

    it('saves a name that resolves public, and refuses to send once it resolves private (DNS rebinding), logging the failure', async () => {
      // Prepare
      const tenant = await newTenant(['admin'], UNLIMITED);
      dns.set('rebind.example.test', ['93.184.216.34']);
      const saved = await create(tenant, { url: 'https://rebind.example.test/hooks' });
      dns.set('rebind.example.test', ['10.0.0.5']);

      // Act
      const tested = await call<Body<{ success: boolean; status_code: number | null; error: string | null }>>(`${base()}/${saved.body.data.id}/test`, {
        method: 'POST',
        key: tenant.key,
      });

      // Assess
      expect(saved.status).toBe(201);
      expect(tested.status).toBe(200);
      expect(tested.body.data).toMatchObject({ success: false, status_code: null, error: expect.stringContaining('public') });
      const { Items } = await documentClient.send(
        new QueryCommand({ TableName: process.env.TABLE_NAME, ...queries.partitionPrefix(webhookKeys.deliveryPrefix(tenant.merchant.id)) }),
      );
      expect(Items?.map((item) => [item.status, item.status_code])).toEqual([['failed', null]]);
    });
  });
});
