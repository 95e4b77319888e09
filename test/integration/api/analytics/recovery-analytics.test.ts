/**
 * The recovery analytics routes through the real path: payments ingested over HTTP in several
 * providers, categories and currencies, then recovered (by the retry executor after a retry
 * request, and by the provider's payment_succeeded), closed (a terminal decline, a cancelled
 * subscription) and paused over HTTP; the table stream drained; every route read and compared
 * with a direct count over the same payments (read back through GET /payments).
 */
import {
  AtRiskAnalyticsResponse,
  DeclineCodeAnalyticsResponse,
  RecoveryAnalyticsResponse,
  RecoveryBreakdownResponse,
  RevenueAnalyticsResponse,
} from '#api/analytics/recovery-schemas';
import { getEnrollment } from '#data/enrollment-repository';
import { executeDueRetries } from '#jobs/execute-due-retries';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

interface Payment {
  id: string;
  status: 'pending' | 'retrying' | 'paused' | 'recovered' | 'terminal';
  amount: number;
  currency: string;
  psp: string;
  decline_code: string | null;
  decline_category: string;
  recovery_method: string | null;
}
type Json = Record<string, unknown>;

let seq = 0;
const unique = (prefix: string): string => `${prefix}_${(seq += 1)}_${Math.random().toString(36).slice(2, 8)}`;

/** The direct count: figures of some payments, counted one by one. */
function countOf(payments: readonly Payment[], currency: string) {
  const inCurrency = payments.filter((payment) => payment.currency === currency);
  const sum = (list: readonly Payment[]): number => list.reduce((total, payment) => total + payment.amount, 0);
  const open = (payment: Payment): boolean => ['pending', 'retrying', 'paused'].includes(payment.status);
  const byCurrency = (keep: (payment: Payment) => boolean): Record<string, number> => {
    const map: Record<string, number> = {};
    for (const payment of payments) map[payment.currency] = (map[payment.currency] ?? 0) + (keep(payment) ? payment.amount : 0);
    return map;
  };
  return {
    total_failed: payments.length,
    total_recovered: payments.filter((payment) => payment.status === 'recovered').length,
    total_terminal: payments.filter((payment) => payment.status === 'terminal').length,
    total_pending: payments.filter(open).length,
    total_failed_amount: sum(inCurrency),
    total_recovered_amount: sum(inCurrency.filter((payment) => payment.status === 'recovered')),
    total_terminal_amount: sum(inCurrency.filter((payment) => payment.status === 'terminal')),
    total_pending_amount: sum(inCurrency.filter(open)),
    total_failed_amount_by_currency: byCurrency(() => true),
    total_recovered_amount_by_currency: byCurrency((payment) => payment.status === 'recovered'),
    total_terminal_amount_by_currency: byCurrency((payment) => payment.status === 'terminal'),
    total_pending_amount_by_currency: byCurrency(open),
  };
}

