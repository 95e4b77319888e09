import * as z from '#shared/zod';
import { isValidTimeZone, MAX_TIME_ZONE_LENGTH } from '#core/quiet-hours';

/** An IANA time zone name (isValidTimeZone: `Europe/Berlin`, `UTC`); offsets and abbreviations are refused. */
export const TimeZoneName = z
  .string()
  .check(z.maxLength(MAX_TIME_ZONE_LENGTH), z.refine(isValidTimeZone, 'not an IANA time zone name (Area/Location, such as Europe/Berlin, or UTC)'));

/** An ISO 8601 instant, as every record and envelope writes it. */
export const DateTime = z.string().clone().register(z.globalRegistry, { format: 'date-time' });

/** The `meta` of every enveloped response (DESIGN §1). */
export const ResponseMeta = z.object({ timestamp: DateTime, request_id: z.string(), merchant_id: z.optional(z.string()) });

/** The `pagination` of offset lists (DESIGN §1). */
export const OffsetPagination = z.object({
  total: z.number().check(z.int()),
  page: z.number().check(z.int()),
  per_page: z.number().check(z.int()),
  total_pages: z.number().check(z.int()),
});

/** A money total per currency (DESIGN §2c): smallest unit by lowercase currency, `{ "usd": 5800, "jpy": 3000 }`. */
export const AmountsByCurrency = z
  .record(z.string(), z.number().check(z.int()))
  .clone()
  .register(z.globalRegistry, { description: 'Smallest currency unit, by lowercase currency; amounts of different currencies are never added.' });

/** A copy of the schema with a description for the OpenAPI document. */
export function described<T extends z.ZodMiniType>(schema: T, description: string): T {
  const copy = schema.clone() as T;
  z.globalRegistry.add(copy, { description });
  return copy;
}
