import type { PaymentRecord, PaymentStatus } from '#core/payments';
import { summariseSubscription } from '#core/subscriptions';

const payment = (status: PaymentStatus, amount: number, currency = 'usd', created_at = '2026-10-01T00:00:00.000Z'): PaymentRecord =>
  ({ status, amount, currency, created_at }) as PaymentRecord;

describe('summariseSubscription', () => {
  it('answers unknown with zeros when no failure is recorded', () => {
    // Act
    const summary = summariseSubscription('sub_1', []);
    // Assess
    expect(summary).toEqual({
      subscriptionId: 'sub_1',
      status: 'unknown',
      failedCount: 0,
      openCount: 0,
      recoveredCount: 0,
      terminalCount: 0,
      atRiskAmount: 0,
      recoveredAmount: 0,
      atRiskByCurrency: {},
      recoveredByCurrency: {},
      recoveryRate: 0,
      currency: null,
    });
  });

  it.each(['pending', 'retrying', 'paused'] as const)('answers at_risk and counts the amount at risk when one failure is %s', (status) => {
    // Act
    const summary = summariseSubscription('sub_1', [payment(status, 700), payment('recovered', 300)]);
    // Assess
    expect(summary).toMatchObject({
      status: 'at_risk',
      failedCount: 2,
      openCount: 1,
      atRiskAmount: 700,
      recoveredAmount: 300,
      recoveryRate: 0.5,
      currency: 'usd',
    });
  });

  it('answers recovered when every failure was recovered', () => {
    // Act
    const summary = summariseSubscription('sub_1', [payment('recovered', 100), payment('recovered', 200)]);
    // Assess
    expect(summary).toMatchObject({ status: 'recovered', atRiskAmount: 0, recoveredAmount: 300, recoveryRate: 1 });
  });

  it('answers at_risk with nothing at risk when nothing is open but a failure ended terminal', () => {
    // Act
    const onlyTerminal = summariseSubscription('sub_1', [payment('terminal', 500)]);
    const mixed = summariseSubscription('sub_1', [payment('terminal', 500), payment('recovered', 200)]);
    // Assess
    expect(onlyTerminal).toMatchObject({ status: 'at_risk', atRiskAmount: 0, terminalCount: 1, recoveryRate: 0 });
    expect(mixed).toMatchObject({ status: 'at_risk', atRiskAmount: 0, recoveredAmount: 200, terminalCount: 1, recoveryRate: 0.5 });
  });

  it('never adds currencies: the amounts are in the currency of the most recent failure, and per currency', () => {
    // Prepare: 2 × 2900 usd, then 3000 jpy, given in no particular order.
    const payments = [
      payment('pending', 2900, 'usd', '2026-10-01T00:00:00.000Z'),
      payment('retrying', 3000, 'jpy', '2026-10-03T00:00:00.000Z'),
      payment('paused', 2900, 'usd', '2026-10-02T00:00:00.000Z'),
    ];
    // Act
    const summary = summariseSubscription('sub_1', payments);
    // Assess
    expect(summary).toMatchObject({
      currency: 'jpy',
      atRiskAmount: 3000,
      atRiskByCurrency: { usd: 5800, jpy: 3000 },
      recoveredAmount: 0,
      recoveredByCurrency: {},
    });
  });

  it("gives a currency with no amount of its own 0 in the scalar, not another currency's total", () => {
    // Act: the newest failure (eur) is recovered, the usd one is open.
    const summary = summariseSubscription('sub_1', [
      payment('pending', 100, 'usd', '2026-10-01T00:00:00.000Z'),
      payment('recovered', 200, 'eur', '2026-10-02T00:00:00.000Z'),
    ]);
    // Assess
    expect(summary).toMatchObject({
      currency: 'eur',
      atRiskAmount: 0,
      atRiskByCurrency: { usd: 100 },
      recoveredAmount: 200,
      recoveredByCurrency: { eur: 200 },
    });
  });
});
