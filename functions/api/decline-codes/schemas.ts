import * as z from '#shared/zod';
import { DECLINE_CATEGORIES, DECLINE_SUBCATEGORIES, type DeclineSubcategory } from '#core/decline-codes/types';
import { PSPS } from '#core/providers';
import { cursorPagingQuery } from '#api/pipeline/paging-query';
import { ResponseMeta } from '#api/envelope-schemas';

const SUBCATEGORIES = DECLINE_SUBCATEGORIES as unknown as [DeclineSubcategory, ...DeclineSubcategory[]];

export const ListDeclineCodesQuery = z.object({
  psp: z.optional(z.enum(PSPS)).clone().register(z.globalRegistry, { description: "Only this provider's codes." }),
  category: z.optional(z.enum(DECLINE_CATEGORIES)),
  subcategory: z.optional(z.enum(SUBCATEGORIES)),
  ...cursorPagingQuery,
});

export const DeclineCodeParams = z.object({
  code: z
    .string()
    .check(z.minLength(1), z.maxLength(200))
    .clone()
    .register(z.globalRegistry, { description: 'A provider decline code, matched ignoring case across providers.' }),
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
    recovery_rate: z
      .number()
      .check(z.gte(0), z.lte(1))
      .clone()
      .register(z.globalRegistry, { description: 'Expected share of failures with this code recovered, 0-1.' }),
  })
  .clone()
  .register(z.globalRegistry, { id: 'DeclineCode', description: "One provider's decline code in the catalogue." });

export const DeclineCategoryData = z
  .object({
    category: z.enum(DECLINE_CATEGORIES),
    description: z.string(),
    recommended_strategy: z.string().clone().register(z.globalRegistry, { description: 'A: the recommended recovery strategy.' }),
    expected_recovery_rate: z.number().check(z.gte(0), z.lte(1)),
    subcategories: z.array(z.enum(SUBCATEGORIES)),
  })
  .clone()
  .register(z.globalRegistry, { id: 'DeclineCategory', description: 'A decline category with its subcategories.' });

export const ListDeclineCodesResponse = z.object({
  data: z.array(DeclineCodeData),
  cursor: z.object({ next: z.nullable(z.string()).clone().register(z.globalRegistry, { description: 'The cursor of the next page; null at the end.' }) }),
  meta: ResponseMeta,
});

export const ListDeclineCategoriesResponse = z.object({ data: z.array(DeclineCategoryData), meta: ResponseMeta });

export const DeclineCodeResponse = z.object({
  data: z.object({
    code: z.string(),
    category: z.optional(z.enum(DECLINE_CATEGORIES)).clone().register(z.globalRegistry, { description: 'Present when every variation has the same category.' }),
    subcategory: z
      .optional(z.enum(SUBCATEGORIES))
      .clone()
      .register(z.globalRegistry, { description: 'Present when every variation has the same subcategory.' }),
    recommended_strategy: z
      .optional(z.string())
      .clone()
      .register(z.globalRegistry, { description: "A: the category's recovery strategy, present with category." }),
    variations: z
      .array(DeclineCodeData)
      .check(z.minLength(1))
      .clone()
      .register(z.globalRegistry, { description: "Every provider's entry for the code, in (psp, code) order." }),
  }),
  meta: ResponseMeta,
});

export const listDeclineCodesSchemas = { query: ListDeclineCodesQuery, responses: { 200: ListDeclineCodesResponse } } as const;
export const listDeclineCategoriesSchemas = { responses: { 200: ListDeclineCategoriesResponse } } as const;
export const getDeclineCodeSchemas = { params: DeclineCodeParams, responses: { 200: DeclineCodeResponse } } as const;
