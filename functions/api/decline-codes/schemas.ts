import { z } from 'zod';
import { DECLINE_CATEGORIES, DECLINE_SUBCATEGORIES, type DeclineSubcategory } from '../../core/decline-codes/types';
import { PSPS } from '../../core/providers';
import { cursorPagingQuery } from '../pipeline/paging-query';

const SUBCATEGORIES = DECLINE_SUBCATEGORIES as unknown as [DeclineSubcategory, ...DeclineSubcategory[]];

const Meta = z.object({ timestamp: z.string().meta({ format: 'date-time' }), request_id: z.string(), merchant_id: z.string().optional() });

export const ListDeclineCodesQuery = z.object({
  psp: z.enum(PSPS).optional().meta({ description: 'Only this provider\'s codes.' }),
  category: z.enum(DECLINE_CATEGORIES).optional(),
  subcategory: z.enum(SUBCATEGORIES).optional(),
  ...cursorPagingQuery,
});

export const DeclineCodeParams = z.object({
  code: z.string().min(1).max(200).meta({ description: 'A provider decline code, matched ignoring case across providers.' }),
});

/** The spec's B list item. */
export const DeclineCodeData = z
  .object({
    code: z.string(),
    psp: z.enum(PSPS),
    category: z.enum(DECLINE_CATEGORIES),
    subcategory: z.enum(SUBCATEGORIES),
    description: z.string(),
    recommended_action: z.string(),
    recovery_rate: z.number().min(0).max(1).meta({ description: 'Expected share of failures with this code recovered, 0-1.' }),
  })
  .meta({ id: 'DeclineCode', description: 'One provider\'s decline code in the catalogue.' });

export const DeclineCategoryData = z
  .object({
    category: z.enum(DECLINE_CATEGORIES),
    description: z.string(),
    recommended_strategy: z.string().meta({ description: 'A: the recommended recovery strategy.' }),
    expected_recovery_rate: z.number().min(0).max(1),
    subcategories: z.array(z.enum(SUBCATEGORIES)),
  })
  .meta({ id: 'DeclineCategory', description: 'A decline category with its subcategories.' });

export const ListDeclineCodesResponse = z.object({
  data: z.array(DeclineCodeData),
  cursor: z.object({ next: z.string().nullable().meta({ description: 'The cursor of the next page; null at the end.' }) }),
  meta: Meta,
});

export const ListDeclineCategoriesResponse = z.object({ data: z.array(DeclineCategoryData), meta: Meta });

export const DeclineCodeResponse = z.object({
  data: z.object({
    code: z.string(),
    category: z.enum(DECLINE_CATEGORIES).optional().meta({ description: 'Present when every variation has the same category.' }),
    subcategory: z.enum(SUBCATEGORIES).optional().meta({ description: 'Present when every variation has the same subcategory.' }),
    recommended_strategy: z.string().optional().meta({ description: 'A: the category\'s recovery strategy, present with category.' }),
    variations: z.array(DeclineCodeData).min(1).meta({ description: 'Every provider\'s entry for the code, in (psp, code) order.' }),
  }),
  meta: Meta,
});

export const listDeclineCodesSchemas = { query: ListDeclineCodesQuery, responses: { 200: ListDeclineCodesResponse } } as const;
export const listDeclineCategoriesSchemas = { responses: { 200: ListDeclineCategoriesResponse } } as const;
export const getDeclineCodeSchemas = { params: DeclineCodeParams, responses: { 200: DeclineCodeResponse } } as const;
