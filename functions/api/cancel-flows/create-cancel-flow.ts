import { normaliseSteps } from '#core/cancel-flows';
import { createCancelFlow as storeFlow, newCancelFlowId } from '#data/cancel-flow-repository';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { createCancelFlowSchemas } from './schemas';
import { cancelFlowView } from './views';

/** POST /api/v1/cancel-flows: a new flow, inactive (B's draft) until activated; 201. Steps are optional here (a flow needs some to be activated). */
export const createCancelFlow = defineOperation({ auth: 'api_key', schemas: createCancelFlowSchemas }, async ({ body, principal, requestId }) => {
  const now = new Date();
  const at = now.toISOString();
  const flow = await storeFlow({
    id: newCancelFlowId(now),
    merchant_id: principal.merchantId,
    name: body.name,
    status: 'inactive',
    steps: normaliseSteps(body.steps ?? []),
    version: 1,
    created_at: at,
    updated_at: at,
    activated_at: null,
    deactivated_at: null,
  });
  return { statusCode: 201, body: envelope(cancelFlowView(flow), requestId, principal.merchantId) };
});
