import { ResourceNotFoundError } from '#core/errors';
import { getTemplate as readTemplate } from '#data/template-repository';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { getTemplateSchemas } from './schemas';
import { templateView } from './views';

/** GET /api/v1/templates/{id}: a built-in or one of the merchant's templates; 404 (`param: id`) otherwise, another merchant's included. */
export const getTemplate = defineOperation({ auth: 'api_key', schemas: getTemplateSchemas }, async ({ params, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const template = await readTemplate(merchantId, params.id);
  if (template === undefined) throw new ResourceNotFoundError(`No template ${params.id}.`, { param: 'id' });
  return { body: envelope(templateView(template), requestId, merchantId) };
});
