import { cardExpiryMonth, cardExpiryOf, sameCardExpiry } from '#core/customers';
import { type CustomerRecord, customerMoneyAfter, foldForSearch, NO_MONEY, OPEN_PAYMENT_REFS_KEPT, openPaymentRefsAfter, searchTermsOf } from '#core/customers';

const customer = (money = NO_MONEY): CustomerRecord => ({ ...money }) as CustomerRecord;
const payment = (amount: number, currency: string, day: number) => ({ amount, currency, created_at: `2026-10-0${day}T00:00:00.000Z` });

describe('customerMoneyAfter', () => {
  it('adds a new payment to the failed totals of its currency and takes its currency', () => {
    // Act
    const money = customerMoneyAfter(customer(), payment(2900, 'usd', 1), { created: true, recovered: false });
    // Assess
    expect(money).toEqual({
      currency: 'usd',
      currency_at: '2026-10-01T00:00:00.000Z',
      total_failed_cents: 2900,
      total_recovered_cents: 0,
      lifetime_value_cents: 0,
      total_failed_by_currency: { usd: 2900 },
      total_recovered_by_currency: {},
      lifetime_value_by_currency: {},
    });
  });

  it('never adds currencies: 2 × 2900 usd and 3000 jpy recovered give 3000 in jpy (the most recent) and each total per currency', () => {
    // Prepare
    let current = customer();
    for (const p of [payment(2900, 'usd', 1), payment(2900, 'usd', 2), payment(3000, 'jpy', 3)]) {
      current = { ...current, ...customerMoneyAfter(current, p, { created: true, recovered: false }) };
      current = { ...current, ...customerMoneyAfter(current, p, { created: false, recovered: true }) };
    }
    // Assess
    expect(current).toMatchObject({
      currency: 'jpy',
      total_failed_cents: 3000,
      total_recovered_cents: 3000,
      lifetime_value_cents: 3000,
      total_failed_by_currency: { usd: 5800, jpy: 3000 },
      total_recovered_by_currency: { usd: 5800, jpy: 3000 },
      lifetime_value_by_currency: { usd: 5800, jpy: 3000 },
    });
  });

  it('keeps the currency of the most recent payment when an older one is recorded or recovered later', () => {
    // Prepare: jpy on day 3, then a usd payment of day 1 arrives late.
    const jpy = { ...customer(), ...customerMoneyAfter(customer(), payment(3000, 'jpy', 3), { created: true, recovered: false }) };
    // Act
    const money = customerMoneyAfter(jpy, payment(2900, 'usd', 1), { created: true, recovered: true });
    // Assess
    expect(money).toMatchObject({
      currency: 'jpy',
      total_failed_cents: 3000,
      lifetime_value_cents: 0,
      lifetime_value_by_currency: { usd: 2900 },
      total_failed_by_currency: { jpy: 3000, usd: 2900 },
    });
  });
});

