import { DECLINE_PSPS, getDeclineCode, getDeclineCodeVariations, listCategories, listDeclineCodes } from '#core/decline-codes/queries';
import { DECLINE_CATEGORIES, DECLINE_SUBCATEGORIES, isDeclineCategory, isDeclineSubcategory } from '#core/decline-codes/types';

describe('listDeclineCodes', () => {
  it('returns the whole catalogue in (psp, code) order when given no filter', () => {
    // Act
    const all = listDeclineCodes();
    // Assess
    expect(all).toHaveLength(268);
    const psps = all.map((record) => record.psp);
    expect(psps).toEqual([...psps].sort());
    expect(all.slice(0, 3).map((record) => record.code)).toEqual(['2', '3', '4']);
  });

  it('keeps only the entries matching every filter when given psp, category and subcategory', () => {
    // Act
    const stripeSoftLimits = listDeclineCodes({ psp: 'stripe', category: 'soft_retry', subcategory: 'limit' });
    // Assess
    expect(stripeSoftLimits.map((record) => record.code)).toEqual(['card_velocity_exceeded', 'withdrawal_count_limit_exceeded']);
  });

  it('returns the same order on every call when called twice', () => {
    // Act
    const first = listDeclineCodes({ category: 'terminal' });
    const second = listDeclineCodes({ category: 'terminal' });
    // Assess
    expect(second.map((record) => `${record.psp}/${record.code}`)).toEqual(first.map((record) => `${record.psp}/${record.code}`));
    expect(first.every((record) => record.category === 'terminal')).toBe(true);
  });

  it('returns nothing when the subcategory belongs to another category', () => {
    // Act
    const none = listDeclineCodes({ category: 'terminal', subcategory: 'balance' });
    // Assess
    expect(none).toEqual([]);
  });
});

describe('getDeclineCodeVariations', () => {
  it("returns every provider's entry for insufficient_funds, ignoring case, when asked", () => {
    // Act
    const variations = getDeclineCodeVariations('insufficient_funds');
    // Assess
    expect(variations.map((record) => record.psp)).toEqual(['chargebee', 'gocardless', 'mollie', 'razorpay', 'recurly', 'square', 'stripe']);
    expect(new Set(variations.map((record) => record.description)).size).toBeGreaterThan(1);
  });

  it('shows how a shared code means different things across providers when asked for "4"', () => {
    // Act
    const variations = getDeclineCodeVariations('4');
    // Assess
    expect(variations.map((record) => [record.psp, record.category])).toEqual([
      ['adyen', 'soft_retry'],
      ['authorize_net', 'hard_customer'],
    ]);
  });

  it('returns an empty list when no provider has the code', () => {
    // Act
    const variations = getDeclineCodeVariations('not_a_code');
    // Assess
    expect(variations).toEqual([]);
  });
});

describe('getDeclineCode', () => {
  it("returns one provider's entry when given its psp and code", () => {
    // Act
    const record = getDeclineCode('gocardless', 'refer_to_payer');
    // Assess
    expect(record).toMatchObject({ psp: 'gocardless', category: 'unknown', subcategory: 'referral' });
  });
});

describe('listCategories', () => {
  it('returns the four categories with subcategories when called', () => {
    // Act
    const categories = listCategories();
    // Assess
    expect(categories.map((category) => category.category)).toEqual([...DECLINE_CATEGORIES]);
    expect(categories.flatMap((category) => category.subcategories)).toEqual([...DECLINE_SUBCATEGORIES]);
  });
});

describe('filter constants', () => {
  it('accepts the valid values and refuses others when checked', () => {
    // Act
    const verdicts = [isDeclineCategory('terminal'), isDeclineCategory('hard'), isDeclineSubcategory('expired'), isDeclineSubcategory('Expired')];
    // Assess
    expect(verdicts).toEqual([true, false, true, false]);
    expect(DECLINE_PSPS).toHaveLength(13);
  });
});
