import { decline, defineProviderCodes } from '#core/decline-codes/define';
import type { DeclineCodeRecord } from '#core/decline-codes/types';

/**
 * Stripe `decline_code` values (charge.outcome.reason, payment_intent.last_payment_error.decline_code).
 *
 * Sources: https://docs.stripe.com/declines/codes (descriptions and next steps, paraphrased) and the
 * stripe-php `Charge::DECLINED_*` constants that link that page; `invalid_expiry_month` and
 * `authentication_not_handled` come from the current docs page (reference/providers.md §1.4).
 * Left out: the card-present PIN codes (incorrect_pin, invalid_pin, offline_pin_required,
 * online_or_offline_pin_required, pin_try_exceeded), which an off-session renewal never receives.
 * Stripe's `advice_code` values (try_again_later, do_not_try_again, confirm_card_data) are advice,
 * not decline codes: they live in card-network-rules.ts and take precedence in classifyDecline.
 */
export const STRIPE_DECLINE_CODES = (): readonly DeclineCodeRecord[] =>
  defineProviderCodes('stripe', [
    decline(
      'authentication_required',
      'hard_customer',
      'authentication_required',
      'The card was declined because the transaction requires authentication such as 3-D Secure.',
      {
        action: 'Off-session retries keep failing: ask the customer to return and authenticate the payment (hosted invoice or payment link).',
      },
    ),
    decline(
      'authentication_not_handled',
      'hard_customer',
      'authentication_required',
      'The payment required authentication such as 3-D Secure, and the authentication was not handled.',
    ),
    decline('approve_with_id', 'soft_retry', 'processing_error', 'The payment cannot be authorised.', {
      action: 'Attempt the payment again; if it still cannot be processed, the customer needs to contact their card issuer.',
    }),
    decline('call_issuer', 'unknown', 'referral', 'The card was declined for an unknown reason; the customer needs to contact their card issuer.'),
    decline('card_not_supported', 'terminal', 'not_permitted', 'The card does not support this type of purchase.'),
    decline(
      'card_velocity_exceeded',
      'soft_retry',
      'limit',
      'The customer has exceeded the balance, credit limit or transaction amount limit available on their card.',
    ),
    decline('currency_not_supported', 'terminal', 'not_permitted', 'The card does not support the specified currency.'),
    decline('do_not_honor', 'unknown', 'generic', 'The card was declined for an unknown reason.'),
    decline('do_not_try_again', 'terminal', 'do_not_retry', 'The card was declined for an unknown reason and the issuer asks not to try again.'),
    decline('duplicate_transaction', 'terminal', 'merchant_error', 'A transaction with identical amount and card information was submitted very recently.', {
      action: 'Check whether a recent payment already succeeded before charging again.',
    }),
    decline('expired_card', 'hard_customer', 'expired', 'The card has expired.'),
    decline('fraudulent', 'terminal', 'fraud', 'The payment was declined because Stripe suspects that it is fraudulent.', {
      action: 'Do not retry; show the customer a generic decline message, as Stripe advises, and review the payment in Radar.',
    }),
    decline('generic_decline', 'unknown', 'generic', 'The card was declined for an unknown reason, or a Radar rule blocked the payment.'),
    decline('incorrect_number', 'hard_customer', 'invalid_details', 'The card number is incorrect.'),
    decline('incorrect_cvc', 'hard_customer', 'invalid_details', 'The CVC number is incorrect.'),
    decline('incorrect_zip', 'hard_customer', 'invalid_details', 'The postal code is incorrect.'),
    decline('insufficient_funds', 'soft_retry', 'balance', 'The card has insufficient funds to complete the purchase.'),
    decline('invalid_account', 'hard_customer', 'closed', 'The card, or the account the card is connected to, is invalid.'),
    decline('invalid_amount', 'terminal', 'merchant_error', 'The payment amount is invalid or exceeds the amount that is allowed.', {
      action: 'Verify the amount; if it is correct, the customer must check with their issuer that they can make purchases of that amount.',
    }),
    decline('invalid_cvc', 'hard_customer', 'invalid_details', 'The CVC number is incorrect.'),
    decline('invalid_expiry_month', 'hard_customer', 'expired', 'The expiration month is invalid.'),
    decline('invalid_expiry_year', 'hard_customer', 'expired', 'The expiration year is invalid.'),
    decline('invalid_number', 'hard_customer', 'invalid_details', 'The card number is incorrect.'),
    decline('issuer_not_available', 'soft_retry', 'processing_error', 'The card issuer could not be reached, so the payment could not be authorised.', {
      action: 'Attempt the payment again; if it still fails, the customer needs to contact their card issuer.',
      adjust: ['explicit_retry_signal'],
    }),
    decline('lost_card', 'hard_customer', 'stolen', 'The payment was declined because the card is reported lost.', {
      action: 'Do not retry this card; ask for a new card with a generic decline message (Stripe advises not to reveal the reason).',
    }),
    decline('merchant_blacklist', 'terminal', 'fraud', "The payment matches a value on the Stripe user's block list."),
    decline(
      'new_account_information_available',
      'hard_customer',
      'closed',
      'The card, or the account the card is connected to, is invalid; new account information is available.',
      {
        action: 'Wait for the account updater (payment_method.automatically_updated) or ask the customer for the new card, then retry.',
        adjust: ['updated_credentials_available'],
      },
    ),
    decline('no_action_taken', 'unknown', 'generic', 'The card was declined for an unknown reason.'),
    decline('not_permitted', 'terminal', 'not_permitted', 'The payment is not permitted.'),
    decline('pickup_card', 'hard_customer', 'stolen', 'The card cannot be used to make this payment; it may have been reported lost or stolen.'),
    decline('processing_error', 'soft_retry', 'processing_error', 'An error occurred while processing the card.', {
      action: 'Attempt the payment again; if it still fails, retry later.',
    }),
    decline('reenter_transaction', 'soft_retry', 'processing_error', 'The issuer could not process the payment for an unknown reason.', {
      action: 'Attempt the payment again; if it still fails, the customer needs to contact their card issuer.',
      adjust: ['explicit_retry_signal'],
    }),
    decline('restricted_card', 'hard_customer', 'stolen', 'The card cannot be used to make this payment; it may have been reported lost or stolen.'),
    decline(
      'revocation_of_all_authorizations',
      'terminal',
      'revoked_authorization',
      'The cardholder has revoked all authorisations for recurring payments on this card.',
    ),
    decline(
      'revocation_of_authorization',
      'terminal',
      'revoked_authorization',
      "The cardholder has revoked the authorisation for this merchant's recurring payments.",
    ),
    decline('security_violation', 'terminal', 'fraud', 'The card was declined because of an issuer security violation.'),
    decline('service_not_allowed', 'terminal', 'not_permitted', 'The card was declined because the service is not allowed on this card.'),
    decline('stolen_card', 'hard_customer', 'stolen', 'The payment was declined because the card is reported stolen.', {
      action: 'Do not retry this card; ask for a new card with a generic decline message (Stripe advises not to reveal the reason).',
    }),
    decline('stop_payment_order', 'terminal', 'revoked_authorization', 'The cardholder has placed a stop-payment order with their issuer.'),
    decline('testmode_decline', 'terminal', 'merchant_error', 'A Stripe test card number was used.', {
      action: 'A genuine card is needed: check the integration is not charging test cards in live mode.',
    }),
    decline('transaction_not_allowed', 'terminal', 'not_permitted', 'The card was declined because this transaction is not allowed on the card.'),
    decline('try_again_later', 'soft_retry', 'processing_error', 'The card was declined for an unknown reason and the issuer suggests trying again later.', {
      adjust: ['explicit_retry_signal'],
    }),
    decline('withdrawal_count_limit_exceeded', 'soft_retry', 'limit', 'The customer has exceeded the balance or credit limit available on their card.', {
      adjust: ['limit_resets_daily'],
    }),
  ]);
