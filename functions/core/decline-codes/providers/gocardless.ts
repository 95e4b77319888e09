import { decline, defineProviderCodes } from '#core/decline-codes/define';
import type { DeclineCodeRecord } from '#core/decline-codes/types';

/**
 * GoCardless `details.cause` values on payment `failed` / `cancelled` events (the scheme's own
 * reason code, e.g. Bacs ARUDD-0 or SEPA AM04, arrives beside it in details.reason_code).
 *
 * Sources: https://developer.gocardless.com/api-reference/#events-payment-actions (the cause,
 * origin, scheme and reason_code table; descriptions paraphrased) and
 * https://developer.gocardless.com/mandates/responding-to-mandate-events/. Categories follow
 * reference/providers.md §13.4. refer_to_payer is GoCardless's catch-all for "the bank would not
 * pay", almost always insufficient funds (Bacs ARUDD-0), so it stays unknown but is often worth
 * the retry GoCardless itself offers (will_attempt_retry).
 */
export const GOCARDLESS_DECLINE_CODES = (): readonly DeclineCodeRecord[] =>
  defineProviderCodes('gocardless', [
    decline('insufficient_funds', 'soft_retry', 'balance', "The customer's account had insufficient funds to make this payment (SEPA AM04)."),
    decline(
      'refer_to_payer',
      'unknown',
      'referral',
      "The customer's bank would not pay the Direct Debit; almost always insufficient funds, occasionally a catch-all (Bacs ARUDD-0, ACH R01/R09).",
      {
        action: 'Let GoCardless retry when will_attempt_retry is true; otherwise contact the customer before collecting again.',
      },
    ),
    decline('bank_account_closed', 'hard_customer', 'closed', 'The bank account was closed (or the customer is deceased); the mandate is cancelled too.'),
    decline('bank_account_transferred', 'hard_customer', 'closed', 'The mandate was transferred to a new bank account and the payment went to the old one.', {
      action: 'Wait for the mandate `transferred` event, then retry against the new account.',
      adjust: ['updated_credentials_available'],
    }),
    decline(
      'invalid_bank_details',
      'hard_customer',
      'invalid_details',
      'The account number was invalid or does not exist; the mandate is cancelled or failed too.',
    ),
    decline('mandate_cancelled', 'hard_customer', 'closed', 'The customer cancelled the mandate at their bank before the payment could be collected.', {
      action: 'Ask the customer to set up a new mandate before collecting again.',
    }),
    decline('mandate_expired', 'hard_customer', 'closed', 'The mandate expired because no collection was attempted for over 13 months.', {
      action: 'Ask the customer to authorise a new mandate (or reinstate it) before collecting again.',
    }),
    decline('authorisation_disputed', 'terminal', 'revoked_authorization', 'The customer disputes having authorised the mandate or the payment.'),
    decline('direct_debit_not_enabled', 'terminal', 'not_permitted', 'The bank account does not support Direct Debit; the mandate is cancelled too.'),
    decline('account_blocked_for_any_financial_transaction', 'hard_customer', 'closed', "The payer's bank account is blocked (SEPA AC06)."),
    decline(
      'return_on_odfi_request',
      'terminal',
      'revoked_authorization',
      'The payment was returned at the request of the originating bank because the customer disputed authorising it (ACH R06).',
    ),
    decline('payment_stopped', 'terminal', 'revoked_authorization', 'The payment was stopped by the payer or their bank.'),
    decline('other', 'unknown', 'unmapped', 'The bank failed the payment for another reason (internal errors, unsupported formats, missing mandate).', {
      adjust: ['catch_all'],
    }),
  ]);
