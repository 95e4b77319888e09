/**
 * POST /api/internal/cache/invalidate over HTTP: the shared cron secret admits the caller (anything
 * else is 401 and purges nothing); `{ kind: "branding", key: <merchant id> }` drops the function's
 * cached branding and purges the branding paths on the CDN (the local CDN records it);
 * `{ kind: "hostname", key: <hostname> }` purges what the CDN serves under an active custom
 * hostname. Bad kinds are 422 `param: kind`; unknown keys 404 `param: key`. The cron-secret fixture is
 * imported first: it sets CRON_SECRET before the runtime reads its environment.
 */
import { CRON_SECRET, cronAuth } from '#test/fixtures/cron-secret';
import { localCdnCalls } from '#adapters/cdn/local';
import { invalidateCacheSchemas } from '#api/edge-internal/schemas';
import { useDnsStack } from '#test/fixtures/dns-stack';
import { call } from '#test/fixtures/http';
import { originOf } from '#test/fixtures/local-stack';
import { newTenant, UNLIMITED } from '#test/fixtures/tenants';

interface Body {
  data: { kind: string; key: string; function_cache_cleared: boolean; cdn_invalidation_id: string | null };
  error?: { code: string; message: string; param?: string };
}

const PATH = '/api/internal/cache/invalidate';

describe('POST /api/internal/cache/invalidate', () => {
  const running = useDnsStack();
  const post = (body: unknown, headers: Record<string, string> = cronAuth()) =>
    call<Body>(`${originOf(running.stack)}${PATH}`, { method: 'POST', body, headers });
  const purges = () => localCdnCalls().filter((entry) => entry.action === 'purge');

  describe('with the cron secret', () => {
    it("drops a merchant's cached branding and purges its branding paths on the CDN", async () => {
      // Prepare
      const tenant = await newTenant(['admin'], UNLIMITED);
      const warmed = await call(`${originOf(running.stack)}/api/custom-hostname/branding/${tenant.merchant.id}`);
      const before = purges().length;

      // Act
      const response = await post({ kind: 'branding', key: tenant.merchant.id });
      const again = await post({ kind: 'branding', key: tenant.merchant.id });

      // Assess
      expect(warmed.status).toBe(200);
      expect(response.status).toBe(200);
      expect(invalidateCacheSchemas.responses[200].safeParse(response.body).success).toBe(true);
      expect(response.body.data).toEqual({
        kind: 'branding',
        key: tenant.merchant.id,
        function_cache_cleared: true,
        cdn_invalidation_id: expect.stringMatching(/^local-invalidation-/),
      });
      expect(again.body.data.function_cache_cleared).toBe(false);
      expect(purges().slice(before)[0]).toEqual({
        action: 'purge',
        target: { kind: 'branding', merchantId: tenant.merchant.id },
        paths: [`/api/widget/branding/${tenant.merchant.id}`, `/api/custom-hostname/branding/${tenant.merchant.id}`],
        invalidationId: response.body.data.cdn_invalidation_id,
      });
    });

    it('purges what the CDN serves under an active custom hostname; a pending one has nothing to purge', async () => {
      // Prepare
      const tenant = await newTenant(['admin'], UNLIMITED);
      const provision = async (hostname: string) =>
        (
          await call<{ data: { id: string; hostname: string; cname_target: string; ownership_verification: { name: string; value: string } } }>(
            `${originOf(running.stack)}/api/custom-hostname/provision`,
            { method: 'POST', key: tenant.key, body: { hostname } },
          )
        ).body.data;
      const active = await provision(`purge-${Date.now().toString(36)}.merchant.example`);
      const pending = await provision(`pending-${Date.now().toString(36)}.merchant.example`);
      running.dns.setCname(active.hostname, active.cname_target);
      running.dns.setTxt(active.ownership_verification.name, [active.ownership_verification.value]);
      await call(`${originOf(running.stack)}/api/custom-hostname/verify`, { method: 'POST', key: tenant.key, body: { id: active.id } });

      // Act
      const purged = await post({ kind: 'hostname', key: active.hostname.toUpperCase() });
      const nothing = await post({ kind: 'hostname', key: pending.hostname });

      // Assess
      expect(purged.status).toBe(200);
      expect(purged.body.data).toMatchObject({
        kind: 'hostname',
        key: active.hostname,
        function_cache_cleared: false,
        cdn_invalidation_id: expect.any(String),
      });
      expect(purges().at(-1)).toMatchObject({ target: { kind: 'hostname', tenantId: expect.stringMatching(/^local-tenant:/) }, paths: ['/*'] });
      expect(nothing.status).toBe(200);
      expect(nothing.body.data.cdn_invalidation_id).toBeNull();
    });
  });

  describe('without the cron secret', () => {
    it.each([
      ['no Authorization header', {}],
      ['a wrong secret', cronAuth('cron-secret-for-tests-0123456789abcdeX')],
      ['the secret without the Bearer scheme', { Authorization: CRON_SECRET }],
    ])('refuses %s with 401 and purges nothing', async (_what, headers) => {
      // Prepare
      const tenant = await newTenant(['admin'], UNLIMITED);
      const before = purges().length;
      // Act
      const response = await post({ kind: 'branding', key: tenant.merchant.id }, headers);
      // Assess
      expect(response.status).toBe(401);
      expect(response.body.error?.code).toBe('invalid_api_key');
      expect(purges().length).toBe(before);
    });

    it("refuses a merchant's admin API key with 401", async () => {
      const tenant = await newTenant(['admin'], UNLIMITED);
      const response = await post({ kind: 'branding', key: tenant.merchant.id }, { Authorization: `Bearer ${tenant.key}` });
      expect(response.status).toBe(401);
    });
  });

  describe('bad input', () => {
    it.each([
      ['an unknown kind', 422, 'kind', { kind: 'everything', key: 'x' }],
      ['no kind', 400, 'kind', { key: 'x' }],
      ['no key', 400, 'key', { kind: 'branding' }],
      ['an empty key', 422, 'key', { kind: 'branding', key: '  ' }],
      ['a 10 KB key', 422, 'key', { kind: 'hostname', key: 'a'.repeat(10_240) }],
      ['an unknown merchant', 404, 'key', { kind: 'branding', key: 'merch_unknown' }],
      ['a hostname nobody holds', 404, 'key', { kind: 'hostname', key: 'nobody.merchant.example' }],
      ['a __proto__ key', 404, 'key', { kind: 'branding', key: '__proto__' }],
    ] as const)('refuses %s with %i naming %s', async (_what, status, param, body) => {
      // Act
      const response = await post(body);
      // Assess
      expect(response.status).toBe(status);
      expect(response.body.error?.param).toBe(param);
    });
  });
});
