import { declineCodeCatalogue } from '#core/decline-codes/catalogue';
import { classifyDecline } from '#core/decline-codes/classify';
import { VISA_RESPONSE_RULES } from '#core/decline-codes/card-network-rules';

describe('classifyDecline', () => {
  describe('precedence', () => {
    it('lets an explicit advice code override a soft provider code when both are given', () => {
      // Act
      const result = classifyDecline({ psp: 'stripe', declineCode: 'insufficient_funds', network: 'mastercard', adviceCode: '03' });
      // Assess
      expect(result).toMatchObject({ category: 'terminal', subcategory: 'do_not_retry', source: 'advice_code', retry: { allowed: false } });
      expect(result.matched).toMatchObject({ psp: 'stripe', code: 'insufficient_funds', category: 'soft_retry' });
    });

    it("lets Stripe's advice_code override the decline code when Stripe sends both", () => {
      // Act
      const result = classifyDecline({ psp: 'stripe', declineCode: 'generic_decline', adviceCode: 'try_again_later' });
      // Assess
      expect(result).toMatchObject({ category: 'soft_retry', subcategory: 'processing_error', source: 'advice_code', retry: { allowed: true } });
    });

    it('lets a Visa category 1 network code override a soft provider code when the network is Visa', () => {
      // Act
      const result = classifyDecline({ psp: 'checkout', declineCode: '20051', networkCode: 'R1', network: 'visa' });
      // Assess
      expect(result).toMatchObject({ category: 'terminal', subcategory: 'revoked_authorization', source: 'network_code', retry: { allowed: false } });
      expect(result.retry.reason).toContain('Visa category 1');
    });

    it('applies the Visa category when the network is unknown and the code is a Visa code', () => {
      // Act
      const result = classifyDecline({ psp: 'adyen', declineCode: '12', networkCode: '41' });
      // Assess
      expect(result).toMatchObject({ category: 'terminal', subcategory: 'invalid_account', source: 'network_code' });
    });

    it('skips the Visa table and uses the provider code when the network is Mastercard', () => {
      // Act
      const result = classifyDecline({ psp: 'adyen', declineCode: '12', networkCode: '41', network: 'mastercard' });
      // Assess
      expect(result).toMatchObject({ category: 'soft_retry', subcategory: 'balance', source: 'provider_code', retry: { allowed: true } });
    });

    it('uses the provider decline code when nothing else is given', () => {
      // Act
      const result = classifyDecline({ psp: 'braintree', declineCode: '2004' });
      // Assess
      expect(result).toMatchObject({ category: 'hard_customer', subcategory: 'expired', source: 'provider_code', retry: { allowed: false } });
      expect(result.matched?.description).toContain('Expired Card');
    });

    it('falls through a Visa category 4 code to the provider code when both are given', () => {
      // Act
      const result = classifyDecline({ psp: 'stripe', declineCode: 'insufficient_funds', networkCode: '05', network: 'visa' });
      // Assess
      expect(result).toMatchObject({ category: 'soft_retry', subcategory: 'balance', source: 'provider_code' });
    });

    it('answers generic from a Visa category 4 code when the provider code is unknown', () => {
      // Act
      const result = classifyDecline({ psp: 'stripe', declineCode: 'no_such_code', networkCode: '05', network: 'visa' });
      // Assess
      expect(result).toMatchObject({ category: 'unknown', subcategory: 'generic', source: 'network_code', retry: { allowed: true } });
      expect(result.matched).toBeUndefined();
    });

    it('answers unknown/unmapped with source none when nothing is recognised', () => {
      // Act
      const empty = classifyDecline({});
      const unknownCode = classifyDecline({ psp: 'paddle', declineCode: 'something_new', adviceCode: '99' });
      // Assess
      expect(empty).toMatchObject({ category: 'unknown', subcategory: 'unmapped', source: 'none', retry: { allowed: true } });
      expect(unknownCode).toMatchObject({ category: 'unknown', subcategory: 'unmapped', source: 'none' });
      expect(unknownCode.retry.reason).toContain('something_new');
    });

    it('falls through to the next input when the advice is card-type advice (MAC 40/41/43)', () => {
      // Act
      const result = classifyDecline({ psp: 'stripe', declineCode: 'expired_card', network: 'mastercard', adviceCode: '41' });
      // Assess
      expect(result).toMatchObject({ category: 'hard_customer', subcategory: 'expired', source: 'provider_code' });
    });
  });

  describe('Mastercard merchant advice codes 24-30', () => {
    it.each([
      ['24', 1],
      ['25', 24],
      ['26', 48],
      ['27', 96],
      ['28', 144],
      ['29', 192],
      ['30', 240],
    ])('fixes the wait when given MAC %s', (adviceCode, hours) => {
      // Act
      const result = classifyDecline({ psp: 'stripe', declineCode: 'insufficient_funds', network: 'mastercard', adviceCode });
      // Assess
      expect(result).toMatchObject({ category: 'soft_retry', subcategory: 'balance', source: 'advice_code', retry: { allowed: true, fixedDelayHours: hours } });
    });

    it('sets no fixed delay when the advice is only "try later" (MAC 02)', () => {
      // Act
      const result = classifyDecline({ network: 'mastercard', adviceCode: '02' });
      // Assess
      expect(result.retry).toEqual({ allowed: true, reason: expect.stringContaining('Mastercard merchant advice code 02') });
    });

    it('sends MAC 01 to a card update when given with a soft code', () => {
      // Act
      const result = classifyDecline({ psp: 'stripe', declineCode: 'insufficient_funds', network: 'mastercard', adviceCode: '01' });
      // Assess
      expect(result).toMatchObject({ category: 'hard_customer', source: 'advice_code', retry: { allowed: false } });
    });
  });

  describe('do-not-retry hard rules', () => {
    it.each([
      { adviceCode: '03', network: 'mastercard' },
      { adviceCode: '21', network: 'mastercard' },
      { adviceCode: '21', network: undefined },
      { adviceCode: 'do_not_try_again', network: undefined },
      { adviceCode: '02', network: 'visa' },
    ])('never retries when given advice $adviceCode on network $network', ({ adviceCode, network }) => {
      // Act
      const result = classifyDecline({ psp: 'stripe', declineCode: 'try_again_later', adviceCode, network });
      // Assess
      expect(result.category).toBe('terminal');
      expect(result.retry.allowed).toBe(false);
    });

    it('never retries when given any Visa category 1 code, whatever the provider code says', () => {
      // Prepare
      const category1 = VISA_RESPONSE_RULES.filter((rule) => rule.visaCategory === 1).map((rule) => rule.code);
      // Act
      const results = category1.map((networkCode) => classifyDecline({ psp: 'stripe', declineCode: 'insufficient_funds', networkCode, network: 'visa' }));
      // Assess
      for (const result of results) {
        expect(result.category).toBe('terminal');
        expect(result.retry.allowed).toBe(false);
      }
    });

    it('keeps a Visa category 1 code in force when a soft advice code would otherwise decide', () => {
      // Act
      const result = classifyDecline({ psp: 'stripe', declineCode: 'insufficient_funds', networkCode: '57', adviceCode: 'try_again_later' });
      // Assess
      expect(result).toMatchObject({ category: 'terminal', subcategory: 'not_permitted', source: 'network_code', retry: { allowed: false } });
    });

    it('never allows a retry for a catalogue entry classed terminal or hard_customer when classified alone', () => {
      // Act
      const wrong = declineCodeCatalogue()
        .filter((record) => record.category === 'terminal' || record.category === 'hard_customer')
        .filter((record) => classifyDecline({ psp: record.psp, declineCode: record.code }).retry.allowed);
      // Assess
      expect(wrong).toEqual([]);
    });

    it('classes Visa category 3 as hard_customer, and forbids a reattempt on 14, when given such a code', () => {
      // Act
      const expired = classifyDecline({ networkCode: '54', network: 'visa' });
      const invalidNumber = classifyDecline({ psp: 'stripe', declineCode: 'try_again_later', networkCode: '14', network: 'visa' });
      // Assess
      expect(expired).toMatchObject({ category: 'hard_customer', subcategory: 'expired', source: 'network_code', retry: { allowed: false } });
      expect(invalidNumber).toMatchObject({ category: 'hard_customer', subcategory: 'invalid_details', retry: { allowed: false } });
      expect(invalidNumber.retry.reason).toContain('no reattempt');
    });

    it('allows a retry for Visa category 2 when given such a code', () => {
      // Act
      const result = classifyDecline({ psp: 'stripe', declineCode: 'do_not_honor', networkCode: '51', network: 'visa' });
      // Assess
      expect(result).toMatchObject({ category: 'soft_retry', subcategory: 'balance', source: 'network_code', retry: { allowed: true } });
    });
  });

  describe('provider code lookup', () => {
    it('matches the decline code ignoring case when the psp is given', () => {
      // Act
      const result = classifyDecline({ psp: 'Stripe', declineCode: ' INSUFFICIENT_FUNDS ' });
      // Assess
      expect(result).toMatchObject({ category: 'soft_retry', subcategory: 'balance', source: 'provider_code' });
      expect(result.matched).toMatchObject({ psp: 'stripe', code: 'insufficient_funds' });
    });

    it('reads a shared code the provider lacks through the cross-provider fallback when insufficient_funds comes with psp adyen', () => {
      // Act
      const result = classifyDecline({ psp: 'adyen', declineCode: 'insufficient_funds' });
      // Assess
      expect(result).toMatchObject({ category: 'soft_retry', subcategory: 'balance', source: 'provider_code', retry: { allowed: true } });
      expect(result.retry.reason).toContain("not one of adyen's; by the cross-provider fallback");
      expect(result.matched).toBeUndefined();
    });

    it('borrows a hard meaning through the fallback too, so a stolen card sent with another psp is not retried', () => {
      // Act
      const result = classifyDecline({ psp: 'adyen', declineCode: 'stolen_card' });
      // Assess
      expect(result).toMatchObject({ category: 'hard_customer', subcategory: 'stolen', source: 'provider_code', retry: { allowed: false } });
    });

    it('takes the most cautious reading when the vocabulary providers disagree on a code the psp lacks', () => {
      // Act: stripe reads restricted_card as hard_customer/stolen, recurly as terminal/not_permitted.
      const result = classifyDecline({ psp: 'braintree', declineCode: 'restricted_card' });
      // Assess
      expect(result).toMatchObject({ category: 'terminal', subcategory: 'not_permitted', retry: { allowed: false } });
    });

    it("keeps the provider's own code first when it has one, whatever the vocabulary says", () => {
      // Prepare: recurly has restricted_card itself.
      const own = declineCodeCatalogue().find((record) => record.psp === 'stripe' && record.code === 'restricted_card');
      // Act
      const result = classifyDecline({ psp: 'stripe', declineCode: 'restricted_card' });
      // Assess
      expect(result).toMatchObject({ category: own?.category, subcategory: own?.subcategory });
      expect(result.matched).toBe(own);
    });

    it('never borrows a numeric code from another provider, whose numbers mean something else at each', () => {
      // Act: "2001" is Braintree's insufficient funds; "4" is stolen at Authorize.Net.
      const results = [classifyDecline({ psp: 'stripe', declineCode: '2001' }), classifyDecline({ psp: 'checkout', declineCode: '4' })];
      // Assess
      for (const result of results) expect(result).toMatchObject({ category: 'unknown', subcategory: 'unmapped', source: 'none' });
    });

    it('puts the fallback after the provider code and before a Visa category 4 network code', () => {
      // Act
      const result = classifyDecline({ psp: 'adyen', declineCode: 'insufficient_funds', networkCode: '05', network: 'visa' });
      // Assess
      expect(result).toMatchObject({ category: 'soft_retry', subcategory: 'balance', source: 'provider_code' });
    });

    it('uses a unique match across providers when the psp is absent', () => {
      // Act
      const result = classifyDecline({ declineCode: 'declined_not_retryable' });
      // Assess
      expect(result).toMatchObject({ category: 'terminal', subcategory: 'do_not_retry', source: 'provider_code' });
      expect(result.matched?.psp).toBe('paddle');
    });

    it('uses the shared meaning without naming one provider when several agree and the psp is absent', () => {
      // Act
      const result = classifyDecline({ declineCode: 'insufficient_funds' });
      // Assess
      expect(result).toMatchObject({ category: 'soft_retry', subcategory: 'balance', source: 'provider_code' });
      expect(result.matched).toBeUndefined();
      expect(result.retry.reason).toContain('stripe');
    });

    it('prefers the exact-case match across providers when the case tells them apart', () => {
      // Act
      const result = classifyDecline({ declineCode: 'INSUFFICIENT_FUNDS' });
      // Assess
      expect(result.matched).toMatchObject({ psp: 'square', code: 'INSUFFICIENT_FUNDS' });
    });

    it('takes the most cautious reading when providers disagree on a code and the psp is absent', () => {
      // Act
      const result = classifyDecline({ declineCode: '4' });
      // Assess
      expect(result).toMatchObject({ category: 'hard_customer', subcategory: 'stolen', source: 'provider_code', retry: { allowed: false } });
      expect(result.retry.reason).toContain('adyen, authorize_net');
    });

    it('looks across providers when the psp is not one of the 13', () => {
      // Act
      const result = classifyDecline({ psp: 'worldpay', declineCode: 'payment_risk_check_failed' });
      // Assess
      expect(result).toMatchObject({ category: 'terminal', subcategory: 'fraud', source: 'provider_code' });
    });
  });
});
