import { cohortNeedsCustomer, cohortsOf, exposuresOf } from '#core/analytics/at-risk-customers';
import type { CustomerRecord } from '#core/customers';
import { openPayments } from '#data/at-risk-queries';
import { customersByIds } from '#data/campaign-repository';
import { pagedEnvelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { listAtRiskCustomersSchemas } from './engagement-schemas';
import { atRiskCustomerView } from './engagement-views';

/**
 * GET /api/v1/analytics/at-risk-customers: customers with an open recovery, in a cohort (all,
 * expiring_card, repeat_failure, high_value; core/analytics/at-risk-customers.ts), newest latest
 * failure first, offset paged. Reads the merchant's open payments from the payments-by-status index
 * (3 Queries; expiring_card filters them on the decline subcategory), then the customers: those of
 * the page, or every candidate when the cohort depends on the customer (repeat_failure,
 * high_value), 100 per BatchGetItem. The cost follows what is at risk now, not the history.
 */
export const listAtRiskCustomers = defineOperation({ auth: 'api_key', schemas: listAtRiskCustomersSchemas }, async ({ query, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const { cohort, page, per_page: perPage } = query;
  const exposures = exposuresOf(await openPayments(merchantId, { expiredCardOnly: cohort === 'expiring_card' }));
  let candidates = exposures;
  let customers = new Map<string, CustomerRecord>();
  if (cohortNeedsCustomer(cohort)) {
    customers = await customersByIds(
      merchantId,
      exposures.map((exposure) => exposure.customer_id),
    );
    candidates = exposures.filter((exposure) => {
      const customer = customers.get(exposure.customer_id);
      return customer !== undefined && cohortsOf(exposure, customer).includes(cohort);
    });
  }
  const total = candidates.length;
  const slice = candidates.slice((page - 1) * perPage, page * perPage);
  if (!cohortNeedsCustomer(cohort))
    customers = await customersByIds(
      merchantId,
      slice.map((exposure) => exposure.customer_id),
    );
  const rows = slice.flatMap((exposure) => {
    const customer = customers.get(exposure.customer_id);
    return customer === undefined ? [] : [atRiskCustomerView(exposure, customer)];
  });
  const pagination = { total, page, per_page: perPage, total_pages: Math.ceil(total / perPage) };
  return { body: { ...pagedEnvelope(rows, pagination, requestId, merchantId), cohort } };
});
