import * as z from '#shared/zod';

/**
 * The paging fields of list query strings, apart from paging.ts (which reads DynamoDB) so that
 * route schemas, and through them the route table, stay pure data that CDK can import.
 */

/** Query strings of offset-paged lists: `page` (default 1), `per_page` (default 25, at most 100). */
export const offsetPagingQuery = {
  page: z._default(z.coerce.number().check(z.int(), z.gte(1)), 1),
  per_page: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 25),
};

/** Query strings of cursor-paged lists: `cursor`, `limit` (default 50, at most 200). */
export const cursorPagingQuery = {
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(200)), 50),
};
