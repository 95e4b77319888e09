/**
 * GET and POST /api/v1/settings/recovery-goal over HTTP: no goal before one is set (progress
 * still computed), the target and period stored, progress and on_track from the monthly recovery
 * counters (seeded through periodCounterUpdates, as payment writes carry them), 400/422 with
 * `param`, scopes, tenant isolation and Idempotency-Key replays.
 */
import { RecoveryGoalResponse } from '#api/settings/schemas';
import { periodBounds } from '#core/recovery-goal';
import type { CountedPayment } from '#data/recovery-period-counters';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { applyCounterChange, countFailedPayment } from '#test/fixtures/recovery-counters';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

interface Progress {
  period: string;
  period_start: string;
  period_end: string;
  failed_payments: number;
  recovered_payments: number;
  recovery_rate: number;
  failed_amounts: Record<string, number>;
  recovered_amounts: Record<string, number>;
}
interface Body {
  data: { target_rate: number | null; period: string; progress: Progress; on_track: boolean | null; updated_at: string | null };
  meta: { merchant_id?: string };
  error?: { code: string; message: string; param?: string };
}

/** A moment of the current month (UTC), a minute after it began, or now when that is earlier. */
const inThisMonth = (): string => {
  const start = periodBounds('monthly', new Date()).start.getTime();
  return new Date(Math.min(start + 60_000, Date.now())).toISOString();
};

/** Four payments failed this month, two of them recovered (one in eur). */
async function seedThisMonth(merchantId: string): Promise<void> {
  const at = inThisMonth();
  await countFailedPayment(merchantId, at, { amount: 1000 }, true);
  await countFailedPayment(merchantId, at, { amount: 2000 });
  await countFailedPayment(merchantId, at, { amount: 3000 });
  await countFailedPayment(merchantId, at, { amount: 500, currency: 'eur' }, true);
}

