import { DECLINE_CATEGORY_RECORDS, SUBCATEGORY_INFO, subcategoryInfo } from '#core/decline-codes/categories';
import { declineCodeCatalogue } from '#core/decline-codes/catalogue';
import { DECLINE_SUBCATEGORIES } from '#core/decline-codes/types';

describe('DECLINE_CATEGORY_RECORDS', () => {
  it("lists the four spec categories in order with the spec's subcategories when read", () => {
    // Act
    const byCategory = new Map(DECLINE_CATEGORY_RECORDS.map((record) => [record.category, record]));
    // Assess
    expect(DECLINE_CATEGORY_RECORDS.map((record) => record.category)).toEqual(['soft_retry', 'hard_customer', 'terminal', 'unknown']);
    expect(byCategory.get('soft_retry')?.subcategories).toEqual(expect.arrayContaining(['balance', 'limit', 'processing_error']));
    expect(byCategory.get('hard_customer')?.subcategories).toEqual(expect.arrayContaining(['expired', 'stolen', 'closed']));
    expect(byCategory.get('terminal')?.subcategories.length).toBeGreaterThan(0);
    expect(byCategory.get('unknown')?.subcategories).toContain('unmapped');
  });

  it("covers the subcategory of every catalogue entry under that entry's own category when compared", () => {
    // Prepare
    const allowed = new Map(DECLINE_CATEGORY_RECORDS.map((record) => [record.category, new Set<string>(record.subcategories)]));
    // Act
    const uncovered = declineCodeCatalogue().filter((record) => !allowed.get(record.category)?.has(record.subcategory));
    // Assess
    expect(uncovered).toEqual([]);
  });

  it('gives each category a description, a strategy and an expected rate ordered by recoverability when read', () => {
    // Act
    const rates = DECLINE_CATEGORY_RECORDS.map((record) => record.expected_recovery_rate);
    // Assess
    for (const record of DECLINE_CATEGORY_RECORDS) {
      expect(record.description).not.toHaveLength(0);
      expect(record.recommended_strategy).not.toHaveLength(0);
      expect(record.expected_recovery_rate).toBeGreaterThan(0);
      expect(record.expected_recovery_rate).toBeLessThan(1);
    }
    const [soft, hard, terminal, unknown] = rates as [number, number, number, number];
    expect(soft).toBeGreaterThan(hard);
    expect(hard).toBeGreaterThan(terminal);
    expect(unknown).toBeGreaterThan(terminal);
  });
});

describe('SUBCATEGORY_INFO', () => {
  it('describes every subcategory exactly once with a default action when listed', () => {
    // Act
    const names = SUBCATEGORY_INFO.map((info) => info.subcategory);
    // Assess
    expect(names).toEqual([...DECLINE_SUBCATEGORIES]);
    expect(new Set(names).size).toBe(names.length);
    expect(subcategoryInfo('issuer_hold')).toMatchObject({ baseline_recovery_rate: 0.35 });
    for (const info of SUBCATEGORY_INFO) expect(info.default_action.length).toBeGreaterThan(10);
  });
});
