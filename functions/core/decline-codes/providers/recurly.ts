import { decline, defineProviderCodes } from '#core/decline-codes/define';
import type { DeclineCodeRecord } from '#core/decline-codes/types';

/**
 * Recurly transaction `error_code` values (transaction_error.error_code; JSON webhooks need a
 * transaction fetch to see it).
 *
 * Source: https://docs.recurly.com/recurly-subscriptions/docs/api-transaction-errors (merchant
 * messages paraphrased; Recurly groups them as Soft, Hard, Fraud, Communication and
 * Configuration). Categories follow reference/providers.md §9.4. Left out: approvals, PayPal,
 * Amazon, Roku and ACH wallet codes, refund/void/capture errors and gateway configuration errors.
 */
export const RECURLY_DECLINE_CODES = (): readonly DeclineCodeRecord[] =>
  defineProviderCodes('recurly', [
    decline('insufficient_funds', 'soft_retry', 'balance', 'The card has insufficient funds to cover the cost of the transaction.'),
    decline('declined', 'unknown', 'generic', "The customer's bank declined the card; the customer needs to contact their bank to learn why."),
    decline('temporary_hold', 'unknown', 'generic', 'The issuing bank has a temporary hold on the card (a "Do Not Honor" response).'),
    decline('try_again', 'soft_retry', 'processing_error', 'The card was declined with the response to try again later.', {
      adjust: ['explicit_retry_signal'],
    }),
    decline('too_many_attempts', 'soft_retry', 'limit', 'The transaction was declined because of too many authorisation attempts.'),
    decline('call_issuer', 'unknown', 'referral', 'The gateway declined the transaction; the card issuer has more details.'),
    decline(
      'call_issuer_update_cardholder_data',
      'hard_customer',
      'closed',
      'The gateway declined the transaction; the issuer asks for updated cardholder data.',
      {
        action: 'Run the account updater or ask the customer to update their card, then retry.',
        adjust: ['updated_credentials_available'],
      },
    ),
    decline('processor_not_available', 'soft_retry', 'processing_error', 'The payment processor was unavailable for the transaction.'),
    decline('issuer_unavailable', 'soft_retry', 'processing_error', 'The issuer was unavailable to authorise the transaction.'),
    decline('exceeds_daily_limit', 'soft_retry', 'limit', "The transaction exceeds the cardholder's daily approval limit.", {
      adjust: ['limit_resets_daily'],
    }),
    decline(
      'declined_security_code',
      'hard_customer',
      'invalid_details',
      'The gateway declined the transaction because the security code (CVV) or expiration date did not match.',
    ),
    decline('expired_card', 'hard_customer', 'expired', 'The gateway declined the transaction because the expiration date is expired or does not match.'),
    decline(
      'declined_expiration_date',
      'hard_customer',
      'expired',
      'The gateway declined the transaction because the expiration date is expired or does not match.',
    ),
    decline('invalid_card_number', 'hard_customer', 'invalid_details', 'The credit card number is not valid.'),
    decline('invalid_account_number', 'hard_customer', 'closed', 'The account number is not valid.'),
    decline(
      'restricted_card',
      'terminal',
      'not_permitted',
      'The card has restrictions that prevent its use with this merchant account (often a corporate card).',
    ),
    decline(
      'cardholder_requested_stop',
      'terminal',
      'revoked_authorization',
      'The cardholder requested that recurring payments be stopped; the card will no longer work with this merchant.',
    ),
    decline('card_blocked', 'terminal', 'revoked_authorization', 'The cardholder requested that payments to this merchant be stopped.'),
    decline('fraud_stolen_card', 'hard_customer', 'stolen', 'The card has been designated as lost or stolen.'),
    decline('fraud_gateway', 'terminal', 'fraud', 'The gateway declined the transaction because of fraud filters enabled in the gateway.'),
    decline('fraud_velocity', 'terminal', 'fraud', 'The transaction was part of a high volume from a single source, indicating possible fraud.'),
    decline('gateway_timeout', 'soft_retry', 'processing_error', 'The payment gateway timed out while processing the transaction.', {
      action: 'Verify the transaction did not go through before retrying.',
    }),
  ]);
