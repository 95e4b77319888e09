import { decline, defineProviderCodes } from '#core/decline-codes/define';
import type { DeclineCodeRecord } from '#core/decline-codes/types';

/**
 * Chargebee decline codes of two kinds:
 * - Gateway decline codes that Chargebee passes through in transaction.error_detail.decline_code
 *   (and error_code), here the normalized card set reference/providers.md §8.4 recommends. Chargebee
 *   documents the pass-through (types/resources/Transaction.d.ts GatewayErrorDetail; "Payment errors
 *   with root cause and troubleshooting", https://www.chargebee.com/docs/payments/2.0/payment-errors/payment-errors);
 *   the meanings are the gateway's (Stripe's wording, https://docs.stripe.com/declines/codes).
 * - Chargebee's own `error_cause_id` values, from https://apidocs.chargebee.com/docs/api/error-handling
 *   and the per-error pages under https://apidocs.chargebee.com/docs/api/errors/.
 */
export const CHARGEBEE_DECLINE_CODES = (): readonly DeclineCodeRecord[] =>
  defineProviderCodes('chargebee', [
    decline('insufficient_funds', 'soft_retry', 'balance', 'Gateway decline passed through: the card has insufficient funds.'),
    decline('processing_error', 'soft_retry', 'processing_error', 'Gateway decline passed through: an error occurred while processing the card.'),
    decline('expired_card', 'hard_customer', 'expired', 'Gateway decline passed through: the card has expired.'),
    decline('lost_card', 'hard_customer', 'stolen', 'Gateway decline passed through: the card is reported lost.'),
    decline('stolen_card', 'hard_customer', 'stolen', 'Gateway decline passed through: the card is reported stolen.'),
    decline('invalid_account', 'hard_customer', 'closed', 'Gateway decline passed through: the card, or the account it is connected to, is invalid.'),
    decline('fraudulent', 'terminal', 'fraud', 'Gateway decline passed through: the gateway suspects the payment is fraudulent.'),
    decline('do_not_try_again', 'terminal', 'do_not_retry', 'Gateway decline passed through: the issuer asks not to try again.'),
    decline('generic_decline', 'unknown', 'generic', 'Gateway decline passed through: the card was declined for an unknown reason.'),
    decline('do_not_honor', 'unknown', 'generic', 'Gateway decline passed through: the issuer declined without a reason (do not honor).'),
    decline(
      'gateway.transaction_processing.low_balance',
      'soft_retry',
      'balance',
      'The transaction failed because of insufficient funds (Chargebee marks it retryable).',
      {
        action: 'Leave it to a later retry (Chargebee smart dunning may also retry); remind the customer to add funds.',
      },
    ),
    decline(
      'gateway.transaction_processing.card_declined',
      'unknown',
      'generic',
      'The card issuer or payment processor declined the payment without a specific reason.',
    ),
    decline(
      'gateway.payment_method.card_issue',
      'unknown',
      'generic',
      'An issue with the card: temporary bank-side problems, a card under review or restricted, or an issuer decline without a reason.',
      {
        action: 'Retry once after a short interval; if it fails again, ask the customer to contact their bank or use another card.',
      },
    ),
    decline('gateway.general.decline', 'unknown', 'generic', 'The gateway declined the transaction (general decline).'),
  ]);