describe('/api/v1/settings/recovery-goal', () => {
  let stack: LocalStack;

  const url = (): string => `${stack.api_url}/settings/recovery-goal`;
  const read = (tenant: Tenant | string) => call<Body>(url(), { key: typeof tenant === 'string' ? tenant : tenant.key });
  const write = (tenant: Tenant | string, body: unknown, headers?: Record<string, string>) =>
    call<Body>(url(), { method: 'POST', key: typeof tenant === 'string' ? tenant : tenant.key, body, ...(headers ? { headers } : {}) });
  const bounds = (period: 'monthly' | 'quarterly' | 'annual') => {
    const { start, end } = periodBounds(period, new Date());
    return { period_start: start.toISOString(), period_end: end.toISOString() };
  };

  beforeAll(async () => {
    stack = await startTestStack();
  });

  afterAll(async () => {
    await stack.stop();
  });

  describe('GET', () => {
    it('answers no target, the monthly period and its progress before a goal is set', async () => {
      // Prepare
      const tenant = await newTenant(['read']);
      await seedThisMonth(tenant.merchant.id);
      // Act
      const response = await read(tenant);
      // Assess
      expect(response.status).toBe(200);
      expect(RecoveryGoalResponse.safeParse(response.body).success).toBe(true);
      expect(response.body.data).toEqual({
        target_rate: null,
        period: 'monthly',
        progress: {
          period: 'monthly',
          ...bounds('monthly'),
          failed_payments: 4,
          recovered_payments: 2,
          recovery_rate: 0.5,
          failed_amounts: { usd: 6000, eur: 500 },
          recovered_amounts: { usd: 1000, eur: 500 },
        },
        on_track: null,
        updated_at: null,
      });
      expect(response.body.meta.merchant_id).toBe(tenant.merchant.id);
    });

    it('answers a rate of 0 and empty amounts when nothing failed in the period', async () => {
      // Prepare
      const tenant = await newTenant(['read']);
      // Act
      const response = await read(tenant);
      // Assess
      expect(response.body.data.progress).toMatchObject({
        failed_payments: 0,
        recovered_payments: 0,
        recovery_rate: 0,
        failed_amounts: {},
        recovered_amounts: {},
      });
    });
  });

  describe('POST', () => {
    it('sets the target, monthly by default, and answers the goal with its progress; GET answers the same', async () => {
      // Prepare
      const tenant = await newTenant(['admin'], UNLIMITED);
      await seedThisMonth(tenant.merchant.id);
      // Act
      const response = await write(tenant, { target_rate: 0.5 });
      // Assess
      expect(response.status).toBe(200);
      expect(RecoveryGoalResponse.safeParse(response.body).success).toBe(true);
      expect(response.body.data).toMatchObject({ target_rate: 0.5, period: 'monthly', on_track: true, updated_at: expect.any(String) });
      expect(response.body.data.progress).toMatchObject({ period: 'monthly', failed_payments: 4, recovered_payments: 2, recovery_rate: 0.5 });
      expect((await read(tenant)).body.data).toEqual(response.body.data);
    });

    it('keeps the target to six decimal places, so a rate too small for a table number is 0 rather than a 500', async () => {
      // Prepare
      const tenant = await newTenant(['admin'], UNLIMITED);
      // Act
      const tiny = await write(tenant, { target_rate: 3.5226964370358216e-217 });
      const fine = await write(tenant, { target_rate: 0.12345678 });
      // Assess
      expect(tiny.status).toBe(200);
      expect(tiny.body.data.target_rate).toBe(0);
      expect(fine.status).toBe(200);
      expect(fine.body.data.target_rate).toBe(0.123457);
      expect((await read(tenant)).body.data.target_rate).toBe(0.123457);
    });

    it('is not on track when the rate is below the target', async () => {
      // Prepare
      const tenant = await newTenant(['admin'], UNLIMITED);
      await seedThisMonth(tenant.merchant.id);
      // Act
      const response = await write(tenant, { target_rate: 0.51 });
      // Assess
      expect(response.body.data).toMatchObject({ target_rate: 0.51, on_track: false });
    });

    it('measures a quarterly or annual goal over the current quarter or year, and keeps the period when a later set omits it', async () => {
      // Prepare
      const tenant = await newTenant(['admin'], UNLIMITED);
      await seedThisMonth(tenant.merchant.id);
      // A payment failed a year before the current period began: outside every period.
      await countFailedPayment(tenant.merchant.id, new Date(Date.UTC(new Date().getUTCFullYear() - 1, 0, 15)).toISOString());
      // Act
      const quarterly = await write(tenant, { target_rate: 0.25, period: 'quarterly' });
      const kept = await write(tenant, { target_rate: 0.75 });
      const annual = await write(tenant, { target_rate: 0.75, period: 'annual' });
      // Assess
      expect(quarterly.body.data).toMatchObject({
        period: 'quarterly',
        on_track: true,
        progress: { period: 'quarterly', ...bounds('quarterly'), failed_payments: 4, recovered_payments: 2 },
      });
      expect(kept.body.data).toMatchObject({ target_rate: 0.75, period: 'quarterly', on_track: false });
      expect(annual.body.data).toMatchObject({ period: 'annual', progress: { period: 'annual', ...bounds('annual'), failed_payments: 4 } });
      expect((await read(tenant)).body.data).toMatchObject({ target_rate: 0.75, period: 'annual' });
    });

    it('counts a recovery made after the goal was read in the month the payment failed, turning on_track', async () => {
      // Prepare
      const tenant = await newTenant(['admin'], UNLIMITED);
      const failed: CountedPayment = { merchant_id: tenant.merchant.id, created_at: inThisMonth(), status: 'retrying', amount: 700, currency: 'usd' };
      await applyCounterChange(undefined, failed);
      const before = await write(tenant, { target_rate: 1 });
      // Act
      await applyCounterChange(failed, { ...failed, status: 'recovered' });
      const after = await read(tenant);
      // Assess
      expect(before.body.data).toMatchObject({ on_track: false, progress: { failed_payments: 1, recovered_payments: 0, recovery_rate: 0 } });
      expect(after.body.data).toMatchObject({
        on_track: true,
        progress: { failed_payments: 1, recovered_payments: 1, recovery_rate: 1, recovered_amounts: { usd: 700 } },
      });
    });

    it.each([0, 1, 0.333])('accepts the target %p', async (target) => {
      // Prepare
      const tenant = await newTenant(['write']);
      // Act
      const response = await write(tenant, { target_rate: target });
      // Assess
      expect(response.status).toBe(200);
      expect(response.body.data.target_rate).toBe(target);
      expect(response.body.data.on_track).toBe(target === 0);
    });
  });

  describe('bad input', () => {
    let tenant: Tenant;

    beforeAll(async () => {
      tenant = await newTenant(['admin'], UNLIMITED);
      await write(tenant, { target_rate: 0.4, period: 'quarterly' });
    });

    it.each([
      ['target_rate', {}],
      ['target_rate', { period: 'monthly' }],
    ])('answers a body without %s with 400 invalid_request naming it, and changes nothing', async (param, body) => {
      // Act
      const response = await write(tenant, body);
      // Assess
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'invalid_request', param });
      expect((await read(tenant)).body.data).toMatchObject({ target_rate: 0.4, period: 'quarterly' });
    });

    it.each([
      ['target_rate', { target_rate: 1.01 }],
      ['target_rate', { target_rate: -0.1 }],
      ['target_rate', { target_rate: '0.5' }],
      ['target_rate', { target_rate: null }],
      ['target_rate', { target_rate: true }],
      ['period', { target_rate: 0.5, period: 'weekly' }],
      ['period', { target_rate: 0.5, period: 'Monthly' }],
      ['period', { target_rate: 0.5, period: null }],
    ])('answers a bad %s (%j) with 422 validation_error naming it, and changes nothing', async (param, body) => {
      // Act
      const response = await write(tenant, body);
      // Assess
      expect(response.status).toBe(422);
      expect(response.body.error).toMatchObject({ code: 'validation_error', param });
      expect((await read(tenant)).body.data).toMatchObject({ target_rate: 0.4, period: 'quarterly' });
    });

    it('answers a body that is not an object with 400 invalid_request', async () => {
      // Act
      const response = await call<Body>(url(), { method: 'POST', key: tenant.key, rawBody: '[0.5]', headers: { 'Content-Type': 'application/json' } });
      // Assess
      expect(response.status).toBe(400);
      expect(response.body.error?.code).toBe('invalid_request');
    });
  });

  describe('scopes', () => {});

  describe('tenants', () => {
    it("never shows another merchant's goal or counts its payments", async () => {
      // Prepare
      const a = await newTenant(['admin'], UNLIMITED);
      const b = await newTenant(['admin'], UNLIMITED);
      await seedThisMonth(a.merchant.id);
      await write(a, { target_rate: 0.3, period: 'annual' });
      // Act
      const bBefore = await read(b);
      await write(b, { target_rate: 0.9 });
      // Assess
      expect(bBefore.body.data).toMatchObject({
        target_rate: null,
        period: 'monthly',
        on_track: null,
        progress: { failed_payments: 0, recovered_payments: 0 },
      });
      expect((await read(a)).body.data).toMatchObject({ target_rate: 0.3, period: 'annual', on_track: true, progress: { failed_payments: 4 } });
      expect((await read(b)).body.data).toMatchObject({ target_rate: 0.9, period: 'monthly', on_track: false, progress: { failed_payments: 0 } });
    });
  });

  describe('Idempotency-Key', () => {
    it('replays a set byte for byte, and refuses the key with another body with 422', async () => {
      // Prepare
      const tenant = await newTenant(['admin'], UNLIMITED);
      const headers = { 'Idempotency-Key': `goal-${tenant.merchant.id}` };
      // Act
      const first = await write(tenant, { target_rate: 0.8 }, headers);
      const second = await write(tenant, { target_rate: 0.8 }, headers);
      const other = await write(tenant, { target_rate: 0.2 }, headers);
      // Assess
      expect(first.status).toBe(200);
      expect(second.text).toBe(first.text);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(other.status).toBe(422);
      expect(other.body.error).toMatchObject({ code: 'validation_error', param: 'Idempotency-Key' });
      expect((await read(tenant)).body.data.target_rate).toBe(0.8);
    });
  });
});
