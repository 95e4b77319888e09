/**
 * The recovery analytics routes over HTTP where no payment is needed: bad input (400
 * invalid_request naming the param), the answers of a merchant with no payments (zeros, usd, a
 * series without gaps), and the summary's 307 to the recovery route.
 */
import {
  AtRiskAnalyticsResponse,
  DeclineCodeAnalyticsResponse,
  RecoveryAnalyticsResponse,
  RecoveryBreakdownResponse,
  RevenueAnalyticsResponse,
} from '#api/analytics/recovery-schemas';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

interface ErrorBody {
  error?: { code: string; param?: string };
}

const DATED = ['recovery', 'summary', 'revenue', 'decline-codes', 'recovery-breakdown'] as const;
const GROUPED = ['recovery', 'summary', 'recovery-breakdown'] as const;

describe('recovery analytics input', () => {
  let stack: LocalStack;
  let tenant: Tenant;

  const get = <T = Record<string, unknown>>(path: string) => call<T>(`${stack.api_url}/analytics/${path}`, { key: tenant.key });

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['analytics'], UNLIMITED);
  });

  afterAll(async () => {
    await stack.stop();
  });

  const badInputs: Array<[string, string, string]> = [
    ...DATED.flatMap(
      (route): Array<[string, string, string]> => [
        [route, 'start_date=2026-13-01', 'start_date'],
        [route, 'start_date=2026-02-30', 'start_date'],
        [route, 'end_date=20261001', 'end_date'],
        [route, 'start_date=2026-10-02&end_date=2026-10-01', 'end_date'],
        [route, 'start_date=2010-01-01&end_date=2026-10-01', 'start_date'],
      ],
    ),
    ...GROUPED.flatMap(
      (route): Array<[string, string, string]> => [
        [route, 'group_by=year', 'group_by'],
        [route, 'group_by=hour&start_date=2024-01-01&end_date=2026-01-02', 'group_by'],
      ],
    ),
    ['recovery', 'psp=acme', 'psp'],
    ['recovery', 'decline_category=soft', 'decline_category'],
    ['recovery', 'currency=xyz', 'currency'],
    ['summary', 'psp=acme', 'psp'],
    ['revenue', 'currency=USD', 'currency'],
    ['at-risk', 'currency=xyz', 'currency'],
    ['decline-codes', 'psp=acme', 'psp'],
    ['decline-codes', 'cursor=forged.cursor', 'cursor'],
    ['recovery-breakdown', 'segment_by=customer', 'segment_by'],
    ['recovery', 'colour=blue', 'colour'],
    ['at-risk', 'start_date=2026-10-01', 'start_date'],
  ];

  it.each(badInputs)('answers GET /analytics/%s?%s with 400 invalid_request naming %s', async (route, query, param) => {
    // Act
    const response = await get<ErrorBody>(`${route}?${query}`);
    // Assess
    expect({ status: response.status, code: response.body.error?.code, param: response.body.error?.param }).toEqual({
      status: 400,
      code: 'invalid_request',
      param,
    });
  });

  it('accepts an hourly range of exactly 731 days', async () => {
    // Act
    const hourly = await get<{ data: { series: unknown[] } }>('recovery?group_by=hour&start_date=2024-01-01&end_date=2025-12-31');
    // Assess
    expect(hourly.status).toBe(200);
    expect(hourly.body.data.series).toHaveLength(731 * 24);
  });

  it('answers zeros in usd with a gapless daily series over the last 30 days when the merchant has no payments', async () => {
    // Act
    const response = await get<{ data: Record<string, never> }>('recovery');
    // Assess
    expect(response.status).toBe(200);
    expect(RecoveryAnalyticsResponse.safeParse(response.body).error).toBeUndefined();
    const data = response.body.data as unknown as {
      summary: Record<string, unknown>;
      by_category: Array<{ category: string; failures: number }>;
      period: { start_date: string; end_date: string; group_by: string };
      meta: unknown;
      series: Array<{ bucket: string; total_failed: number }>;
    };
    const today = new Date().toISOString().slice(0, 10);
    expect(data.period).toEqual({ start_date: new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10), end_date: today, group_by: 'day' });
    expect(data.meta).toEqual(data.period);
    expect(data.summary).toMatchObject({ total_failed: 0, total_recovered: 0, total_terminal: 0, total_pending: 0, recovery_rate: 0, currency: 'usd' });
    expect(data.by_category.map((row) => [row.category, row.failures])).toEqual([
      ['soft_retry', 0],
      ['hard_customer', 0],
      ['terminal', 0],
      ['unknown', 0],
    ]);
    expect(data.series.map((point) => point.bucket)).toHaveLength(30);
    expect(data.series.at(-1)?.bucket).toBe(today);
  });

  it('answers the other routes with zeros and their schemas when the merchant has no payments', async () => {
    // Act
    const [revenue, atRisk, codes, breakdown] = await Promise.all([
      get('revenue'),
      get('at-risk'),
      get('decline-codes'),
      get('recovery-breakdown?segment_by=campaign&group_by=month'),
    ]);
    // Assess
    expect(RevenueAnalyticsResponse.safeParse(revenue.body).error).toBeUndefined();
    expect(AtRiskAnalyticsResponse.safeParse(atRisk.body).error).toBeUndefined();
    expect(DeclineCodeAnalyticsResponse.safeParse(codes.body).error).toBeUndefined();
    expect(RecoveryBreakdownResponse.safeParse(breakdown.body).error).toBeUndefined();
    expect(revenue.body.data).toMatchObject({ revenue_recovered: 0, revenue_at_risk: 0, payments_failed: 0, currency: 'usd' });
    expect(atRisk.body.data).toMatchObject({ at_risk_cents: 0, at_risk_count: 0, paused_count: 0, currency: 'usd', at_risk_by_currency: {} });
    expect(codes.body).toMatchObject({ data: { decline_codes: [], without_decline_code: { occurrences: 0, recovered: 0 } }, cursor: { next: null } });
    expect(breakdown.body.data).toMatchObject({ segment_by: 'campaign', segments: [] });
  });

  it('redirects /analytics/summary with 307 to /analytics/recovery and the same query, which a following client reads', async () => {
    // Prepare
    const query = 'start_date=2026-10-01&end_date=2026-10-31&group_by=week&psp=stripe';
    const url = `${stack.api_url}/analytics/summary?${query}`;
    // Act
    const redirect = await fetch(url, { headers: { Authorization: `Bearer ${tenant.key}` }, redirect: 'manual' });
    const followed = await call<{ data: unknown }>(url, { key: tenant.key });
    const direct = await get<{ data: unknown }>(`recovery?${query}`);
    // Assess
    expect(redirect.status).toBe(307);
    const location = new URL(redirect.headers.get('location') ?? '', url);
    expect(location.pathname).toBe('/api/v1/analytics/recovery');
    expect(location.search).toBe(`?${query}`);
    expect(followed.status).toBe(200);
    expect(followed.body.data).toEqual(direct.body.data);
  });
});
