import { listAbTests, listExperiments as readExperiments } from '#data/experiment-repository';
import { pagedEnvelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { listExperimentsSchemas } from './schemas';
import { abTestExperimentView, experimentView } from './views';

/**
 * GET /api/v1/experiments: the merchant's recovery experiments and the email A/B tests of its
 * campaigns (kind `email_subject`), newest first, filtered by `status` and `kind`, offset-paged.
 * A merchant runs a handful, so both lists are read whole (two Queries) and paged here.
 */
export const listExperiments = defineOperation({ auth: 'api_key', schemas: listExperimentsSchemas }, async ({ principal, query, requestId }) => {
  const merchantId = principal.merchantId;
  const [experiments, abTests] = await Promise.all([readExperiments(merchantId), listAbTests(merchantId)]);
  const all = [...experiments.map(experimentView), ...abTests.map(abTestExperimentView)]
    .filter((e) => (query.status === undefined || e.status === query.status) && (query.kind === undefined || e.kind === query.kind))
    .sort((a, b) => b.started_at.localeCompare(a.started_at) || b.id.localeCompare(a.id));
  const start = (query.page - 1) * query.per_page;
  const pagination = { total: all.length, page: query.page, per_page: query.per_page, total_pages: Math.ceil(all.length / query.per_page) };
  return { body: pagedEnvelope(all.slice(start, start + query.per_page), pagination, requestId, merchantId) };
});