describe('recovery analytics over ingested, retried, recovered, closed and paused payments', () => {
  let stack: LocalStack;
  let tenant: Tenant;
  let payments: Payment[];

  const api = (): string => stack.api_url;
  const get = <T = Json>(path: string, key = tenant.key) => call<T>(`${api()}${path}`, { key });
  const ingest = async (body: Json): Promise<string | null> => {
    const response = await call<{ data: { payment_event_id: string | null } }>(`${api()}/ingest/payment-event`, { method: 'POST', key: tenant.key, body });
    expect(response.status).toBe(200);
    return response.body.data.payment_event_id;
  };
  const fail = (psp: string, declineCode: string | null, amount: number, currency: string, metadata: Json = {}) =>
    ingest({
      event_type: 'payment_failed',
      amount_cents: amount,
      currency,
      customer_email: `${unique('buyer')}@example.com`,
      ...(declineCode === null ? {} : { decline_code: declineCode }),
      metadata: { psp, payment_id: unique('ch'), ...metadata },
    });
  const post = async (path: string): Promise<void> => {
    const response = await call(`${api()}${path}`, { method: 'POST', key: tenant.key });
    expect(response.status).toBeLessThan(300);
  };

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], UNLIMITED);
    // Open: soft declines in usd (retrying), an expired card in eur (pending, waiting for a card update).
    const open = [await fail('stripe', 'insufficient_funds', 4999, 'usd'), await fail('stripe', 'insufficient_funds', 2500, 'usd')];
    await fail('stripe', 'insufficient_funds', 1000, 'usd');
    await fail('stripe', 'expired_card', 2000, 'eur');
    await fail('adyen', 'expired_card', 3000, 'eur');
    // Recovered by our retry: a processing error retried on request, then the executor's run.
    const retried = [await fail('stripe', 'processing_error', 1500, 'usd'), await fail('braintree', 'processing_error', 700, 'gbp')];
    // Recovered by the provider: its payment_succeeded names the charge.
    const customer = `${unique('paid')}@example.com`;
    await ingest({
      event_type: 'payment_failed',
      amount_cents: 1200,
      currency: 'usd',
      customer_email: customer,
      decline_code: 'insufficient_funds',
      metadata: { psp: 'stripe', payment_id: 'ch_provider_paid' },
    });
    await ingest({
      event_type: 'payment_succeeded',
      amount_cents: 1200,
      currency: 'usd',
      customer_email: customer,
      metadata: { payment_id: 'ch_provider_paid' },
    });
    // Closed: a fraud decline (terminal at once), and a cancelled subscription.
    await fail('stripe', 'fraudulent', 800, 'usd');
    const cancelled = `${unique('cancel')}@example.com`;
    await ingest({
      event_type: 'payment_failed',
      amount_cents: 900,
      currency: 'gbp',
      customer_email: cancelled,
      decline_code: 'insufficient_funds',
      metadata: { psp: 'stripe', payment_id: unique('ch'), subscription_id: 'sub_cancelled' },
    });
    await ingest({
      event_type: 'subscription_cancelled',
      amount_cents: 0,
      currency: 'gbp',
      customer_email: cancelled,
      metadata: { subscription_id: 'sub_cancelled' },
    });
    // No decline code at all.
    await fail('stripe', null, 600, 'usd');
    for (const id of retried) await post(`/payments/${id}/retry`);
    await executeDueRetries({ now: new Date(), executionId: unique('test') });
    await post(`/payments/${open[1]}/pause`);

    await stack.runtime.stream.drain();
    const listed = await get<{ data: Payment[] }>('/payments?per_page=100');
    payments = listed.body.data;
  }, 120_000);

  afterAll(async () => {
    await stack.stop();
  });

  it('reads a mix of every outcome (the premise of the comparisons)', () => {
    // Assess
    expect(payments).toHaveLength(11);
    expect(new Set(payments.map((payment) => payment.status))).toEqual(new Set(['retrying', 'pending', 'paused', 'recovered', 'terminal']));
    expect(new Set(payments.map((payment) => payment.recovery_method).filter((method) => method !== null))).toEqual(new Set(['retry', 'provider']));
  });

  it('answers /analytics/recovery with the direct count: summary, methods, categories, B form and series', async () => {
    // Act
    const response = await get<{ data: Json }>('/analytics/recovery');
    // Assess
    expect(response.status).toBe(200);
    expect(RecoveryAnalyticsResponse.safeParse(response.body).error).toBeUndefined();
    const data = response.body.data as {
      summary: Json & { rates: Json; recovered_by_method: Record<string, { count: number; amount: number }>; by_currency: Record<string, Json> };
      by_category: Array<{ category: string; failures: number; recovered: number; recovered_amount: number }>;
      by_category_keyed: Record<string, { count: number; recovered: number; rate: number }>;
      series: Array<{ total_failed: number; total_recovered: number }>;
    };
    const usd = countOf(payments, 'usd');
    expect(data.summary).toMatchObject({ ...usd, currency: 'usd', recovery_rate: Math.round((usd.total_recovered / usd.total_failed) * 10_000) / 10_000 });
    expect(data.summary.rates).toEqual({
      attempted: {
        by_count: { rate: expect.any(Number), numerator: usd.total_recovered, denominator: usd.total_failed },
        by_amount: { rate: expect.any(Number), numerator: usd.total_recovered_amount, denominator: usd.total_failed_amount },
      },
      closed: {
        by_count: { rate: expect.any(Number), numerator: usd.total_recovered, denominator: usd.total_recovered + usd.total_terminal },
        by_amount: { rate: expect.any(Number), numerator: usd.total_recovered_amount, denominator: usd.total_recovered_amount + usd.total_terminal_amount },
      },
    });
    for (const method of ['retry', 'provider', 'card_update']) {
      const recovered = payments.filter((payment) => payment.recovery_method === method);
      expect(data.summary.recovered_by_method[method]).toMatchObject({
        count: recovered.length,
        amount: recovered.filter((payment) => payment.currency === 'usd').reduce((total, payment) => total + payment.amount, 0),
      });
    }
    const gbp = countOf(
      payments.filter((payment) => payment.currency === 'gbp'),
      'gbp',
    );
    expect(data.summary.by_currency.gbp).toMatchObject({
      failed_count: gbp.total_failed,
      failed_amount: gbp.total_failed_amount,
      terminal_count: gbp.total_terminal,
    });
    for (const row of data.by_category) {
      const inCategory = payments.filter((payment) => payment.decline_category === row.category);
      const direct = countOf(inCategory, 'usd');
      expect(row).toMatchObject({ failures: direct.total_failed, recovered: direct.total_recovered, recovered_amount: direct.total_recovered_amount });
      expect(data.by_category_keyed[row.category]).toMatchObject({ count: direct.total_failed, recovered: direct.total_recovered });
    }
    expect(data.series.reduce((total, point) => total + point.total_failed, 0)).toBe(payments.length);
    expect(data.series.reduce((total, point) => total + point.total_recovered, 0)).toBe(usd.total_recovered);
  });

  it('narrows the cohort by psp and decline category, reports amounts in the asked currency, and the hourly series sums to it', async () => {
    // Act
    const stripeSoft = await get<{ data: { summary: Json } }>('/analytics/recovery?psp=stripe&decline_category=soft_retry&currency=gbp');
    const hourly = await get<{ data: { series: Array<{ total_failed: number }> } }>('/analytics/recovery?group_by=hour&start_date=2026-01-01');
    // Assess
    const subset = payments.filter((payment) => payment.psp === 'stripe' && payment.decline_category === 'soft_retry');
    expect(stripeSoft.body.data.summary).toMatchObject({ ...countOf(subset, 'gbp'), currency: 'gbp' });
    expect(hourly.status).toBe(200);
    expect(hourly.body.data.series.reduce((total, point) => total + point.total_failed, 0)).toBe(payments.length);
  });

  it('answers /analytics/revenue with the cohort recovered and still open, in money', async () => {
    // Act
    const response = await get<{ data: Json }>('/analytics/revenue?currency=eur');
    // Assess
    expect(RevenueAnalyticsResponse.safeParse(response.body).error).toBeUndefined();
    const eur = countOf(payments, 'eur');
    expect(response.body.data).toMatchObject({
      revenue_recovered: eur.total_recovered_amount,
      revenue_at_risk: eur.total_pending_amount,
      revenue_failed: eur.total_failed_amount,
      payments_recovered: eur.total_recovered,
      payments_failed: eur.total_failed,
      payments_at_risk: eur.total_pending,
      currency: 'eur',
      revenue_recovered_by_currency: eur.total_recovered_amount_by_currency,
      revenue_at_risk_by_currency: eur.total_pending_amount_by_currency,
    });
  });

  it('answers /analytics/at-risk with the pending and retrying payments now, and the paused ones apart', async () => {
    // Act
    const response = await get<{ data: Json }>('/analytics/at-risk');
    // Assess
    expect(AtRiskAnalyticsResponse.safeParse(response.body).error).toBeUndefined();
    const atRisk = payments.filter((payment) => payment.status === 'pending' || payment.status === 'retrying');
    const paused = payments.filter((payment) => payment.status === 'paused');
    const amounts = (list: readonly Payment[]): Record<string, number> => {
      const map: Record<string, number> = {};
      for (const payment of list) map[payment.currency] = (map[payment.currency] ?? 0) + payment.amount;
      return map;
    };
    expect(response.body.data).toMatchObject({
      at_risk_count: atRisk.length,
      at_risk_cents: amounts(atRisk).usd ?? 0,
      currency: 'usd',
      at_risk_by_currency: amounts(atRisk),
      paused_count: paused.length,
      paused_cents: amounts(paused).usd ?? 0,
      paused_by_currency: amounts(paused),
    });
  });

  it('pages /analytics/decline-codes by occurrences, then code, and the pages hold the direct count', async () => {
    // Act
    const rows: Array<{ decline_code: string; category: string; subcategory: string | null; occurrences: number; recovered: number }> = [];
    const pages = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
      const page = await get<{ data: { decline_codes: typeof rows; without_decline_code: Json }; cursor: { next: string | null } }>(
        `/analytics/decline-codes?limit=2${query}`,
      );
      expect(DeclineCodeAnalyticsResponse.safeParse(page.body).error).toBeUndefined();
      pages.push(page.body);
      rows.push(...page.body.data.decline_codes);
      cursor = page.body.cursor.next;
    } while (cursor !== null);
    // Assess
    const expected = new Map<string, { decline_code: string; category: string; occurrences: number; recovered: number }>();
    for (const payment of payments.filter((each) => each.decline_code !== null)) {
      const key = `${payment.decline_code}|${payment.decline_category}`;
      const known = expected.get(key) ?? { decline_code: payment.decline_code as string, category: payment.decline_category, occurrences: 0, recovered: 0 };
      expected.set(key, { ...known, occurrences: known.occurrences + 1, recovered: known.recovered + (payment.status === 'recovered' ? 1 : 0) });
    }
    const sorted = [...expected.values()].sort((a, b) => b.occurrences - a.occurrences || (a.decline_code < b.decline_code ? -1 : 1));
    expect(rows.map(({ decline_code, category, occurrences, recovered }) => ({ decline_code, category, occurrences, recovered }))).toEqual(sorted);
    expect(pages).toHaveLength(Math.ceil(sorted.length / 2));
    expect(rows.find((row) => row.decline_code === 'expired_card')?.subcategory).toBe('expired');
    expect(pages[0]?.data.without_decline_code).toEqual({
      occurrences: payments.filter((payment) => payment.decline_code === null).length,
      recovered: 0,
    });
  });

  it('refuses a decline-codes cursor with other filters than the request that issued it', async () => {
    // Prepare
    const first = await get<{ cursor: { next: string | null } }>('/analytics/decline-codes?limit=1');
    const cursor = encodeURIComponent(first.body.cursor.next ?? '');
    // Act
    const sameFilters = await get<{ data: { decline_codes: Array<{ decline_code: string }> } }>(`/analytics/decline-codes?limit=1&cursor=${cursor}`);
    const otherFilters = await get<{ error: { code: string; param: string } }>(`/analytics/decline-codes?limit=1&psp=stripe&cursor=${cursor}`);
    // Assess
    expect(first.body.cursor.next).not.toBeNull();
    expect(sameFilters.status).toBe(200);
    expect(otherFilters.status).toBe(400);
    expect(otherFilters.body.error).toMatchObject({ code: 'invalid_request', param: 'cursor' });
  });

  it('answers /analytics/recovery-breakdown by psp with each psp’s count, its series summing to it', async () => {
    // Act
    const response = await get<{ data: { segments: Array<{ segment: string; totals: Json; series: Array<{ total_failed: number }> }> } }>(
      '/analytics/recovery-breakdown?segment_by=psp&group_by=week',
    );
    // Assess
    expect(RecoveryBreakdownResponse.safeParse(response.body).error).toBeUndefined();
    const psps = [...new Set(payments.map((payment) => payment.psp))];
    expect(response.body.data.segments.map((segment) => segment.segment).sort()).toEqual(psps.sort());
    for (const segment of response.body.data.segments) {
      const direct = countOf(
        payments.filter((payment) => payment.psp === segment.segment),
        'usd',
      );
      expect(segment.totals).toMatchObject({
        total_failed: direct.total_failed,
        total_recovered: direct.total_recovered,
        total_terminal: direct.total_terminal,
      });
      expect(segment.series.reduce((total, point) => total + point.total_failed, 0)).toBe(direct.total_failed);
    }
  });

  it('answers /analytics/recovery-breakdown by campaign with the payments enrolled in each campaign, and no others', async () => {
    // Prepare: a merchant of its own with an active campaign for soft declines; ingest enrolls the failures it matches.
    const own = await newTenant(['admin'], UNLIMITED);
    const created = await call<{ data: { id: string } }>(`${api()}/campaigns`, {
      method: 'POST',
      key: own.key,
      body: { name: 'Soft declines', trigger_type: 'payment_failed_soft', steps: [{ action: 'email', delay_hours: 24, template_id: 'tmpl_soft_decline_1' }] },
    });
    const campaignId = created.body.data.id;
    expect((await call(`${api()}/campaigns/${campaignId}/activate`, { method: 'POST', key: own.key })).status).toBe(200);
    const ids: string[] = [];
    for (const [code, amount] of [
      ['insufficient_funds', 1000],
      ['insufficient_funds', 2000],
      ['expired_card', 4000],
    ] as const) {
      const response = await call<{ data: { payment_event_id: string } }>(`${api()}/ingest/payment-event`, {
        method: 'POST',
        key: own.key,
        body: {
          event_type: 'payment_failed',
          amount_cents: amount,
          currency: 'usd',
          customer_email: `${unique('enrolled')}@example.com`,
          decline_code: code,
          metadata: { psp: 'stripe', payment_id: unique('ch') },
        },
      });
      ids.push(response.body.data.payment_event_id);
    }
    await stack.runtime.stream.drain();
    // Act
    const response = await get<{ data: { segments: Array<{ segment: string; totals: { total_failed: number; total_failed_amount: number } }> } }>(
      '/analytics/recovery-breakdown?segment_by=campaign',
      own.key,
    );
    // Assess
    const enrolled: string[] = [];
    for (const id of ids) if ((await getEnrollment(own.merchant.id, id)) !== undefined) enrolled.push(id);
    expect(enrolled.length).toBeGreaterThan(0);
    const own_payments = (await get<{ data: Payment[] }>('/payments?per_page=100', own.key)).body.data.filter((payment) => enrolled.includes(payment.id));
    expect(response.body.data.segments).toEqual([
      expect.objectContaining({
        segment: campaignId,
        totals: expect.objectContaining({
          total_failed: enrolled.length,
          total_failed_amount: own_payments.reduce((total, payment) => total + payment.amount, 0),
        }),
      }),
    ]);
  }, 60_000);

  it("shows another merchant none of this merchant's figures", async () => {
    // Prepare
    const stranger = await newTenant(['analytics'], UNLIMITED);
    // Act
    const [recovery, atRisk] = await Promise.all([
      get<{ data: { summary: Json } }>('/analytics/recovery', stranger.key),
      get<{ data: Json }>('/analytics/at-risk', stranger.key),
    ]);
    // Assess
    expect(recovery.body.data.summary).toMatchObject({ total_failed: 0, total_recovered: 0 });
    expect(atRisk.body.data).toMatchObject({ at_risk_count: 0, paused_count: 0 });
  });
});
