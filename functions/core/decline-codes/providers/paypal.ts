import { decline, defineProviderCodes } from '#core/decline-codes/define';
import type { DeclineCodeRecord } from '#core/decline-codes/types';

/**
 * PayPal decline codes of two kinds:
 * - Subscriptions `billing_info.last_failed_payment.reason_code` (all 8 values), from
 *   https://developer.paypal.com/api/subscriptions/v1/ (failed_payment_details.reason_code).
 * - Card `processor_response.response_code` values that decline a payment, from the PayPal Server
 *   SDK enum `ProcessorResponseCode` (paypal/PayPal-TypeScript-Server-SDK src/models/processorResponseCode.ts)
 *   and https://developer.paypal.com/api/rest/responses/ for their names.
 * Processor codes about PINs, terminals, reversals, refunds or PayPal-internal routing are left out.
 */
export const PAYPAL_DECLINE_CODES = (): readonly DeclineCodeRecord[] =>
  defineProviderCodes('paypal', [
    // Subscriptions v1 reason_code
    decline('PAYMENT_DENIED', 'unknown', 'generic', 'PayPal declined the payment because of one or more customer issues.'),
    decline('INTERNAL_SERVER_ERROR', 'soft_retry', 'processing_error', 'An internal server error occurred at PayPal.'),
    decline('PAYEE_ACCOUNT_RESTRICTED', 'terminal', 'merchant_error', 'The payee (merchant) account is not in good standing and cannot receive payments.'),
    decline('PAYER_ACCOUNT_RESTRICTED', 'hard_customer', 'closed', 'The payer account is not in good standing and cannot make payments.'),
    decline('PAYER_CANNOT_PAY', 'hard_customer', 'closed', 'The payer cannot pay for this transaction.', {
      action: 'Ask the customer to add or change the funding source in their PayPal account, or to pay another way.',
    }),
    decline('SENDING_LIMIT_EXCEEDED', 'soft_retry', 'limit', "The transaction exceeds the payer's sending limit."),
    decline('TRANSACTION_RECEIVING_LIMIT_EXCEEDED', 'terminal', 'merchant_error', "The transaction exceeds the receiver's receiving limit.", {
      action: 'The merchant must lift the receiving limit on its PayPal account before charging again.',
    }),
    decline('CURRENCY_MISMATCH', 'terminal', 'merchant_error', 'The transaction was declined because of a currency mismatch.'),
    // Card processor_response.response_code
    decline('0500', 'unknown', 'generic', 'DO_NOT_HONOR: the issuer declined the transaction.'),
    decline('5100', 'unknown', 'generic', 'GENERIC_DECLINE: the issuer declined the transaction without a specific reason.'),
    decline('5120', 'soft_retry', 'balance', 'INSUFFICIENT_FUNDS: the card has insufficient funds.'),
    decline('5140', 'hard_customer', 'closed', 'CARD_CLOSED: the card account is closed.'),
    decline('5400', 'hard_customer', 'expired', 'EXPIRED_CARD: the card has expired.'),
    decline('5700', 'terminal', 'not_permitted', 'TRANSACTION_NOT_PERMITTED: outside the scope of accepted business for this card.'),
    decline('5710', 'soft_retry', 'limit', 'TX_ATTEMPTS_EXCEED_LIMIT: the number of transaction attempts exceeds the limit.', {
      adjust: ['limit_resets_daily'],
    }),
    decline('5920', 'soft_retry', 'processing_error', 'ISSUER_NOT_AVAILABLE_RETRIABLE: the issuer is not available; the transaction can be retried.', {
      adjust: ['explicit_retry_signal'],
    }),
    decline('5950', 'hard_customer', 'closed', 'DECLINED_DUE_TO_UPDATED_ACCOUNT: declined because an updated card has been issued.', {
      action: 'Ask the customer to update the card in their PayPal wallet or on file, then retry.',
      adjust: ['updated_credentials_available'],
    }),
    decline('9100', 'soft_retry', 'processing_error', 'DECLINED_PLEASE_RETRY: the transaction was declined; retry.', {
      adjust: ['explicit_retry_signal'],
    }),
    decline('9500', 'terminal', 'fraud', 'SUSPECTED_FRAUD: try using another card; do not retry the same card.'),
    decline('9520', 'hard_customer', 'stolen', 'LOST_OR_STOLEN: the card is reported lost or stolen; do not retry the same card.'),
    decline('PP06', 'hard_customer', 'closed', 'ACCOUNT_CLOSED: a previously open account is now closed.'),
    decline('PPRN', 'terminal', 'do_not_retry', 'REATTEMPT_NOT_PERMITTED: reattempting this payment is not permitted.'),
  ]);
