import {
  catalogueProblems,
  compareDeclineCodes,
  DECLINE_CATALOGUE_SIZE,
  declineCodeCatalogue,
  declineCodesOf,
  findDeclineCode,
  findDeclineCodeAcrossProviders,
} from '#core/decline-codes/catalogue';
import { baselineRecoveryRate, RECOVERY_ADJUSTMENTS } from '#core/decline-codes/recovery-rates';
import { DECLINE_CATEGORIES, type DeclineCodeRecord, isSubcategoryOf } from '#core/decline-codes/types';
import { PSPS } from '#core/providers';

const sample = (overrides: Partial<DeclineCodeRecord> = {}): DeclineCodeRecord =>
  ({
    psp: 'stripe',
    code: 'sample_code',
    category: 'soft_retry',
    subcategory: 'balance',
    description: 'A sample.',
    recommended_action: 'Retry later.',
    recovery_rate: 0.5,
    ...overrides,
  }) as DeclineCodeRecord;

describe('declineCodeCatalogue()', () => {
  it('holds exactly the 268 codes the spec announces when loaded', () => {
    // Act
    const size = declineCodeCatalogue().length;
    // Assess
    expect(size).toBe(268);
    expect(DECLINE_CATALOGUE_SIZE).toBe(268);
  });

  it('covers all 13 providers with at least ten codes each when counted per psp', () => {
    // Prepare
    const counts = new Map<string, number>();
    // Act
    for (const record of declineCodeCatalogue()) counts.set(record.psp, (counts.get(record.psp) ?? 0) + 1);
    // Assess
    expect([...counts.keys()].sort()).toEqual([...PSPS].sort());
    for (const psp of PSPS) expect(counts.get(psp)).toBeGreaterThanOrEqual(10);
    expect(PSPS.reduce((sum, psp) => sum + declineCodesOf(psp).length, 0)).toBe(268);
  });

  it('has no two entries with the same (psp, code) when keyed', () => {
    // Act
    const keys = declineCodeCatalogue().map((record) => `${record.psp}/${record.code}`);
    // Assess
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keeps every entry well formed when inspected one by one', () => {
    // Act
    const malformed = declineCodeCatalogue().filter(
      (record) =>
        !(DECLINE_CATEGORIES as readonly string[]).includes(record.category) ||
        !isSubcategoryOf(record.category, record.subcategory) ||
        !(record.recovery_rate >= 0 && record.recovery_rate <= 1) ||
        record.description.trim().length < 3 ||
        record.recommended_action.trim().length < 3 ||
        record.code.trim() !== record.code ||
        record.code === '',
    );
    // Assess
    expect(malformed).toEqual([]);
    expect(catalogueProblems(declineCodeCatalogue())).toEqual([]);
  });

  it('derives every recovery rate from its subcategory baseline within the named adjustments when compared', () => {
    // Prepare
    const widest = Math.max(...Object.values(RECOVERY_ADJUSTMENTS).map(Math.abs));
    // Act
    const outliers = declineCodeCatalogue().filter(
      (record) => Math.abs(record.recovery_rate - baselineRecoveryRate(record.category, record.subcategory)) > widest + 1e-9,
    );
    // Assess
    expect(outliers).toEqual([]);
    expect(findDeclineCode('stripe', 'insufficient_funds')?.recovery_rate).toBe(0.45);
    expect(findDeclineCode('stripe', 'try_again_later')?.recovery_rate).toBe(0.75);
  });

  it('lists entries in (psp, code) order with numeric-aware codes when read in sequence', () => {
    // Act
    const adyenCodes = declineCodesOf('adyen').map((record) => record.code);
    // Assess
    for (let i = 1; i < declineCodeCatalogue().length; i += 1) {
      expect(compareDeclineCodes(declineCodeCatalogue()[i - 1] as DeclineCodeRecord, declineCodeCatalogue()[i] as DeclineCodeRecord)).toBeLessThan(0);
    }
    expect(adyenCodes.indexOf('2')).toBeLessThan(adyenCodes.indexOf('10'));
    expect(declineCodeCatalogue()[0]?.psp).toBe('adyen');
  });
});

describe('catalogueProblems', () => {
  it('reports duplicates, mismatched subcategories, bad rates and empty texts when given broken entries', () => {
    // Prepare
    const broken = [
      sample(),
      sample(),
      sample({ code: 'mismatch', category: 'terminal', subcategory: 'balance' } as unknown as Partial<DeclineCodeRecord>),
      sample({ code: 'rate', recovery_rate: 1.2 }),
      sample({ code: 'texts', description: ' ', recommended_action: '' }),
    ];
    // Act
    const problems = catalogueProblems(broken);
    // Assess
    expect(problems).toEqual([
      'stripe/sample_code: duplicate (psp, code)',
      'stripe/mismatch: balance is not a terminal subcategory',
      'stripe/rate: recovery_rate 1.2 outside 0-1',
      'stripe/texts: empty description',
      'stripe/texts: empty recommended_action',
    ]);
  });
});

describe('findDeclineCode', () => {
  it('finds a provider code exactly, then ignoring case, when the psp is given', () => {
    // Act
    const exact = findDeclineCode('square', 'INSUFFICIENT_FUNDS');
    const folded = findDeclineCode('square', ' insufficient_funds ');
    const otherProvider = findDeclineCode('adyen', 'insufficient_funds');
    // Assess
    expect(exact).toMatchObject({ psp: 'square', code: 'INSUFFICIENT_FUNDS', category: 'soft_retry', subcategory: 'balance' });
    expect(folded).toBe(exact);
    expect(otherProvider).toBeUndefined();
  });
});

describe('findDeclineCodeAcrossProviders', () => {
  it('returns every provider that uses a code when it is shared', () => {
    // Act
    const records = findDeclineCodeAcrossProviders('Insufficient_Funds');
    // Assess
    expect(records.map((record) => record.psp)).toEqual(['chargebee', 'gocardless', 'mollie', 'razorpay', 'recurly', 'square', 'stripe']);
    expect(new Set(records.map((record) => `${record.category}/${record.subcategory}`))).toEqual(new Set(['soft_retry/balance']));
  });
});