describe('searchTermsOf', () => {
  it('indexes the whole name and email and each of their words, folded (case and accents)', () => {
    // Act
    const terms = searchTermsOf({ name: 'Gina Müller', email: 'gina.mueller@example.com' });
    // Assess
    expect(terms).toEqual(['gina muller', 'gina.mueller@example.com', 'gina', 'muller', 'mueller', 'example', 'com']);
  });

  it('indexes only the email of a customer without a name, and never a term with the key separator #', () => {
    // Act
    const terms = searchTermsOf({ name: null, email: 'a#b@example.com' });
    // Assess
    expect(terms).toEqual(['a', 'b', 'example', 'com']);
  });

  it('bounds the number and length of terms', () => {
    // Act
    const terms = searchTermsOf({ name: Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '), email: `${'x'.repeat(150)}@example.com` });
    // Assess
    expect(terms.length).toBe(24);
    expect(Math.max(...terms.map((term) => term.length))).toBe(100);
  });
});

describe('foldForSearch', () => {
  it.each([
    ['  Gina MÜLLER ', 'gina muller'],
    ['Zoë', 'zoe'],
    ['Ångström', 'angstrom'],
    ['ﬁle', 'file'],
  ])('folds %j to %j', (text, folded) => {
    // Act, Assess
    expect(foldForSearch(text)).toBe(folded);
  });
});

describe('openPaymentRefsAfter', () => {
  const ref = (id: string, day: number) => ({ id, amount: 100 * day, currency: 'usd', created_at: `2026-10-0${day}T00:00:00.000Z` });
  const kept = (refs: ReturnType<typeof ref>[], open = refs.length) => ({ open_payment_refs: refs, open_payments: open });

  it('puts a newly open payment in order of creation, newest first, and keeps at most the newest few', () => {
    // Prepare
    const full = kept([9, 8, 7, 6, 5].map((day) => ref(`pay_${day}`, day)));
    // Act
    const older = openPaymentRefsAfter(kept([ref('pay_3', 3)]), { ...ref('pay_2', 2), open: true }, 2);
    const newest = openPaymentRefsAfter(full, { ...ref('pay_1', 1), open: true }, 6);
    // Assess
    expect(older?.map((r) => r.id)).toEqual(['pay_3', 'pay_2']);
    expect(newest).toHaveLength(OPEN_PAYMENT_REFS_KEPT);
    expect(newest?.map((r) => r.id)).toEqual(['pay_9', 'pay_8', 'pay_7', 'pay_6', 'pay_5']);
  });

  it('takes a payment that closes off the list, and a payment that stays open is listed once', () => {
    // Prepare
    const customer = kept([ref('pay_2', 2), ref('pay_1', 1)]);
    // Act
    const closed = openPaymentRefsAfter(customer, { ...ref('pay_2', 2), open: false }, 1);
    const stillOpen = openPaymentRefsAfter(customer, { ...ref('pay_1', 1), open: true }, 2);
    // Assess
    expect(closed?.map((r) => r.id)).toEqual(['pay_1']);
    expect(stillOpen?.map((r) => r.id)).toEqual(['pay_2', 'pay_1']);
  });

  it('leaves a list never kept unknown while open payments remain, and empty once none does', () => {
    // Prepare: a customer written before the list was kept, with two open payments
    const legacy = { open_payments: 2 };
    // Act
    const oneLeft = openPaymentRefsAfter(legacy, { ...ref('pay_1', 1), open: false }, 1);
    const noneLeft = openPaymentRefsAfter({ open_payments: 1 }, { ...ref('pay_2', 2), open: false }, 0);
    const fresh = openPaymentRefsAfter({ open_payments: 0 }, { ...ref('pay_3', 3), open: true }, 1);
    // Assess
    expect(oneLeft).toBeUndefined();
    expect(noneLeft).toEqual([]);
    expect(fresh?.map((r) => r.id)).toEqual(['pay_3']);
  });
});

describe('cardExpiryOf', () => {
  it.each([
    [7, 2027, { month: 7, year: 2027 }],
    ['07', '2027', { month: 7, year: 2027 }],
    [' 12 ', 2199, { month: 12, year: 2199 }],
    [0, 2027, undefined],
    [13, 2027, undefined],
    [7, 27, undefined],
    [7, 2200, undefined],
    [7.5, 2027, undefined],
    ['July', 2027, undefined],
    [undefined, 2027, undefined],
    [7, null, undefined],
  ])('reads month %p and year %p as %p', (month, year, expected) => {
    // Act
    const expiry = cardExpiryOf(month, year);
    // Assess
    expect(expiry).toEqual(expected);
  });

  it('names the month of an expiry and compares expiries, null and absent being the same', () => {
    // Assess
    expect(cardExpiryMonth({ month: 3, year: 2027 })).toBe('2027-03');
    expect(sameCardExpiry({ month: 3, year: 2027 }, { month: 3, year: 2027 })).toBe(true);
    expect(sameCardExpiry({ month: 3, year: 2027 }, { month: 4, year: 2027 })).toBe(false);
    expect(sameCardExpiry(null, undefined)).toBe(true);
    expect(sameCardExpiry(null, { month: 3, year: 2027 })).toBe(false);
    expect(sameCardExpiry({ month: 3, year: 2027 }, null)).toBe(false);
  });
});
