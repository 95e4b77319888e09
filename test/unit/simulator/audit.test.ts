import { auditAuthorisations } from '#simulator/audit';
import type { Authorisation } from '#simulator/world';

const T0 = Date.parse('2026-01-05T00:00:00.000Z');
const HOUR = 3_600_000;
const auth = (over: Partial<Authorisation> & { hours: number }): Authorisation => ({
  payment: 0,
  card: 'card_a#0',
  network: 'visa',
  amount: 1999,
  currency: 'usd',
  at: new Date(T0 + over.hours * HOUR),
  attempt: 1,
  succeeded: false,
  decline: { declineCode: 'insufficient_funds', network: over.network ?? 'visa' },
  ...over,
});

describe('simulator network-rule audit', () => {
  it('counts the 21st Visa reattempt of a card, amount and currency in 30 days, not other amounts', () => {
    // Prepare
    const reattempts = Array.from({ length: 21 }, (_, i) => auth({ hours: i * 24, attempt: i + 1 }));
    const otherAmount = auth({ hours: 22 * 24, amount: 999 });
    // Act
    const result = auditAuthorisations([auth({ hours: -1, attempt: 0 }), ...reattempts, otherAmount]);
    // Assess
    expect(result.byRule.visa_excessive_reattempts).toBe(1);
    expect(result.total).toBe(1);
    expect(result.feesUsdCents).toBe(10);
  });

  it('counts Mastercard attempts beyond 10 in 24 hours and 35 in 30 days, any amount', () => {
    // Prepare
    const day = Array.from({ length: 11 }, (_, i) => auth({ network: 'mastercard', hours: i, attempt: i, amount: 1000 + i }));
    const month = Array.from({ length: 36 }, (_, i) => auth({ card: 'card_b#0', network: 'mastercard', hours: i * 19, attempt: i }));
    // Act
    const result = auditAuthorisations([...day, ...month]);
    // Assess
    expect(result.byRule.mastercard_10_per_24h).toBe(1);
    expect(result.byRule.mastercard_35_per_30d).toBe(1);
    expect(result.feesUsdCents).toBe(100);
  });

  it('counts every retry after a Visa category 1 answer or a Mastercard MAC 03/21 on the card, and none on a new card', () => {
    // Prepare
    const visa = [
      auth({ hours: 0, attempt: 0, decline: { declineCode: 'do_not_honor', network: 'visa', networkCode: '46' } }),
      auth({ hours: 24, attempt: 1 }),
      auth({ hours: 48, attempt: 2 }),
      auth({ card: 'card_a#1', hours: 72, attempt: 3, succeeded: true, decline: null }),
    ];
    const mastercard = [
      auth({
        card: 'card_m#0',
        network: 'mastercard',
        hours: 0,
        attempt: 0,
        decline: { declineCode: 'do_not_honor', network: 'mastercard', adviceCode: '21' },
      }),
      auth({ card: 'card_m#0', network: 'mastercard', hours: 30, attempt: 1 }),
    ];
    // Act
    const result = auditAuthorisations([...visa, ...mastercard]);
    // Assess
    expect(result.byRule).toMatchObject({ visa_category_1_reattempt: 2, mastercard_mac_03_21_retry: 1 });
    expect(result.total).toBe(3);
    expect(result.feesUsdCents).toBe(2 * 10 + 3);
  });

  it('finds nothing in attempts within every rule', () => {
    // Act
    const result = auditAuthorisations(Array.from({ length: 8 }, (_, i) => auth({ hours: i * 42, attempt: i })));
    // Assess
    expect(result).toEqual({ total: 0, byRule: expect.any(Object), feesUsdCents: 0 });
  });
});
