import { cohortNeedsCustomer, cohortsOf, exposuresOf, type OpenExposure } from '#core/analytics/at-risk-customers';
import type { CustomerRecord } from '#core/customers';
import { OPEN_STATUSES } from '#core/payments';
import { openPayments } from '#data/at-risk-queries';
import { customersByIds } from '#data/campaign-repository';
import { customerPaymentsIn, listCustomers } from '#data/customer-queries';
import type { Pagination } from '#api/pipeline/paging';
import { pagedEnvelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { listAtRiskCustomersSchemas } from './engagement-schemas';
import { atRiskCustomerView } from './engagement-views';

type Page = { readonly rows: readonly { exposure: OpenExposure; customer: CustomerRecord }[]; readonly pagination: Pagination };

/**
 * `all`: one page of the open-customer index (GSI4 `CUSTOPEN`, sparse: customers with an open
 * recovery, newest first) with its total from the customer counters, then each customer's open
 * payments (GSI2, one Query per customer of the page): the cost of a page does not grow with the
 * merchant's data.
 */
async function allAtRisk(merchantId: string, page: number, perPage: number): Promise<Page> {
  const { customers, pagination } = await listCustomers(merchantId, { hasFailedPayment: true }, page, perPage);
  const exposures = await Promise.all(customers.map(async (customer) => exposuresOf(await customerPaymentsIn(merchantId, customer.id, OPEN_STATUSES))[0]));
  // The customer index trails the payments by a moment: a customer whose last open payment just closed has no row.
  const rows = customers.flatMap((customer, i) => {
    const exposure = exposures[i];
    return exposure === undefined ? [] : [{ exposure, customer }];
  });
  return { rows, pagination };
}

/**
 * The other cohorts: the merchant's open payments from the payments-by-status index (3 Queries;
 * `expiring_card` filters them on the decline subcategory), grouped by customer, then the
 * customers: those of the page, or every candidate when the cohort depends on the customer
 * (repeat_failure, high_value), 100 per BatchGetItem. The cost follows the open payments (what is
 * at risk now), never the recovered and terminal history.
 */
async function cohortAtRisk(merchantId: string, cohort: 'expiring_card' | 'repeat_failure' | 'high_value', page: number, perPage: number): Promise<Page> {
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
  const slice = candidates.slice((page - 1) * perPage, page * perPage);
  if (!cohortNeedsCustomer(cohort))
    customers = await customersByIds(
      merchantId,
      slice.map((exposure) => exposure.customer_id),
    );
  const rows = slice.flatMap((exposure) => {
    const customer = customers.get(exposure.customer_id);
    return customer === undefined ? [] : [{ exposure, customer }];
  });
  const total = candidates.length;
  return { rows, pagination: { total, page, per_page: perPage, total_pages: Math.ceil(total / perPage) } };
}

/**
 * GET /api/v1/analytics/at-risk-customers: customers with an open recovery, in a cohort (all,
 * expiring_card, repeat_failure, high_value; core/analytics/at-risk-customers.ts), newest customer
 * first, offset paged.
 */
export const listAtRiskCustomers = defineOperation({ auth: 'api_key', schemas: listAtRiskCustomersSchemas }, async ({ query, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const { cohort, page, per_page: perPage } = query;
  const { rows, pagination } = cohort === 'all' ? await allAtRisk(merchantId, page, perPage) : await cohortAtRisk(merchantId, cohort, page, perPage);
  const data = rows.map(({ exposure, customer }) => atRiskCustomerView(exposure, customer));
  return { body: { ...pagedEnvelope(data, pagination, requestId, merchantId), cohort } };
});
