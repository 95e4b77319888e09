import { checkCampaignOverlapSchemas, simulateCampaignSchemas } from '#api/campaigns/schemas';
import { catalogueRecoveryRate } from '#core/campaigns/simulation';
import type { PaymentRecord } from '#core/payments';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { HARD_DECLINE, seedPayment, seedPaymentThrough } from '#test/fixtures/payments';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

interface Answer<T = Record<string, unknown>> {
  data: T;
  error?: { code: string; param?: string; message: string };
}
interface Overlap {
  matching_payments: number;
  has_overlap: boolean;
  overlaps: Array<{ campaign_id: string; name: string; overlapping_payments: number; enrolls_overlap_in: string }>;
  items_read: number;
  truncated: boolean;
}
interface Simulation {
  would_enroll: number;
  payments_considered: number;
  messages: { email: number; sms: number; whatsapp: number; total: number };
  retries: number;
  steps_stopped_by_recovery: number;
  steps_source: string;
  enrolled_amount_by_currency: Record<string, number>;
  expected_recoveries: {
    catalogue: { recoveries: number; recovery_rate: number; amount_by_currency: Record<string, number> };
    history: { recoveries: number; recovery_rate: number; amount_by_currency: Record<string, number> };
  };
  items_read: { payments: number; customers: number; total: number };
  truncated: boolean;
  note: string | null;
}

const DAY = 86_400_000;
const daysAgo = (days: number): Date => new Date(Date.now() - days * DAY);
const REPEAT = { customer: { email: 'repeat@example.com', name: 'Repeat' } };

