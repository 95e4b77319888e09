import { PSPS, type Psp } from '#core/providers';
import { DECLINE_CATEGORY_RECORDS, type DeclineCategoryRecord } from './categories';
import { compareDeclineCodes, declineCodeCatalogue, findDeclineCode, findDeclineCodeAcrossProviders } from './catalogue';
import type { DeclineCategory, DeclineCodeRecord, DeclineSubcategory } from './types';

/**
 * Read-side helpers for the decline-code routes (GET /decline-codes, /decline-codes/categories,
 * /decline-codes/{code}). The HTTP layer validates filter values against DECLINE_PSPS,
 * DECLINE_CATEGORIES and DECLINE_SUBCATEGORIES (400 invalid_request naming the param), and pages
 * with a cursor over the order compareDeclineCodes defines.
 */
export { PSPS as DECLINE_PSPS };

export interface DeclineCodeFilter {
  readonly psp?: Psp;
  readonly category?: DeclineCategory;
  readonly subcategory?: DeclineSubcategory;
}

/** Catalogue entries matching every given filter, in (psp, code) order. */
export const listDeclineCodes = (filter: DeclineCodeFilter = {}): readonly DeclineCodeRecord[] =>
  declineCodeCatalogue().filter(
    (record) =>
      (filter.psp === undefined || record.psp === filter.psp) &&
      (filter.category === undefined || record.category === filter.category) &&
      (filter.subcategory === undefined || record.subcategory === filter.subcategory),
  );

/**
 * Every provider's entry for a code, ignoring case (Square's INSUFFICIENT_FUNDS is a variation of
 * insufficient_funds), in (psp, code) order; empty when no provider has it.
 */
export const getDeclineCodeVariations = (code: string): readonly DeclineCodeRecord[] => [...findDeclineCodeAcrossProviders(code)].sort(compareDeclineCodes);

/** One provider's entry for a code (exact, then ignoring case). */
export const getDeclineCode = (psp: Psp, code: string): DeclineCodeRecord | undefined => findDeclineCode(psp, code);

/** The four categories with their subcategories, in the spec's order. */
export const listCategories = (): readonly DeclineCategoryRecord[] => DECLINE_CATEGORY_RECORDS;
