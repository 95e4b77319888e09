import { cancelFlowCounters, deactivateCancelFlow as deactivate } from '#data/cancel-flow-repository';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { deactivateCancelFlowSchemas } from './schemas';
import { cancelFlowView } from './views';

/** POST /api/v1/cancel-flows/{id}/deactivate: active → inactive (no flow is active then: new sessions are refused with 409). Inactive: 409. */
export const deactivateCancelFlow = defineOperation({ auth: 'api_key', schemas: deactivateCancelFlowSchemas }, async ({ params, principal, requestId }) => {
  const flow = await deactivate(principal.merchantId, params.id, new Date());
  const counters = await cancelFlowCounters(principal.merchantId, [flow.id]);
  return { body: envelope(cancelFlowView(flow, counters.get(flow.id)), requestId, principal.merchantId) };
});
