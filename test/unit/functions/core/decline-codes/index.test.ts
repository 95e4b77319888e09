import * as declineCodes from '#core/decline-codes/index';

describe('decline-codes module', () => {
  it('exposes the catalogue, the queries and the classifier from one entry point when imported', () => {
    // Act
    const result = declineCodes.classifyDecline({ psp: 'stripe', declineCode: 'insufficient_funds', network: 'mastercard', adviceCode: '25' });
    // Assess
    expect(result).toMatchObject({ category: 'soft_retry', subcategory: 'balance', source: 'advice_code', retry: { allowed: true, fixedDelayHours: 24 } });
    expect(result.matched).toMatchObject({ psp: 'stripe', code: 'insufficient_funds' });
    expect(declineCodes.listDeclineCodes()).toEqual(declineCodes.declineCodeCatalogue());
    expect(declineCodes.listCategories()).toHaveLength(4);
    expect(declineCodes.DECLINE_PSPS).toHaveLength(13);
  });
});
