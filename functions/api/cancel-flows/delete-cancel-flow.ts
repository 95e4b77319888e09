import { deleteCancelFlow as removeFlow } from '#data/cancel-flow-repository';
import { defineOperation } from '#api/operation';
import { deleteCancelFlowSchemas } from './schemas';

/** DELETE /api/v1/cancel-flows/{id}: 204 for an inactive flow; 409 while it is active. */
export const deleteCancelFlow = defineOperation({ auth: 'api_key', schemas: deleteCancelFlowSchemas }, async ({ params, principal }) => {
  await removeFlow(principal.merchantId, params.id);
  return { statusCode: 204, body: undefined };
});