describe('POST /api/v1/campaigns/overlap and /simulate', () => {
  let stack: LocalStack;
  let tenant: Tenant;
  let seeded: Record<'softUsd' | 'softEur' | 'hard' | 'terminal' | 'old' | 'recovered', PaymentRecord>;
  const campaigns: Record<string, string> = {};
  const url = (path: string): string => `${stack.api_url}/campaigns${path}`;
  const post = <T>(path: string, body: object, key = tenant.key) => call<Answer<T>>(url(path), { method: 'POST', key, body });

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], UNLIMITED);
    const m = tenant.merchant.id;
    // Oldest first, so that the repeat customer's failures come in order.
    const old = await seedPayment(m, { ...REPEAT, amount: 7000 }, daysAgo(40));
    const terminal = await seedPayment(
      m,
      { amount: 3000, retryAllowed: false, declineCategory: 'terminal', declineSubcategory: 'fraud', declineCode: 'fraudulent' },
      daysAgo(5),
    );
    const hard = await seedPayment(m, { amount: 4999, ...HARD_DECLINE }, daysAgo(4));
    const softEur = await seedPayment(m, { psp: 'adyen', currency: 'eur', amount: 1500, declineCode: 'Not enough balance' }, daysAgo(3));
    const softUsd = await seedPayment(m, { ...REPEAT, amount: 4999 }, daysAgo(2));
    const recovered = await seedPaymentThrough(m, ['retry', 'recover'], { ...REPEAT, amount: 2500 }, daysAgo(1));
    seeded = { softUsd, softEur, hard, terminal, old, recovered };

    const create = async (name: string, body: object): Promise<string> =>
      (await post<{ id: string }>('', { name, steps: [{ action: 'retry', delay_hours: 1 }], ...body })).body.data.id;
    campaigns.generic = await create('Everything', { trigger: 'payment_failed' });
    campaigns.softUsd = await create('Soft usd', { trigger: 'soft_decline', filters_json: '{"currency":"usd"}' });
    campaigns.expired = await create('Expired', { trigger: 'card_expired' });
    campaigns.draft = await create('Draft soft', { trigger: 'soft_decline' });
    for (const id of [campaigns.generic, campaigns.softUsd, campaigns.expired]) await post(`/${id}/activate`, {});
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  describe('overlap', () => {
    it('lists the active campaigns that would also enroll matching payments, with counts and who wins', async () => {
      // Act
      const response = await post<Overlap>('/overlap', { trigger: 'soft_decline' });
      // Assess
      expect(response.status).toBe(200);
      expect(() => checkCampaignOverlapSchemas.responses[200].parse(response.body)).not.toThrow();
      expect(response.body.data).toMatchObject({ matching_payments: 3, has_overlap: true, truncated: false });
      expect(response.body.data.overlaps).toEqual([
        {
          campaign_id: campaigns.generic,
          name: 'Everything',
          trigger: 'payment_failed',
          trigger_type: 'payment_failed',
          overlapping_payments: 3,
          enrolls_overlap_in: 'this_campaign',
        },
        {
          campaign_id: campaigns.softUsd,
          name: 'Soft usd',
          trigger: 'soft_decline',
          trigger_type: 'payment_failed_soft',
          overlapping_payments: 2,
          enrolls_overlap_in: 'existing_campaign',
        },
      ]);
    });

    it('narrows by filters_json (4 fields outrank the soft usd campaign), leaves out exclude_campaign_id, and never counts payments older than 30 days', async () => {
      // Act
      const response = await post<Overlap>('/overlap', {
        trigger: 'payment_failed',
        filters_json: '{"currency":"usd","amount_min":1,"decline_category":"soft_retry","psp":"stripe"}',
        exclude_campaign_id: campaigns.generic,
      });
      // Assess
      expect(response.body.data.matching_payments).toBe(2);
      expect(response.body.data.overlaps).toEqual([
        expect.objectContaining({ campaign_id: campaigns.softUsd, overlapping_payments: 2, enrolls_overlap_in: 'this_campaign' }),
      ]);
    });

    it('finds no overlap for a trigger no active campaign shares, and none with another merchant', async () => {
      // Prepare
      const stranger = await newTenant(['admin']);
      // Act
      const expiring = await post<Overlap>('/overlap', { trigger: 'card_expiring' });
      const theirs = await post<Overlap>('/overlap', { trigger: 'soft_decline' }, stranger.key);
      // Assess
      expect(expiring.body.data).toMatchObject({ has_overlap: false, overlaps: [], matching_payments: 0 });
      expect(theirs.body.data).toMatchObject({ has_overlap: false, overlaps: [], matching_payments: 0 });
    });

    it.each([
      ['a missing trigger', {}, 400, 'trigger'],
      ['an unknown trigger', { trigger: 'payday' }, 422, 'trigger'],
      ['filters_json with an unknown field', { trigger: 'soft_decline', filters_json: '{"region":"eu"}' }, 422, 'filters_json'],
    ])('refuses %s naming the field', async (_name, body, status, param) => {
      // Act
      const response = await post<Overlap>('/overlap', body);
      // Assess
      expect([response.status, response.body.error?.param]).toEqual([status, param]);
    });
  });

  describe('simulate', () => {
    const steps = [
      { action: 'email', delay_hours: 0, template_id: 'tmpl_soft_decline_1' },
      { action: 'retry', delay_hours: 48 },
      { action: 'sms', delay_hours: 24, template_id: 'tmpl_card_update_sms' },
    ];

    it('replays the last 30 days: enrollments, messages per channel, stops on recovery and expected recoveries per currency', async () => {
      // Act
      const response = await post<Simulation>('/simulate', { trigger: 'soft_decline', steps });
      // Assess
      expect(response.status).toBe(200);
      expect(() => simulateCampaignSchemas.responses[200].parse(response.body)).not.toThrow();
      const { softUsd, softEur, recovered } = seeded;
      const rates = [softUsd, softEur, recovered].map(catalogueRecoveryRate);
      expect(response.body.data).toMatchObject({
        steps_source: 'request',
        payments_considered: 3,
        would_enroll: 3,
        // The recovered payment gets its first email; its retry and SMS fall after its recovery.
        messages: { email: 3, sms: 2, whatsapp: 0, total: 5 },
        retries: 2,
        steps_stopped_by_recovery: 2,
        enrolled_amount_by_currency: { usd: 4999 + 2500, eur: 1500 },
        items_read: { payments: 3, customers: 0, total: 3 },
        truncated: false,
        note: null,
      });
      expect(response.body.data.expected_recoveries.history).toEqual({ recoveries: 1, recovery_rate: 0.33, amount_by_currency: { usd: 2500 } });
      expect(response.body.data.expected_recoveries.catalogue.recoveries).toBeCloseTo(
        rates.reduce((a, b) => a + b, 0),
        2,
      );
      expect(response.body.data.expected_recoveries.catalogue.amount_by_currency).toEqual({
        usd: Math.round(4999 * (rates[0] as number)) + Math.round(2500 * (rates[2] as number)),
        eur: Math.round(1500 * (rates[1] as number)),
      });
    });

    it('counts every step when stop_on_recovery is false, and reaches older payments with a longer lookback_days', async () => {
      // Act
      const noStop = await post<Simulation>('/simulate', { trigger: 'soft_decline', steps, stop_on_recovery: false });
      const sixtyDays = await post<Simulation>('/simulate', { trigger: 'payment_failed_soft', steps, lookback_days: 60 });
      // Assess
      expect(noStop.body.data).toMatchObject({ messages: { email: 3, sms: 3, total: 6 }, retries: 3, steps_stopped_by_recovery: 0 });
      expect(sixtyDays.body.data.would_enroll).toBe(4);
    });

    it("uses the trigger's template cadence when no steps are sent", async () => {
      // Act
      const response = await post<Simulation>('/simulate', { trigger: 'payment_failed_hard' });
      // Assess
      expect(response.body.data).toMatchObject({ steps_source: 'template:hard_decline', would_enroll: 2, payments_considered: 2 });
      expect(response.body.data.messages.email).toBeGreaterThan(0);
    });

    it('reads customers for a segment filter, counting failures before the window as earlier ones', async () => {
      // Act
      const response = await post<Simulation>('/simulate', { trigger: 'any_decline', filters_json: '{"customer_segment":"repeat_failure"}', steps });
      // Assess
      expect(response.body.data.would_enroll).toBe(2);
      expect(response.body.data.payments_considered).toBe(5);
      expect(response.body.data.items_read.customers).toBeGreaterThan(0);
      expect(response.body.data.items_read.total).toBe(5 + response.body.data.items_read.customers);
    });

    it('enrolls nothing, and says why, for a trigger that enrolls no failed payment', async () => {
      // Act
      const response = await post<Simulation>('/simulate', { trigger: 'pre_dunning' });
      // Assess
      expect(response.body.data).toMatchObject({ would_enroll: 0, payments_considered: 0, items_read: { total: 0 } });
      expect(response.body.data.note).toContain('card-expiry check');
    });

    it("sees none of another merchant's payments", async () => {
      // Prepare
      const stranger = await newTenant(['admin']);
      // Act
      const response = await post<Simulation>('/simulate', { trigger: 'payment_failed', steps }, stranger.key);
      // Assess
      expect(response.body.data).toMatchObject({ would_enroll: 0, payments_considered: 0 });
    });

    it.each([
      ['a missing trigger', { steps }, 400, 'trigger'],
      ['lookback_days 0', { trigger: 'soft_decline', lookback_days: 0 }, 422, 'lookback_days'],
      ['lookback_days 366', { trigger: 'soft_decline', lookback_days: 366 }, 422, 'lookback_days'],
      ['lookback_days 1.5', { trigger: 'soft_decline', lookback_days: 1.5 }, 422, 'lookback_days'],
      ['a step without template', { trigger: 'soft_decline', steps: [{ action: 'whatsapp', delay_hours: 0, template_id: null }] }, 422, 'steps.0.template_id'],
      ['filters_json that is not JSON', { trigger: 'soft_decline', filters_json: 'usd' }, 422, 'filters_json'],
    ])('refuses %s naming the field', async (_name, body, status, param) => {
      // Act
      const response = await post<Simulation>('/simulate', body);
      // Assess
      expect([response.status, response.body.error?.param]).toEqual([status, param]);
    });
  });
});
