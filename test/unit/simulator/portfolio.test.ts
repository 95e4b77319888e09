import { classifyDecline } from '#core/decline-codes/index';
import { paydayDistance, successProbability, contextOf } from '#simulator/curves';
import { DECLINE_KINDS } from '#simulator/parameters';
import { buildPortfolio, declineOfKind } from '#simulator/portfolio';

const share = (count: number, total: number): number => count / total;

describe('simulator portfolio', () => {
  it('is the same for the same seed and differs for another', () => {
    // Act
    const first = buildPortfolio(7, 300);
    const again = buildPortfolio(7, 300);
    const other = buildPortfolio(8, 300);
    // Assess
    expect(again).toEqual(first);
    expect(other.payments.map((p) => [p.kind, p.amount])).not.toEqual(first.payments.map((p) => [p.kind, p.amount]));
  });

  it('follows the published decline mix: 80-90 % soft declines, insufficient funds the largest share', () => {
    // Act
    const { payments } = buildPortfolio(11, 4000);
    // Assess
    const byKind = Object.fromEntries(DECLINE_KINDS.map((k) => [k, payments.filter((p) => p.kind === k).length])) as Record<
      (typeof DECLINE_KINDS)[number],
      number
    >;
    const soft = byKind.insufficient_funds + byKind.generic + byKind.limit + byKind.processing;
    expect(share(soft, payments.length)).toBeGreaterThanOrEqual(0.78);
    expect(share(soft, payments.length)).toBeLessThanOrEqual(0.88);
    const largest = Object.entries(byKind).sort(([, a], [, b]) => b - a)[0]?.[0];
    expect(largest).toBe('insufficient_funds');
  });

  it('has several currencies, the three network groups, time zones, customers with several cards and several payments', () => {
    // Act
    const { payments, customers } = buildPortfolio(3, 500);
    // Assess
    expect(new Set(payments.map((p) => p.currency)).size).toBeGreaterThanOrEqual(4);
    expect(new Set(payments.map((p) => p.card.network))).toEqual(new Set(['visa', 'mastercard', 'other']));
    expect(new Set(customers.map((c) => c.timezone)).size).toBeGreaterThanOrEqual(5);
    expect(customers.some((c) => c.cards.length > 1)).toBe(true);
    const perCustomer = new Map<number, number>();
    for (const p of payments) perCustomer.set(p.customer.index, (perCustomer.get(p.customer.index) ?? 0) + 1);
    expect([...perCustomer.values()].some((n) => n > 1)).toBe(true);
    expect(payments.every((p) => Number.isInteger(p.amount) && p.amount > 0)).toBe(true);
  });

  it("gives each kind codes the service's classifier reads as that kind", () => {
    // Act
    const classify = (kind: (typeof DECLINE_KINDS)[number], network: 'visa' | 'mastercard' | 'other', uniform = 0.1) => {
      const d = declineOfKind(kind, network, uniform);
      return classifyDecline({
        psp: 'stripe',
        declineCode: d.declineCode,
        network: d.network === 'other' ? undefined : d.network,
        networkCode: d.networkCode,
        adviceCode: d.adviceCode,
      });
    };
    // Assess
    expect(classify('insufficient_funds', 'visa')).toMatchObject({ category: 'soft_retry', subcategory: 'balance' });
    expect(classify('limit', 'mastercard').category).toBe('soft_retry');
    expect(classify('processing', 'other').category).toBe('soft_retry');
    expect(classify('generic', 'visa').retry.allowed).toBe(true);
    expect(classify('expired', 'visa').category).toBe('hard_customer');
    for (const uniform of [0.1, 0.9]) {
      expect(classify('do_not_retry', 'visa', uniform)).toMatchObject({ category: 'terminal', retry: { allowed: false } });
      expect(classify('do_not_retry', 'mastercard', uniform)).toMatchObject({ category: 'terminal', retry: { allowed: false } });
    }
    expect(classify('do_not_retry', 'other').retry.allowed).toBe(false);
  });
});

describe('simulator recovery curves', () => {
  const base = { kind: 'insufficient_funds' as const, failedAt: new Date('2026-01-05T12:00:00Z'), timezone: 'America/New_York', nudged: false };

  it('counts days to and since the payday (the 1st, the 15th, the last day) in the local calendar', () => {
    // Act
    const onPayday = paydayDistance(new Date('2026-01-15T15:00:00Z'), 'America/New_York');
    const before = paydayDistance(new Date('2026-01-13T15:00:00Z'), 'America/New_York');
    // 2026-02-01 03:00 UTC is still 31 January (the last day) in New York.
    const lastDay = paydayDistance(new Date('2026-02-01T03:00:00Z'), 'America/New_York');
    // Assess
    expect(onPayday).toEqual({ toPayday: 0, sincePayday: 0 });
    expect(before).toEqual({ toPayday: 2, sincePayday: 12 });
    expect(lastDay).toEqual({ toPayday: 0, sincePayday: 0 });
  });

  it('lowers the chance with each attempt, right after the failure and just before payday; raises it after payday', () => {
    // Prepare
    const p = (attempt: number, at: string) => successProbability(contextOf({ ...base, attempt, at: new Date(at) }));
    // Act
    const day2 = p(1, '2026-01-07T14:00:00Z');
    const day2Third = p(3, '2026-01-07T14:00:00Z');
    const sameHour = p(1, '2026-01-05T13:00:00Z');
    const paydayMorning = p(1, '2026-01-15T14:00:00Z');
    const beforePayday = p(1, '2026-01-13T14:00:00Z');
    // Assess
    expect(day2Third).toBeLessThan(day2);
    expect(sameHour).toBeLessThan(day2);
    expect(paydayMorning).toBeGreaterThan(day2);
    expect(beforePayday).toBeLessThan(day2);
    for (const value of [day2, day2Third, sameHour, paydayMorning, beforePayday]) {
      expect(value).toBeGreaterThan(0);
      expect(value).toBeLessThanOrEqual(0.95);
    }
    expect(successProbability(contextOf({ ...base, kind: 'expired', attempt: 1, at: new Date('2026-01-07T14:00:00Z') }))).toBe(0);
  });
});
