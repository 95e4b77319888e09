import { decline, defineProviderCodes } from '#core/decline-codes/define';
import type { DeclineCodeRecord } from '#core/decline-codes/types';

/**
 * Paddle Billing payment-attempt `error_code` values (transaction.payments[].error_code on
 * transaction.payment_failed).
 *
 * Sources: the Paddle API reference for transactions (payments[].error_code descriptions,
 * paraphrased), the changelog entry https://developer.paddle.com/changelog/2024/declined-not-retryable-error-code,
 * and the @paddle/paddle-node-sdk `src/enums/shared/error-code.ts` enum. Every decline value is
 * here; the three that are not declines (already_canceled, already_refunded,
 * redacted_payment_method) are left out. Departures from reference/providers.md §10.4, following
 * Paddle's own descriptions: invalid_payment_details "typically means that it's expired", canceled
 * is the customer cancelling the recurring mandate, authentication_failed is a failed 3DS2 challenge.
 */
export const PADDLE_DECLINE_CODES = (): readonly DeclineCodeRecord[] =>
  defineProviderCodes('paddle', [
    decline(
      'authentication_failed',
      'hard_customer',
      'authentication_required',
      'The payment required a 3DS2 challenge; the customer completed it without success.',
    ),
    decline('blocked_card', 'hard_customer', 'stolen', 'The issuer indicated the card cannot be used because it is frozen, lost, damaged or stolen.'),
    decline('canceled', 'terminal', 'revoked_authorization', 'The customer requested that the mandate for recurring payments be cancelled.'),
    decline('declined', 'unknown', 'generic', 'The payment method was declined, with no other information returned.'),
    decline(
      'declined_not_retryable',
      'terminal',
      'do_not_retry',
      'The payment method was declined and the issuer indicated it should not be retried (closed account or revoked authorisation).',
    ),
    decline('expired_card', 'hard_customer', 'expired', 'The issuer indicated that this card is expired.'),
    decline('fraud', 'terminal', 'fraud', 'The issuer or payment service provider flagged this payment as potentially fraudulent.'),
    decline('invalid_amount', 'terminal', 'merchant_error', 'The issuer or payment service provider cannot process a payment this high or low.'),
    decline(
      'invalid_payment_details',
      'hard_customer',
      'expired',
      'The payment service provider indicated the payment method is not valid, which typically means it has expired.',
    ),
    decline('issuer_unavailable', 'soft_retry', 'processing_error', 'The payment service provider could not reach the payment method issuer.'),
    decline('not_enough_balance', 'soft_retry', 'balance', 'The payment method was declined because of insufficient funds, or fund limits being reached.'),
    decline(
      'preferred_network_not_supported',
      'terminal',
      'not_permitted',
      'The network scheme the customer selected is not supported by the payment service provider.',
    ),
    decline(
      'prepaid_card_not_supported',
      'terminal',
      'not_permitted',
      'The payment method is a prepaid card and prepaid cards are blocked on this Paddle account.',
    ),
    decline('psp_error', 'soft_retry', 'processing_error', 'Something went wrong with the payment service provider, with no other information returned.'),
    decline('system_error', 'soft_retry', 'processing_error', 'Something went wrong with the Paddle platform; try again later.', {
      adjust: ['explicit_retry_signal'],
    }),
    decline(
      'transaction_not_permitted',
      'terminal',
      'not_permitted',
      'The issuer does not allow this kind of payment because of account limits, or legal or compliance reasons.',
    ),
    decline('unknown', 'unknown', 'unmapped', 'The payment attempt was unsuccessful, with no other information returned.', {
      adjust: ['catch_all'],
    }),
  ]);
