import { summariseSubscription } from '#core/subscriptions';
import { subscriptionPayments } from '#data/payment-queries';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { subscriptionRecoveryView } from './views';
import { getSubscriptionRecoveryStatusSchemas } from './schemas';

/**
 * GET /api/v1/subscriptions/{id}: the recovery status of a subscription (A), from the failed
 * payments recorded for it (each one a failed invoice, with or without an invoice id):
 * - `unknown` when none is recorded: 200 with zeros, not 404, since the spec defines this status
 *   for "no failure data" (subscriptions live at the provider; we only know their failures). An
 *   id of another merchant reads as one without data, so it reveals nothing either;
 * - `recovered` when every failed invoice was recovered;
 * - `at_risk` otherwise: at least one still open (pending, retrying or paused), or at least one
 *   ended terminal, since that revenue is lost and the subscription stays at risk of churn even
 *   with nothing open (then `total_at_risk` is 0 and `terminal_invoice_count` says why).
 * `total_at_risk` sums the open amounts, `recovered_amount` the recovered ones, each in `currency`
 * (that of the most recent failed invoice) and per currency in `total_at_risk_by_currency` and
 * `recovered_amount_by_currency`: amounts of different currencies are never added (DESIGN §2c).
 * `recovery_rate` is recovered / failed by count (0-1). The counts by status are added.
 */
export const getSubscriptionRecoveryStatus = defineOperation(
  { auth: 'api_key', schemas: getSubscriptionRecoveryStatusSchemas },
  async ({ params, principal, requestId }) => {
    const merchantId = principal.merchantId;
    const payments = await subscriptionPayments(merchantId, params.id);
    return { body: envelope(subscriptionRecoveryView(summariseSubscription(params.id, payments)), requestId, merchantId) };
  },
);
