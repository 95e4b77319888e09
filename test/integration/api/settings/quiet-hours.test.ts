/**
 * GET and POST /api/v1/settings/quiet-hours over HTTP: the default before any are set, storing and
 * replacing them, 400 for a missing field and 422 for a bad value (with `param`), scopes, tenant
 * isolation and Idempotency-Key replays.
 */
import { QuietHoursResponse } from '#api/settings/schemas';
import { getQuietHours } from '#data/settings-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

interface Body {
  data: { start_hour: number; end_hour: number; timezone: string; enabled: boolean; updated_at: string | null };
  meta: { merchant_id?: string; request_id: string };
  error?: { code: string; message: string; param?: string };
}

describe('/api/v1/settings/quiet-hours', () => {
  let stack: LocalStack;

  const url = (): string => `${stack.api_url}/settings/quiet-hours`;
  const read = (tenant: Tenant | string) => call<Body>(url(), { key: typeof tenant === 'string' ? tenant : tenant.key });
  const write = (tenant: Tenant | string, body: unknown, headers?: Record<string, string>) =>
    call<Body>(url(), { method: 'POST', key: typeof tenant === 'string' ? tenant : tenant.key, body, ...(headers ? { headers } : {}) });

  beforeAll(async () => {
    stack = await startTestStack();
  });

  afterAll(async () => {
    await stack.stop();
  });

  describe('GET', () => {
    it('answers the disabled default, 22 → 7 UTC, before any quiet hours are set', async () => {
      // Prepare
      const tenant = await newTenant(['read']);
      // Act
      const response = await read(tenant);
      // Assess
      expect(response.status).toBe(200);
      expect(QuietHoursResponse.safeParse(response.body).success).toBe(true);
      expect(response.body.data).toEqual({ start_hour: 22, end_hour: 7, timezone: 'UTC', enabled: false, updated_at: null });
      expect(response.body.meta.merchant_id).toBe(tenant.merchant.id);
    });
  });

  describe('POST', () => {
    it('stores a window crossing midnight, enabled by default, and GET answers it', async () => {
      // Prepare
      const tenant = await newTenant(['admin'], UNLIMITED);
      const before = Date.now();
      // Act
      const response = await write(tenant, { start_hour: 22, end_hour: 7, timezone: 'America/Los_Angeles' });
      // Assess
      expect(response.status).toBe(200);
      expect(QuietHoursResponse.safeParse(response.body).success).toBe(true);
      expect(response.body.data).toEqual({ start_hour: 22, end_hour: 7, timezone: 'America/Los_Angeles', enabled: true, updated_at: expect.any(String) });
      expect(Date.parse(response.body.data.updated_at as string)).toBeGreaterThanOrEqual(before - 1);
      expect((await read(tenant)).body.data).toEqual(response.body.data);
      expect(await getQuietHours(tenant.merchant.id)).toEqual({ startHour: 22, endHour: 7, timezone: 'America/Los_Angeles', enabled: true });
    });

    it('replaces the whole window, and stores enabled: false', async () => {
      // Prepare
      const tenant = await newTenant(['admin'], UNLIMITED);
      await write(tenant, { start_hour: 22, end_hour: 7, timezone: 'Europe/London' });
      // Act
      const response = await write(tenant, { start_hour: 9, end_hour: 17, timezone: 'Asia/Kolkata', enabled: false });
      // Assess
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ start_hour: 9, end_hour: 17, timezone: 'Asia/Kolkata', enabled: false });
      expect((await read(tenant)).body.data).toMatchObject({ start_hour: 9, end_hour: 17, timezone: 'Asia/Kolkata', enabled: false });
    });

    it.each([
      ['the hours 0 and 23', { start_hour: 0, end_hour: 23, timezone: 'UTC' }],
      ['equal hours (no quiet period)', { start_hour: 5, end_hour: 5, timezone: 'Pacific/Auckland' }],
      ['an IANA link', { start_hour: 21, end_hour: 8, timezone: 'Asia/Calcutta' }],
      ['a zone with a quarter-hour offset', { start_hour: 21, end_hour: 8, timezone: 'Asia/Kathmandu' }],
    ])('accepts %s', async (_what, body) => {
      // Prepare
      const tenant = await newTenant(['write']);
      // Act
      const response = await write(tenant, body);
      // Assess
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ ...body, enabled: true });
    });

    it('ignores unknown fields', async () => {
      // Prepare
      const tenant = await newTenant(['write']);
      // Act
      const response = await write(tenant, { start_hour: 1, end_hour: 2, timezone: 'UTC', colour: 'blue' });
      // Assess
      expect(response.status).toBe(200);
      expect(response.body.data).not.toHaveProperty('colour');
    });
  });

  describe('bad input', () => {
    let tenant: Tenant;
    const stored = { start_hour: 23, end_hour: 6, timezone: 'Europe/Berlin' };

    beforeAll(async () => {
      tenant = await newTenant(['admin'], UNLIMITED);
      await write(tenant, stored);
    });

    it.each([
      ['start_hour', { end_hour: 7, timezone: 'UTC' }],
      ['end_hour', { start_hour: 22, timezone: 'UTC' }],
      ['timezone', { start_hour: 22, end_hour: 7 }],
      ['start_hour', {}],
    ])('answers a body without %s with 400 invalid_request naming it, and changes nothing', async (param, body) => {
      // Act
      const response = await write(tenant, body);
      // Assess
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'invalid_request', param });
      expect((await read(tenant)).body.data).toMatchObject({ ...stored, enabled: true });
    });

    it.each([
      ['start_hour', 24, { start_hour: 24, end_hour: 7, timezone: 'UTC' }],
      ['start_hour', -1, { start_hour: -1, end_hour: 7, timezone: 'UTC' }],
      ['start_hour', 1.5, { start_hour: 1.5, end_hour: 7, timezone: 'UTC' }],
      ['start_hour', '22', { start_hour: '22', end_hour: 7, timezone: 'UTC' }],
      ['start_hour', null, { start_hour: null, end_hour: 7, timezone: 'UTC' }],
      ['end_hour', 24, { start_hour: 22, end_hour: 24, timezone: 'UTC' }],
      ['timezone', 'Mars/Olympus_Mons', { start_hour: 22, end_hour: 7, timezone: 'Mars/Olympus_Mons' }],
      ['timezone', '+02:00', { start_hour: 22, end_hour: 7, timezone: '+02:00' }],
      ['timezone', 'EST', { start_hour: 22, end_hour: 7, timezone: 'EST' }],
      ['timezone', 5, { start_hour: 22, end_hour: 7, timezone: 5 }],
      ['enabled', 'yes', { start_hour: 22, end_hour: 7, timezone: 'UTC', enabled: 'yes' }],
    ])('answers %s = %p with 422 validation_error naming it, and changes nothing', async (param, _value, body) => {
      // Act
      const response = await write(tenant, body);
      // Assess
      expect(response.status).toBe(422);
      expect(response.body.error).toMatchObject({ code: 'validation_error', param });
      expect((await read(tenant)).body.data).toMatchObject({ ...stored, enabled: true });
    });

    it('answers malformed JSON with 400 invalid_request', async () => {
      // Act
      const response = await call<Body>(url(), {
        method: 'POST',
        key: tenant.key,
        rawBody: '{"start_hour": 22,',
        headers: { 'Content-Type': 'application/json' },
      });
      // Assess
      expect(response.status).toBe(400);
      expect(response.body.error?.code).toBe('invalid_request');
    });
  });

  describe('scopes', () => {
    it('answers a request without a key with 401', async () => {
      // Act
      const response = await call<Body>(url());
      // Assess
      expect(response.status).toBe(401);
      expect(response.body.error?.code).toBe('invalid_api_key');
    });
  });

  describe('tenants', () => {
    it("never shows or changes another merchant's quiet hours", async () => {
      // Prepare
      const a = await newTenant(['admin'], UNLIMITED);
      const b = await newTenant(['admin'], UNLIMITED);
      await write(a, { start_hour: 21, end_hour: 6, timezone: 'America/New_York' });
      // Act
      const bBefore = await read(b);
      await write(b, { start_hour: 1, end_hour: 4, timezone: 'Asia/Tokyo', enabled: false });
      // Assess
      expect(bBefore.body.data).toEqual({ start_hour: 22, end_hour: 7, timezone: 'UTC', enabled: false, updated_at: null });
      expect((await read(a)).body.data).toMatchObject({ start_hour: 21, end_hour: 6, timezone: 'America/New_York', enabled: true });
      expect((await read(b)).body.data).toMatchObject({ start_hour: 1, end_hour: 4, timezone: 'Asia/Tokyo', enabled: false });
    });
  });

  describe('Idempotency-Key', () => {
    it('replays a set byte for byte, and refuses the key with another body with 422', async () => {
      // Prepare
      const tenant = await newTenant(['admin'], UNLIMITED);
      const headers = { 'Idempotency-Key': `quiet-${tenant.merchant.id}` };
      // Act
      const first = await write(tenant, { start_hour: 22, end_hour: 7, timezone: 'UTC' }, headers);
      const second = await write(tenant, { start_hour: 22, end_hour: 7, timezone: 'UTC' }, headers);
      const other = await write(tenant, { start_hour: 23, end_hour: 7, timezone: 'UTC' }, headers);
      // Assess
      expect(first.status).toBe(200);
      expect(second.text).toBe(first.text);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(other.status).toBe(422);
      expect(other.body.error).toMatchObject({ code: 'validation_error', param: 'Idempotency-Key' });
      expect((await read(tenant)).body.data.start_hour).toBe(22);
    });
  });
});
