import { decline, defineProviderCodes } from '#core/decline-codes/define';
import type { DeclineCodeRecord } from '#core/decline-codes/types';

/**
 * Mollie card `details.failureReason` values (GET /v2/payments/{id} on a failed recurring payment).
 *
 * Sources: https://docs.mollie.com/reference/get-payment (details.failureReason) and the
 * @mollie/api-client `CardFailureReason` type (mollie/mollie-api-node src/data/global.ts), which
 * lists all 15 values; all are here. Categories follow reference/providers.md §12.4, except the
 * three authentication values (hard_customer/authentication_required: the customer must complete
 * 3-D Secure) and invalid card data (hard_customer/invalid_details). SEPA Direct Debit failures
 * carry ISO 20022 bankReasonCode values instead; GoCardless's file covers those causes.
 */
export const MOLLIE_DECLINE_CODES = (): readonly DeclineCodeRecord[] =>
  defineProviderCodes('mollie', [
    decline('authentication_abandoned', 'hard_customer', 'authentication_required', 'The customer abandoned the 3-D Secure authentication.'),
    decline('authentication_failed', 'hard_customer', 'authentication_required', 'The 3-D Secure authentication failed.'),
    decline('authentication_required', 'hard_customer', 'authentication_required', 'The issuer requires 3-D Secure authentication for this payment.'),
    decline('authentication_unavailable_acs', 'soft_retry', 'processing_error', "The issuer's authentication server (ACS) was unavailable."),
    decline('card_declined', 'unknown', 'generic', 'The card was declined.'),
    decline('card_expired', 'hard_customer', 'expired', 'The card has expired.'),
    decline('inactive_card', 'hard_customer', 'closed', 'The card is inactive.'),
    decline('insufficient_funds', 'soft_retry', 'balance', 'The card has insufficient funds.'),
    decline('invalid_cvv', 'hard_customer', 'invalid_details', 'The card security code (CVV) is invalid.'),
    decline('invalid_card_holder_name', 'hard_customer', 'invalid_details', 'The cardholder name is invalid.'),
    decline('invalid_card_number', 'hard_customer', 'invalid_details', 'The card number is invalid.'),
    decline('invalid_card_type', 'terminal', 'not_permitted', 'The card type is not supported for this payment.'),
    decline('possible_fraud', 'terminal', 'fraud', 'The payment was declined because of possible fraud.'),
    decline('refused_by_issuer', 'unknown', 'generic', 'The issuer refused the payment.'),
    decline('unknown_reason', 'unknown', 'unmapped', 'The payment failed for an unknown reason.', { adjust: ['catch_all'] }),
  ]);
