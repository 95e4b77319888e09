import { blocked, type CardLedger, cardIdentityOf, checkCardCaps, emptyLedger, withAttempt } from '#core/card-caps';

const HOUR = 3_600_000;
const T = new Date('2026-12-01T12:00:00.000Z');
const at = (hoursAgo: number): string => new Date(T.getTime() - hoursAgo * HOUR).toISOString();
const ledgerWith = (attempts: Array<{ hoursAgo: number; amount?: number; currency?: string }>): CardLedger =>
  attempts.reduce(
    (ledger, a) => withAttempt(ledger, { at: at(a.hoursAgo), amount: a.amount ?? 1000, currency: a.currency ?? 'usd' }),
    emptyLedger('cust:stripe:cust_1'),
  );
const charge = { amount: 1000, currency: 'usd' };

describe('card-network caps', () => {
  it('allows the 10th Mastercard attempt in 24 hours and holds the 11th until the oldest leaves the window', () => {
    // Prepare
    const nine = ledgerWith(Array.from({ length: 9 }, (_, i) => ({ hoursAgo: 20 - i })));
    const ten = withAttempt(nine, { at: at(1), amount: 1000, currency: 'usd' });
    // Act
    const tenth = checkCardCaps(nine, 'mastercard', charge, T);
    const eleventh = checkCardCaps(ten, 'mastercard', charge, T);
    // Assess
    expect(tenth).toEqual({ allowed: true });
    expect(eleventh).toMatchObject({ allowed: false, blocked: false, reason: expect.stringContaining('Mastercard: 10 attempts per card in 24 hours') });
    if (!eleventh.allowed && !eleventh.blocked)
      expect(eleventh.nextAllowedAt.toISOString()).toBe(new Date(Date.parse(at(20)) + 24 * HOUR + 1000).toISOString());
  });

  it('counts every amount on a Mastercard but only the same amount and currency on a Visa card', () => {
    // Prepare: 20 attempts in 30 days, of another amount
    const other = ledgerWith(Array.from({ length: 20 }, (_, i) => ({ hoursAgo: 24 * (i + 1), amount: 5000 })));
    const same = ledgerWith(Array.from({ length: 20 }, (_, i) => ({ hoursAgo: 24 * (i + 1) })));
    // Act / Assess
    expect(checkCardCaps(other, 'visa', charge, T)).toEqual({ allowed: true });
    expect(checkCardCaps(same, 'visa', charge, T)).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('Visa: 20 reattempts per card, amount and currency in 30 days'),
    });
    expect(checkCardCaps(other, 'mastercard', { amount: 1000, currency: 'eur' }, T)).toEqual({ allowed: true });
  });

  it('holds 35 Mastercard attempts in 30 days and applies the strictest limits to an unknown network', () => {
    // Prepare: 35 in 30 days, never more than 2 a day
    const monthly = ledgerWith(Array.from({ length: 35 }, (_, i) => ({ hoursAgo: 12 * (i + 1) + 30 })));
    const twenty = ledgerWith(Array.from({ length: 20 }, (_, i) => ({ hoursAgo: 30 * (i + 1), amount: 100 + i })));
    // Act / Assess
    expect(checkCardCaps(monthly, 'mastercard', charge, T)).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('35 attempts per card in 30 days'),
    });
    expect(checkCardCaps(twenty, null, charge, T)).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('unknown network: 20 attempts per card in 30 days'),
    });
    expect(checkCardCaps(twenty, 'visa', charge, T)).toEqual({ allowed: true });
  });

  it('refuses every attempt on a blocked card for 30 days, then allows again', () => {
    // Prepare
    const ledger = blocked(emptyLedger('fp:stripe:abc'), T, 'Mastercard merchant advice code 03');
    // Act / Assess
    expect(checkCardCaps(ledger, 'visa', charge, new Date(T.getTime() + 29 * 24 * HOUR))).toMatchObject({
      allowed: false,
      blocked: true,
      reason: expect.stringContaining('advice code 03'),
    });
    expect(checkCardCaps(ledger, 'visa', charge, new Date(T.getTime() + 30 * 24 * HOUR + 1))).toEqual({ allowed: true });
  });

  it('keeps only the last 30 days of attempts in the ledger', () => {
    // Act
    const ledger = withAttempt(ledgerWith([{ hoursAgo: 31 * 24 }, { hoursAgo: 29 * 24 }]), { at: T.toISOString(), amount: 1, currency: 'usd' });
    // Assess
    expect(ledger.attempts.map((a) => a.at)).toEqual([at(29 * 24), T.toISOString()]);
  });

  it('names a card by its fingerprint when known, else by the customer and card generation', () => {
    expect(cardIdentityOf({ psp: 'stripe', customerId: 'cust_1', fingerprint: 'Xt5' })).toBe('fp:stripe:Xt5');
    expect(cardIdentityOf({ psp: 'stripe', customerId: 'cust_1' })).toBe('cust:stripe:cust_1');
    expect(cardIdentityOf({ psp: 'stripe', customerId: 'cust_1', cardGeneration: '2026-12-01T00:00:00.000Z' })).toBe(
      'cust:stripe:cust_1:2026-12-01T00:00:00.000Z',
    );
  });
});
