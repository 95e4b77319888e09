import { activateCancelFlow as activate, cancelFlowCounters } from '#data/cancel-flow-repository';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { activateCancelFlowSchemas } from './schemas';
import { cancelFlowView } from './views';

/**
 * POST /api/v1/cancel-flows/{id}/activate: inactive → active; the flow active before becomes
 * inactive in the same transaction (exactly one active, also under concurrent activations).
 * Already active, or without steps: 409.
 */
export const activateCancelFlow = defineOperation({ auth: 'api_key', schemas: activateCancelFlowSchemas }, async ({ params, principal, requestId }) => {
  const flow = await activate(principal.merchantId, params.id, new Date());
  const counters = await cancelFlowCounters(principal.merchantId, [flow.id]);
  return { body: envelope(cancelFlowView(flow, counters.get(flow.id)), requestId, principal.merchantId) };
});
