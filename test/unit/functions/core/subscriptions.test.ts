import type { PaymentRecord, PaymentStatus } from '../../../../functions/core/payments';
import { summariseSubscription } from '../../../../functions/core/subscriptions';

const payment = (status: PaymentStatus, amount: number, currency = 'usd'): PaymentRecord => ({ status, amount, currency }) as PaymentRecord;

describe('summariseSubscription', () => {
  it('answers unknown with zeros when no failure is recorded', () => {
    // Act
    const summary = summariseSubscription('sub_1', []);
    // Assess
    expect(summary).toEqual({ subscriptionId: 'sub_1', status: 'unknown', failedCount: 0, openCount: 0, recoveredCount: 0, terminalCount: 0, atRiskAmount: 0, recoveredAmount: 0, recoveryRate: 0, currency: null });
  });

  it.each(['pending', 'retrying', 'paused'] as const)('answers at_risk and counts the amount at risk when one failure is %s', (status) => {
    // Act
    const summary = summariseSubscription('sub_1', [payment(status, 700), payment('recovered', 300)]);
    // Assess
    expect(summary).toMatchObject({ status: 'at_risk', failedCount: 2, openCount: 1, atRiskAmount: 700, recoveredAmount: 300, recoveryRate: 0.5, currency: 'usd' });
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

  it('reports no currency when the failures mix currencies', () => {
    // Act
    const summary = summariseSubscription('sub_1', [payment('pending', 100, 'usd'), payment('pending', 100, 'eur')]);
    // Assess
    expect(summary.currency).toBeNull();
  });
});
