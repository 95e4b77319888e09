import { decline, defineProviderCodes } from '#core/decline-codes/define';
import type { DeclineCodeRecord } from '#core/decline-codes/types';

/**
 * Razorpay payment error `reason` values (payload.payment.entity.error_reason on payment.failed).
 *
 * Sources: https://razorpay.com/docs/errors/payments/cards/ (razorpay/markdown-docs
 * errors/payments/cards.md; descriptions paraphrased), the card recurring error list
 * https://razorpay.com/docs/payments/payment-gateway/s2s-integration/recurring-payments/cards/error-codes
 * (customer_action_required) and https://razorpay.com/docs/errors/payments/list (bank_account_invalid,
 * for e-mandates). Categories follow reference/providers.md §11.4, except authentication_failed
 * (a failed 3-D Secure/OTP step, so hard_customer/authentication_required rather than unknown).
 */
export const RAZORPAY_DECLINE_CODES = (): readonly DeclineCodeRecord[] =>
  defineProviderCodes('razorpay', [
    decline('insufficient_funds', 'soft_retry', 'balance', "The customer's account did not have enough funds to complete the transaction."),
    decline('transaction_limit_exceeded', 'soft_retry', 'limit', 'The customer has already reached the maximum transaction limit on their card for the day.', {
      adjust: ['limit_resets_daily'],
    }),
    decline('bank_technical_error', 'soft_retry', 'processing_error', "The payment failed because of downtime at the customer's bank."),
    decline('gateway_technical_error', 'soft_retry', 'processing_error', "The payment failed because of downtime at Razorpay's partner bank."),
    decline('card_declined', 'unknown', 'generic', "The customer's bank declined the payment without giving Razorpay a reason."),
    decline('payment_cancelled', 'unknown', 'generic', "The payment was not completed: the customer cancelled it, or the customer's bank was down."),
    decline('card_expired', 'hard_customer', 'expired', "The customer's card is expired."),
    decline('debit_instrument_blocked', 'hard_customer', 'stolen', 'The card is blocked, by the customer or by their bank.'),
    decline('debit_instrument_inactive', 'hard_customer', 'closed', 'The card is not activated or not enabled for online transactions.'),
    decline('card_disabled_for_online_payments', 'hard_customer', 'closed', 'The customer has not enabled the card for online transactions.', {
      action: 'Ask the customer to enable online payments in their bank app (card controls), then retry.',
    }),
    decline('incorrect_cvv', 'hard_customer', 'invalid_details', 'The customer entered an incorrect CVV.'),
    decline('bank_account_invalid', 'hard_customer', 'closed', 'The bank account is not valid; the customer or bank may have closed it.'),
    decline(
      'authentication_failed',
      'hard_customer',
      'authentication_required',
      'The customer entered incorrect OTP or verification details, or abandoned the authentication step.',
    ),
    decline(
      'customer_action_required',
      'hard_customer',
      'authentication_required',
      'The recurring payment failed because the customer did not approve the pre-debit notification.',
      {
        action: 'Ask the customer to approve the pre-debit notification from their bank, then retry.',
      },
    ),
    decline('payment_risk_check_failed', 'terminal', 'fraud', "The customer's bank declined the payment, citing it as fraudulent."),
  ]);
