import { ResourceNotFoundError, StateConflictError } from '#core/errors';
import { builtInTemplate } from '#core/templates/built-in';
import { deleteTemplate as removeTemplate } from '#data/template-repository';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { deleteTemplateSchemas } from './schemas';

/** DELETE /api/v1/templates/{id}: deletes a merchant's template (`{ id, deleted: true }`); built-ins are 409, any other id 404. */
export const deleteTemplate = defineOperation({ auth: 'api_key', schemas: deleteTemplateSchemas }, async ({ params, principal, requestId }) => {
  const merchantId = principal.merchantId;
  if (builtInTemplate(params.id) !== undefined) throw new StateConflictError(`Template ${params.id} is built in and cannot be deleted.`);
  if (!(await removeTemplate(merchantId, params.id))) throw new ResourceNotFoundError(`No template ${params.id}.`, { param: 'id' });
  return { body: envelope({ id: params.id, deleted: true }, requestId, merchantId) };
});
