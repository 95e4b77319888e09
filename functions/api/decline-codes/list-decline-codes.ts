import { compareDeclineCodes, listDeclineCodes as listCatalogue } from '#core/decline-codes/index';
import { cursorFilters, decodeCursor, encodeCursor } from '#api/pipeline/paging';
import { cursorEnvelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { listDeclineCodesSchemas } from './schemas';
import { declineCodeView } from './views';

const LIST = 'decline-codes';

/**
 * GET /api/v1/decline-codes: the in-memory catalogue, filtered by psp, category and subcategory,
 * in (psp, code) order, cursor paged. The cursor holds the last returned (psp, code), signed and
 * tied to the merchant and this list; the next page starts after it.
 */
export const listDeclineCodes = defineOperation({ auth: 'api_key', schemas: listDeclineCodesSchemas }, async ({ query, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const records = listCatalogue({
    ...(query.psp === undefined ? {} : { psp: query.psp }),
    ...(query.category === undefined ? {} : { category: query.category }),
    ...(query.subcategory === undefined ? {} : { subcategory: query.subcategory }),
  });
  // A cursor continues only the filters it was issued with (400 `cursor` otherwise).
  const filters = cursorFilters(query);
  let start = 0;
  if (query.cursor !== undefined) {
    const key = await decodeCursor(query.cursor, merchantId, LIST, filters);
    const after = { psp: String(key.psp), code: String(key.code) } as Parameters<typeof compareDeclineCodes>[0];
    const index = records.findIndex((record) => compareDeclineCodes(record, after) > 0);
    start = index === -1 ? records.length : index;
  }
  const page = records.slice(start, start + query.limit);
  const last = page[page.length - 1];
  const next =
    last !== undefined && start + page.length < records.length ? await encodeCursor(merchantId, LIST, { psp: last.psp, code: last.code }, filters) : null;
  return { body: cursorEnvelope(page.map(declineCodeView), { next }, requestId, merchantId) };
});
