import { type FailureCustomer, failureOf } from '#core/campaigns/failure';
import { catalogueRecoveryRate, earlierFailureCounts, type SimulationPlan, simulateCampaign } from '#core/campaigns/simulation';
import type { PaymentRecord } from '#core/payments';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const HOUR = 3_600_000;
const hoursBefore = (hours: number): string => new Date(NOW.getTime() - hours * HOUR).toISOString();

let sequence = 0;
const payment = (overrides: Partial<PaymentRecord> = {}): PaymentRecord => {
  sequence += 1;
  return {
    id: `pe_${sequence}`,
    customer_id: 'cust_a',
    psp: 'stripe',
    amount: 1000,
    currency: 'usd',
    status: 'retrying',
    decline_code: 'insufficient_funds',
    decline_category: 'soft_retry',
    decline_subcategory: 'balance',
    subscription_id: null,
    recovered_at: null,
    created_at: hoursBefore(100),
    ...overrides,
  } as PaymentRecord;
};

const plan: SimulationPlan = {
  trigger: 'soft_decline',
  filters: {},
  steps: [
    { action: 'email', delay_hours: 0, template_id: 'tmpl_a' },
    { action: 'retry', delay_hours: 24, template_id: null },
    { action: 'sms', delay_hours: 24, template_id: 'tmpl_b' },
  ],
  delay_hours: 0,
  stop_on_recovery: true,
};

describe('simulateCampaign', () => {
  it('runs every step of an open payment, and none of a payment the trigger does not match', () => {
    // Prepare
    const open = payment();
    const hard = payment({ decline_category: 'hard_customer', decline_subcategory: 'expired', decline_code: 'expired_card' });
    // Act
    const outcome = simulateCampaign(
      plan,
      [open, hard].map((p) => ({ payment: p, failure: failureOf(p) })),
      NOW,
    );
    // Assess
    expect(outcome).toMatchObject({
      payments_considered: 2,
      would_enroll: 1,
      messages: { email: 1, sms: 1, whatsapp: 0, total: 2 },
      retries: 1,
      steps_stopped_by_recovery: 0,
      enrolled_amount_by_currency: { usd: 1000 },
    });
  });

  it('skips the steps due after a recovery when stop_on_recovery holds, and counts them otherwise', () => {
    // Prepare: failed 100 h ago, recovered 90 h ago: the email (at 0 h) went out, the retry (24 h) and SMS (48 h) came after.
    const recovered = payment({ status: 'recovered', recovered_at: hoursBefore(90) });
    const replayed = [{ payment: recovered, failure: failureOf(recovered) }];
    // Act
    const stopping = simulateCampaign(plan, replayed, NOW);
    const continuing = simulateCampaign({ ...plan, stop_on_recovery: false }, replayed, NOW);
    // Assess
    expect(stopping).toMatchObject({ messages: { email: 1, sms: 0, total: 1 }, retries: 0, steps_stopped_by_recovery: 2 });
    expect(stopping.expected_recoveries.history).toEqual({ recoveries: 1, recovery_rate: 1, amount_by_currency: { usd: 1000 } });
    expect(continuing).toMatchObject({ messages: { email: 1, sms: 1, total: 2 }, retries: 1, steps_stopped_by_recovery: 0 });
  });

  it('counts a future step of an open payment and skips one of a payment already recovered', () => {
    // Prepare: failed 30 h ago, so the SMS (48 h) is still to come.
    const open = payment({ created_at: hoursBefore(30) });
    const recovered = payment({ created_at: hoursBefore(30), status: 'recovered', recovered_at: hoursBefore(1) });
    // Act
    const outcome = simulateCampaign(
      plan,
      [open, recovered].map((p) => ({ payment: p, failure: failureOf(p) })),
      NOW,
    );
    // Assess
    expect(outcome).toMatchObject({ messages: { email: 2, sms: 1 }, retries: 2, steps_stopped_by_recovery: 1 });
  });

  it('keeps amounts per currency and expects recoveries from the catalogue rates', () => {
    // Prepare
    const usd = payment({ amount: 1000 });
    const jpy = payment({ amount: 5000, currency: 'jpy', decline_code: 'not_in_any_catalogue', decline_subcategory: 'limit' });
    // Act
    const outcome = simulateCampaign(
      plan,
      [usd, jpy].map((p) => ({ payment: p, failure: failureOf(p) })),
      NOW,
    );
    // Assess
    const usdRate = catalogueRecoveryRate(usd);
    expect(catalogueRecoveryRate(jpy)).toBe(0.5);
    expect(outcome.enrolled_amount_by_currency).toEqual({ usd: 1000, jpy: 5000 });
    expect(outcome.expected_recoveries.catalogue.amount_by_currency).toEqual({ usd: Math.round(1000 * usdRate), jpy: 2500 });
    expect(outcome.expected_recoveries.catalogue.recoveries).toBeCloseTo(usdRate + 0.5, 2);
    expect(outcome.expected_recoveries.history).toEqual({ recoveries: 0, recovery_rate: 0, amount_by_currency: {} });
  });

  it('answers zero rates when nothing enrolls', () => {
    // Act
    const outcome = simulateCampaign(plan, [], NOW);
    // Assess
    expect(outcome.expected_recoveries.catalogue.recovery_rate).toBe(0);
    expect(outcome.would_enroll).toBe(0);
  });
});

describe('earlierFailureCounts', () => {
  it("counts each payment's earlier failures from the customer's total less its later payments in the set", () => {
    // Prepare
    const first = payment({ customer_id: 'cust_r', created_at: hoursBefore(50) });
    const second = payment({ customer_id: 'cust_r', created_at: hoursBefore(10) });
    const lone = payment({ customer_id: 'cust_l' });
    const customers = new Map<string, FailureCustomer>([
      ['cust_r', { failed_payments: 3, lifetime_value_by_currency: { usd: 900 } }],
      ['cust_l', { failed_payments: 1, lifetime_value_by_currency: {} }],
    ]);
    // Act
    const facts = earlierFailureCounts([second, lone, first], customers);
    // Assess
    expect(facts.get(second.id)).toEqual({ failed_payments: 2, lifetime_value_by_currency: { usd: 900 } });
    expect(facts.get(first.id)?.failed_payments).toBe(1);
    expect(facts.get(lone.id)?.failed_payments).toBe(0);
  });
});
