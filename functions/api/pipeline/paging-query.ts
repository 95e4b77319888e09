import { z } from 'zod';

/**
 * The paging fields of list query strings, apart from paging.ts (which reads DynamoDB) so that
 * route schemas, and through them the route table, stay pure data that CDK can import.
 */

/** Query strings of offset-paged lists: `page` (default 1), `per_page` (default 25, at most 100). */
export const offsetPagingQuery = {
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(25),
};

/** Query strings of cursor-paged lists: `cursor`, `limit` (default 50, at most 200). */
export const cursorPagingQuery = {
  cursor: z.string().min(1).max(2048).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
};
