import { decline, defineProviderCodes } from '#core/decline-codes/define';
import type { DeclineCodeRecord } from '#core/decline-codes/types';

/**
 * Square `ErrorCode` values that decline a payment (payment.card_details.errors[].code on a FAILED
 * payment, or the errors of invoice.scheduled_charge_failed).
 *
 * Sources: https://developer.squareup.com/reference/square/enums/ErrorCode (descriptions
 * paraphrased) and the square-nodejs-sdk `src/api/types/ErrorCode.ts` enum. Categories follow
 * reference/providers.md §6.4, with one change: PAYMENT_LIMIT_EXCEEDED is the seller's processing
 * limit, not the customer's, so it is a terminal merchant_error rather than soft_retry/limit.
 * Left out: the ~130 request, auth and card-present codes (PIN, chip, reader) that never describe
 * a renewal decline.
 */
export const SQUARE_DECLINE_CODES = (): readonly DeclineCodeRecord[] =>
  defineProviderCodes('square', [
    decline('INSUFFICIENT_FUNDS', 'soft_retry', 'balance', 'The funding source has insufficient funds to cover the payment.'),
    decline('GIFT_CARD_AVAILABLE_AMOUNT', 'soft_retry', 'balance', "The payment amount exceeds the gift card's available balance.", {
      adjust: ['prepaid_balance'],
    }),
    decline('TRANSACTION_LIMIT', 'soft_retry', 'limit', 'The card issuer has determined the payment amount is either too high or too low.'),
    decline(
      'PAYMENT_LIMIT_EXCEEDED',
      'terminal',
      'merchant_error',
      'Square declined the payment because the amount exceeds the processing limit for this seller.',
    ),
    decline(
      'TEMPORARY_ERROR',
      'soft_retry',
      'processing_error',
      'A temporary internal error occurred; the call can be retried safely with the same idempotency key.',
      {
        adjust: ['explicit_retry_signal'],
      },
    ),
    decline('CARD_EXPIRED', 'hard_customer', 'expired', 'The card issuer declined the payment because the card is expired.'),
    decline('INVALID_EXPIRATION', 'hard_customer', 'expired', "The card's expiration date is invalid, for example in the past."),
    decline('BAD_EXPIRATION', 'hard_customer', 'expired', 'The card expiration date is missing or incorrectly formatted.'),
    decline('CARD_DECLINED_CALL_ISSUER', 'unknown', 'referral', 'The card issuer declined the payment and asks the cardholder to call them.'),
    decline('INVALID_ACCOUNT', 'hard_customer', 'closed', 'The card issuer was not able to locate the account on record.'),
    decline('ACCOUNT_UNUSABLE', 'hard_customer', 'closed', 'The account provided cannot carry out transactions.'),
    decline('CARD_NOT_SUPPORTED', 'terminal', 'not_permitted', "The card is not supported in the seller's region or for the seller's merchant category."),
    decline(
      'CARDHOLDER_INSUFFICIENT_PERMISSIONS',
      'terminal',
      'not_permitted',
      'The card issuer declined the payment because of restrictions on where the card can be used.',
    ),
    decline('INSUFFICIENT_PERMISSIONS', 'terminal', 'merchant_error', 'The Square account does not have the permissions to accept this payment.'),
    decline('BUYER_REFUSED_PAYMENT', 'terminal', 'revoked_authorization', 'The bank account rejected or did not authorise the payment.'),
    decline('GENERIC_DECLINE', 'unknown', 'generic', 'The card issuer declined the payment without giving a reason.'),
    decline('CARD_DECLINED', 'unknown', 'generic', 'The card was declined.'),
    decline('CVV_FAILURE', 'hard_customer', 'invalid_details', 'The card issuer declined the payment because the CVV value is invalid.'),
    decline('ADDRESS_VERIFICATION_FAILURE', 'hard_customer', 'invalid_details', 'The card issuer declined the payment because the postal code is invalid.'),
    decline(
      'CARD_DECLINED_VERIFICATION_REQUIRED',
      'hard_customer',
      'authentication_required',
      'The card was declined with a request for additional verification.',
    ),
  ]);
