import {
  MASTERCARD_ADVICE_CODES,
  normaliseNetwork,
  normaliseNetworkCode,
  resolveAdviceCode,
  STRIPE_ADVICE_CODES,
  VISA_RESPONSE_RULES,
  visaCategoryOf,
  visaResponseRule,
} from '#core/decline-codes/card-network-rules';

describe('visaCategoryOf', () => {
  it.each([
    [1, ['04', '07', '12', '15', '41', '43', '46', '57', 'R0', 'R1', 'R3']],
    [2, ['19', '51', '59', '61', '65', '75', '86', '91', '96', 'N3', 'N4', '5C', '9G']],
    [3, ['14', '54', '55', 'N7', '82', '1A']],
    [4, ['05', '01', '03', '62', '78', '93', '00', 'ZZ']],
  ] as const)('returns category %i when given each of its codes', (category, codes) => {
    // Act
    const categories = codes.map(visaCategoryOf);
    // Assess
    expect(categories).toEqual(codes.map(() => category));
  });

  it('reads codes as issuers send them when given lower case, spaces or a single digit', () => {
    // Act
    const results = [visaCategoryOf('4'), visaCategoryOf(' r1 '), visaCategoryOf('n7'), visaCategoryOf('1a')];
    // Assess
    expect(results).toEqual([1, 1, 3, 3]);
    expect(normaliseNetworkCode(' 5 ')).toBe('05');
  });
});

describe('VISA_RESPONSE_RULES', () => {
  it('makes category 1 terminal, 2 soft_retry and 3 hard_customer, with no reattempt for category 1 and 14, when read', () => {
    // Act
    const wrongCategory = VISA_RESPONSE_RULES.filter((rule) => rule.category !== { 1: 'terminal', 2: 'soft_retry', 3: 'hard_customer' }[rule.visaCategory]);
    const noReattempt = VISA_RESPONSE_RULES.filter((rule) => !rule.reattemptPermitted).map((rule) => rule.code);
    // Assess
    expect(wrongCategory).toEqual([]);
    expect(noReattempt).toEqual(['04', '07', '12', '15', '41', '43', '46', '57', 'R0', 'R1', 'R3', '14']);
    expect(visaResponseRule('51')).toMatchObject({ subcategory: 'balance' });
    expect(visaResponseRule('54')).toMatchObject({ subcategory: 'expired' });
  });
});

describe('MASTERCARD_ADVICE_CODES', () => {
  it('fixes the waits of 24-30 at 1 h, 24 h, 2, 4, 6, 8 and 10 days when read', () => {
    // Act
    const waits = ['24', '25', '26', '27', '28', '29', '30'].map((code) => MASTERCARD_ADVICE_CODES.find((rule) => rule.code === code)?.fixedDelayHours);
    // Assess
    expect(waits).toEqual([1, 24, 48, 96, 144, 192, 240]);
  });

  it('forbids retries after 03 and 21, sends 01 to a card update and lets 02 retry when read', () => {
    // Prepare
    const rule = (code: string) => MASTERCARD_ADVICE_CODES.find((entry) => entry.code === code);
    // Act
    const [mac01, mac02, mac03, mac21] = ['01', '02', '03', '21'].map(rule);
    // Assess
    expect(mac03).toMatchObject({ category: 'terminal', retryAllowed: false });
    expect(mac21).toMatchObject({ category: 'terminal', subcategory: 'revoked_authorization', retryAllowed: false });
    expect(mac01).toMatchObject({ category: 'hard_customer', retryAllowed: false });
    expect(mac02).toMatchObject({ category: 'soft_retry', retryAllowed: true });
    expect(MASTERCARD_ADVICE_CODES.map((entry) => entry.code)).toEqual([
      '01',
      '02',
      '03',
      '04',
      '21',
      '22',
      '24',
      '25',
      '26',
      '27',
      '28',
      '29',
      '30',
      '40',
      '41',
      '43',
    ]);
    expect(MASTERCARD_ADVICE_CODES.filter((entry) => !entry.isRetryAdvice).map((entry) => entry.code)).toEqual(['40', '41', '43']);
  });
});

describe('resolveAdviceCode', () => {
  it('reads a bare number as a Mastercard MAC when the network is Mastercard or unknown', () => {
    // Act
    const mastercard = resolveAdviceCode('02', 'mastercard');
    const unknown = resolveAdviceCode('2', undefined);
    // Assess
    expect(mastercard).toMatchObject({ scheme: 'mastercard', rule: { code: '02', category: 'soft_retry' } });
    expect(unknown).toMatchObject({ scheme: 'mastercard', rule: { code: '02' } });
  });

  it("reads 02 as Visa's stop-this-payment advice when the network is Visa", () => {
    // Act
    const resolved = resolveAdviceCode('02', 'visa');
    const mac25OnVisa = resolveAdviceCode('25', 'visa');
    // Assess
    expect(resolved).toMatchObject({ scheme: 'visa', rule: { category: 'terminal', subcategory: 'revoked_authorization', retryAllowed: false } });
    expect(mac25OnVisa).toBeUndefined();
  });

  it("ignores numeric advice when the network is another brand, but keeps Stripe's words", () => {
    // Act
    const amex = resolveAdviceCode('03', 'other');
    const stripe = resolveAdviceCode('DO_NOT_TRY_AGAIN', 'other');
    // Assess
    expect(amex).toBeUndefined();
    expect(stripe).toMatchObject({ scheme: 'stripe', rule: { code: 'do_not_try_again', category: 'terminal' } });
  });

  it("maps PayPal's spelled-out advice codes to the network they name when given one", () => {
    // Act
    const visaStop = resolveAdviceCode('02_STOP_SPECIFIC_PAYMENT', undefined);
    const mcLater = resolveAdviceCode('02_try_again_later', 'visa');
    // Assess
    expect(visaStop).toMatchObject({ scheme: 'visa', rule: { retryAllowed: false } });
    expect(mcLater).toMatchObject({ scheme: 'mastercard', rule: { retryAllowed: true } });
  });

  it('returns nothing when the advice code is empty or unknown', () => {
    // Act
    const results = [resolveAdviceCode(undefined, 'visa'), resolveAdviceCode('  ', undefined), resolveAdviceCode('99', 'mastercard')];
    // Assess
    expect(results).toEqual([undefined, undefined, undefined]);
    expect(STRIPE_ADVICE_CODES.map((rule) => rule.code)).toEqual(['try_again_later', 'do_not_try_again', 'confirm_card_data']);
  });
});

describe('normaliseNetwork', () => {
  it('folds brand spellings when given Visa, Mastercard, another brand or nothing', () => {
    // Act
    const results = ['VISA', 'MasterCard', 'master_card', 'mc', 'amex', '', undefined].map(normaliseNetwork);
    // Assess
    expect(results).toEqual(['visa', 'mastercard', 'mastercard', 'mastercard', 'other', undefined, undefined]);
  });
});
