import { PAYMENT_STATUS_FILTERS, type PaymentRecord } from '#core/payments';
import { campaignEnrollmentPaymentIds, enrollmentsOf } from '#data/enrollment-repository';
import { listPayments } from '#data/payment-queries';
import { getPayment } from '#data/payment-repository';
import { pagedEnvelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { recoveryViews } from './views';
import { listRecoveriesSchemas } from './schemas';

/** Payments by id, a few GetItems at a time, in the order given (erased ones left out). */
async function paymentsByIds(merchantId: string, ids: readonly string[]): Promise<PaymentRecord[]> {
  const found: PaymentRecord[] = [];
  for (let i = 0; i < ids.length; i += 25) {
    const chunk = await Promise.all(ids.slice(i, i + 25).map((id) => getPayment(merchantId, id)));
    for (const payment of chunk) if (payment !== undefined) found.push(payment);
  }
  return found;
}

/**
 * `campaign_id` (B): the campaign's enrollments (their own index, newest first), then the page's
 * payments. With `status` too, every enrolled payment of the campaign is read to filter it: a read
 * bounded by the campaign's enrollments, not by the merchant's payments.
 */
async function campaignPage(merchantId: string, campaignId: string, statuses: readonly string[] | undefined, page: number, perPage: number) {
  const ids = await campaignEnrollmentPaymentIds(merchantId, campaignId);
  const start = (page - 1) * perPage;
  const all = statuses === undefined ? undefined : (await paymentsByIds(merchantId, ids)).filter((p) => statuses.includes(p.status));
  const total = all?.length ?? ids.length;
  const payments = all === undefined ? await paymentsByIds(merchantId, ids.slice(start, start + perPage)) : all.slice(start, start + perPage);
  return { payments, pagination: { total, page, per_page: perPage, total_pages: Math.ceil(total / perPage) } };
}

/**
 * GET /api/v1/recoveries: the merchant's recoveries, newest first, offset-paged. `status` takes
 * A's values and B's `active` (pending or retrying); `campaign_id` (B) keeps those enrolled in
 * one campaign. A recovery and its payment are one record, so this is the payment list rendered
 * as recoveries, each with its campaign progress (one BatchGet of the page's enrollments).
 */
export const listRecoveries = defineOperation({ auth: 'api_key', schemas: listRecoveriesSchemas }, async ({ query, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const statuses = query.status === undefined ? undefined : PAYMENT_STATUS_FILTERS[query.status];
  const { payments, pagination } =
    query.campaign_id === undefined
      ? await listPayments(merchantId, statuses === undefined ? {} : { statuses }, query.page, query.per_page)
      : await campaignPage(merchantId, query.campaign_id, statuses, query.page, query.per_page);
  const enrollments = await enrollmentsOf(
    merchantId,
    payments.map((p) => p.id),
  );
  return { body: pagedEnvelope(recoveryViews(payments, enrollments), pagination, requestId, merchantId) };
});
