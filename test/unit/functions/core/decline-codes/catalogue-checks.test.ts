import { declineCodeCatalogue, findDeclineCode } from '#core/decline-codes/catalogue';
import { findDoNotRetryConflicts, hasDoNotRetryMeaning } from '#core/decline-codes/catalogue-checks';
import type { DeclineCodeRecord } from '#core/decline-codes/types';

const softRecord = (code: string, description: string, network_code?: string): DeclineCodeRecord => ({
  psp: 'checkout',
  code,
  category: 'soft_retry',
  subcategory: 'processing_error',
  description,
  recommended_action: 'Retry.',
  recovery_rate: 0.5,
  ...(network_code === undefined ? {} : { network_code }),
});

describe('findDoNotRetryConflicts', () => {
  it('finds no soft_retry entry with a do-not-retry meaning when run over the catalogue', () => {
    // Act
    const conflicts = findDoNotRetryConflicts(declineCodeCatalogue());
    // Assess
    expect(conflicts).toEqual([]);
  });

  it('flags soft_retry entries whose meaning or network code forbids a retry when they are planted', () => {
    // Prepare
    const planted = [
      softRecord('stop_payment_order', 'The cardholder placed a stop-payment order.'),
      softRecord('20041', 'Lost card - pick up.'),
      softRecord('20057', 'Refused.', '57'),
      softRecord('20014', 'Refused.', '14'),
      softRecord('do_not_try_again', 'Declined.'),
      softRecord('20051', 'Insufficient funds.', '51'),
    ];
    // Act
    const flagged = findDoNotRetryConflicts(planted).map((conflict) => conflict.record.code);
    // Assess
    expect(flagged).toEqual(['stop_payment_order', '20041', '20057', '20014', 'do_not_try_again']);
  });
});

describe('hasDoNotRetryMeaning', () => {
  it("recognises the catalogue's stop-payment, lost/stolen and do-not-retry entries when they are checked", () => {
    // Prepare
    const entries = [
      findDeclineCode('stripe', 'stop_payment_order'),
      findDeclineCode('stripe', 'lost_card'),
      findDeclineCode('braintree', '2043'),
      findDeclineCode('checkout', '20057'),
      findDeclineCode('paddle', 'declined_not_retryable'),
    ] as DeclineCodeRecord[];
    // Act
    const meanings = entries.map(hasDoNotRetryMeaning);
    // Assess
    expect(meanings).toEqual([true, true, true, true, true]);
    expect(entries.map((entry) => entry.category)).not.toContain('soft_retry');
    expect(declineCodeCatalogue().filter(hasDoNotRetryMeaning).length).toBeGreaterThan(30);
  });
});
