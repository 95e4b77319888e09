import { cancelFlowCounters, listCancelFlows as readFlows } from '#data/cancel-flow-repository';
import { pagedEnvelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { listCancelFlowsSchemas } from './schemas';
import { cancelFlowView } from './views';

/**
 * GET /api/v1/cancel-flows: the merchant's flows, oldest first, offset-paged, each with its steps
 * and session statistics (read from the counters the table stream keeps: one BatchGetItem).
 * `status` keeps active or inactive flows (another value: 400 `param: status`).
 */
export const listCancelFlows = defineOperation({ auth: 'api_key', schemas: listCancelFlowsSchemas }, async ({ query, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const flows = (await readFlows(merchantId)).filter((flow) => query.status === undefined || flow.status === query.status);
  const page = flows.slice((query.page - 1) * query.per_page, query.page * query.per_page);
  const counters = await cancelFlowCounters(
    merchantId,
    page.map((flow) => flow.id),
  );
  const pagination = { total: flows.length, page: query.page, per_page: query.per_page, total_pages: Math.ceil(flows.length / query.per_page) };
  return {
    body: pagedEnvelope(
      page.map((flow) => cancelFlowView(flow, counters.get(flow.id))),
      pagination,
      requestId,
      merchantId,
    ),
  };
});
