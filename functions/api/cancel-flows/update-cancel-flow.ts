import { normaliseSteps } from '#core/cancel-flows';
import { cancelFlowCounters, replaceCancelFlow } from '#data/cancel-flow-repository';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { updateCancelFlowSchemas } from './schemas';
import { cancelFlowView } from './views';

/**
 * PUT /api/v1/cancel-flows/{id}: replaces every step (and the name when given). Allowed while the
 * flow is active: sessions already started keep the steps they started with.
 */
export const updateCancelFlow = defineOperation({ auth: 'api_key', schemas: updateCancelFlowSchemas }, async ({ params, body, principal, requestId }) => {
  const flow = await replaceCancelFlow(principal.merchantId, params.id, { name: body.name, steps: normaliseSteps(body.steps) }, new Date());
  const counters = await cancelFlowCounters(principal.merchantId, [flow.id]);
  return { body: envelope(cancelFlowView(flow, counters.get(flow.id)), requestId, principal.merchantId) };
});
