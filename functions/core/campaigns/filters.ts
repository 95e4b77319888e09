import { DECLINE_CATEGORIES } from '#core/decline-codes/types';
import { ValidationError } from '#core/errors';
import { CURRENCIES } from '#core/money';
import { PSPS } from '#core/providers';
import * as z from '#shared/zod';
import { type CampaignFailure, CUSTOMER_SEGMENTS, type CustomerSegment, isInSegment } from './failure';
import type { CampaignFilters } from './types';

/**
 * `filters_json` (B): the JSON text of an object narrowing which failed payments a campaign
 * enrolls. Every field is optional; a payment must satisfy every field given.
 * | field            | value                                       | a payment matches when |
 * |------------------|---------------------------------------------|------------------------|
 * | amount_min       | integer ≥ 0, minor units; needs `currency` naming ONE currency | amount ≥ amount_min |
 * | amount_max       | integer ≥ 0, minor units; needs `currency` naming ONE currency | amount ≤ amount_max |
 * | currency         | a currency or a list (lowercase ISO 4217, the 20 accepted)     | its currency is listed |
 * | psp              | a provider id or a list (the 13 of core/providers.ts)          | its provider is listed |
 * | decline_category | a category or a list (soft_retry, hard_customer, terminal, unknown) | its category is listed |
 * | decline_code     | a provider decline code or a list (compared ignoring case)     | its decline code is listed |
 * | customer_segment | first_failure, repeat_failure, high_value, or a list (failure.ts) | the customer is in any listed segment |
 * Amounts need one currency because minor units of different currencies are not comparable.
 * Anything else (not JSON, not an object, an unknown field, a bad value) is 422
 * `validation_error` with `param: "filters_json"`, naming the field.
 */
const MAX_LIST = 50;

/** The filters' schema: built on first use (parsing a campaign's filters), not when matching code loads (ingest enrolls without it). */
function buildFiltersSchema() {
  const oneOrMany = <T extends z.ZodMiniType>(item: T) => z.union([item, z.array(item).check(z.minLength(1), z.maxLength(MAX_LIST))]);
  const Amount = z.number().check(z.int(), z.gte(0), z.lte(Number.MAX_SAFE_INTEGER));
  return z
    .strictObject({
      amount_min: z.optional(Amount),
      amount_max: z.optional(Amount),
      currency: z.optional(oneOrMany(z.enum(CURRENCIES))),
      psp: z.optional(oneOrMany(z.enum(PSPS))),
      decline_category: z.optional(oneOrMany(z.enum(DECLINE_CATEGORIES))),
      decline_code: z.optional(oneOrMany(z.string().check(z.trim(), z.minLength(1), z.maxLength(100)))),
      customer_segment: z.optional(oneOrMany(z.enum(CUSTOMER_SEGMENTS))),
    })
    .check(
      z.superRefine((filters, ctx) => {
        const amounts = (['amount_min', 'amount_max'] as const).filter((name) => filters[name] !== undefined);
        const currencies = filters.currency === undefined ? [] : ([] as string[]).concat(filters.currency);
        for (const name of amounts) {
          if (currencies.length !== 1)
            ctx.issues.push({ code: 'custom', input: filters[name], path: [name], message: 'needs `currency` naming exactly one currency' });
        }
        if (filters.amount_min !== undefined && filters.amount_max !== undefined && filters.amount_min > filters.amount_max) {
          ctx.issues.push({ code: 'custom', input: filters.amount_max, path: ['amount_max'], message: 'must be at least amount_min' });
        }
      }),
    );
}

let filtersSchema: ReturnType<typeof buildFiltersSchema> | undefined;
export const campaignFiltersSchema = (): ReturnType<typeof buildFiltersSchema> => {
  filtersSchema ??= buildFiltersSchema();
  return filtersSchema;
};

const list = <T>(value: T | readonly T[] | undefined): readonly T[] | undefined => (value === undefined ? undefined : ([] as T[]).concat(value as T));

/** The normalised filters of a value already decoded from JSON, or 422 naming `param` and the field. */
export function normaliseCampaignFilters(value: unknown, param = 'filters_json'): CampaignFilters {
  const result = campaignFiltersSchema().safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = issue?.path.map(String).join('.');
    const detail =
      issue?.code === 'unrecognized_keys' ? `unknown field ${issue.keys.join(', ')}` : `${field ? `field ${field}: ` : ''}${issue?.message ?? 'invalid'}`;
    throw new ValidationError(`${param} is invalid: ${detail}.`, { param });
  }
  const f = result.data;
  const decline_code = list(f.decline_code)?.map((code) => code.toLowerCase());
  const normalised: CampaignFilters = {
    ...(f.amount_min === undefined ? {} : { amount_min: f.amount_min }),
    ...(f.amount_max === undefined ? {} : { amount_max: f.amount_max }),
    ...(f.currency === undefined ? {} : { currency: list(f.currency) }),
    ...(f.psp === undefined ? {} : { psp: list(f.psp) }),
    ...(f.decline_category === undefined ? {} : { decline_category: list(f.decline_category) }),
    ...(decline_code === undefined ? {} : { decline_code }),
    ...(f.customer_segment === undefined ? {} : { customer_segment: list(f.customer_segment) }),
  };
  return normalised;
}

/** The filters of a `filters_json` text (B), or 422 `validation_error` with `param: "filters_json"`. */
export function parseCampaignFilters(text: string, param = 'filters_json'): CampaignFilters {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ValidationError(`${param} is invalid: not JSON text.`, { param });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ValidationError(`${param} is invalid: not a JSON object.`, { param });
  return normaliseCampaignFilters(value, param);
}

/** The fields a filter sets (each adds one point of specificity, matching.ts). */
export const filterFieldCount = (filters: CampaignFilters): number => Object.values(filters).filter((value) => value !== undefined).length;

/** `filters_json` as a campaign answers it: the normalised filters as JSON text. */
export const filtersJsonOf = (filters: CampaignFilters): string => JSON.stringify(filters);

/** Whether the filters name the customer's facts (earlier failures, lifetime value). */
export const filtersNeedCustomer = (filters: CampaignFilters): boolean => filters.customer_segment !== undefined;

/** Whether a failed payment satisfies every field of the filters. */
export function filtersMatch(filters: CampaignFilters, failure: CampaignFailure): boolean {
  if (filters.currency !== undefined && !filters.currency.includes(failure.currency)) return false;
  if (filters.amount_min !== undefined && failure.amount < filters.amount_min) return false;
  if (filters.amount_max !== undefined && failure.amount > filters.amount_max) return false;
  if (filters.psp !== undefined && !filters.psp.includes(failure.psp)) return false;
  if (filters.decline_category !== undefined && !filters.decline_category.includes(failure.decline_category)) return false;
  if (filters.decline_code !== undefined && (failure.decline_code === null || !filters.decline_code.includes(failure.decline_code.toLowerCase()))) return false;
  if (filters.customer_segment !== undefined && !filters.customer_segment.some((segment) => isInSegment(failure, segment as CustomerSegment))) return false;
  return true;
}
