import { listTemplates as readTemplates } from '#data/template-repository';
import { pagedEnvelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { listTemplatesSchemas } from './schemas';
import { templateView } from './views';

/** GET /api/v1/templates: the merchant's templates, newest first, then the built-ins (`built_in: true`); offset-paged. */
export const listTemplates = defineOperation({ auth: 'api_key', schemas: listTemplatesSchemas }, async ({ query, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const { templates, pagination } = await readTemplates(merchantId, query.page, query.per_page);
  return { body: pagedEnvelope(templates.map(templateView), pagination, requestId, merchantId) };
});
