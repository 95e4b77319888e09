import { ResourceNotFoundError } from '#core/errors';
import {
  getIntegrationHealth as healthOf,
  isIntegrationId,
  listIntegrationErrors as errorsOf,
  listIntegrationHealth as healthOfAll,
} from '#services/integration-health';
import { defineOperation } from '#api/operation';
import { envelope } from '#api/pipeline/responses';
import { getIntegrationHealthSchemas, listIntegrationErrorsSchemas, listIntegrationHealthSchemas } from './schemas';

const checkedId = (id: string): string => {
  if (!isIntegrationId(id)) throw new ResourceNotFoundError('No integration has this id.', { param: 'id' });
  return id;
};

/** GET /api/v1/integrations/health (read, B): the 13 providers and the CRMs, each with its health (docs/integrations.md). */
export const listIntegrationHealth = defineOperation({ auth: 'api_key', schemas: listIntegrationHealthSchemas }, async ({ principal, requestId }) => ({
  body: envelope(await healthOfAll(principal.merchantId), requestId, principal.merchantId),
}));

/** GET /api/v1/integrations/{id}/health (read, B): one provider or CRM; an unknown id is 404. */
export const getIntegrationHealth = defineOperation({ auth: 'api_key', schemas: getIntegrationHealthSchemas }, async ({ params, principal, requestId }) => ({
  body: envelope(await healthOf(principal.merchantId, checkedId(params.id)), requestId, principal.merchantId),
}));

/** GET /api/v1/integrations/{id}/errors (read, B): recent errors of one provider or CRM, newest first; an unknown id is 404. */
export const listIntegrationErrors = defineOperation({ auth: 'api_key', schemas: listIntegrationErrorsSchemas }, async ({ params, principal, requestId }) => ({
  body: envelope(await errorsOf(principal.merchantId, checkedId(params.id)), requestId, principal.merchantId),
}));
