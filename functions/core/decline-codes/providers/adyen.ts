import { decline, defineProviderCodes } from '#core/decline-codes/define';
import type { DeclineCodeRecord } from '#core/decline-codes/types';

/**
 * Adyen `refusalReasonCode` values (with their `refusalReason` text), as sent on an
 * AUTHORISATION webhook with success "false".
 *
 * Source: https://docs.adyen.com/development-resources/refusal-reasons (texts paraphrased; code 46
 * "Transaction blocked by Adyen to prevent excessive retry fees" and 38 as listed there). Category
 * choices follow reference/providers.md §3.4. Left out: card-present and flow codes (15 Cancelled,
 * 16 Shopper Cancelled, 17-19 PIN, 21 Not Submitted, 32-37 and 39-45), which a stored-card renewal
 * does not receive or which say nothing about the card. The raw scheme code, when enabled, arrives
 * in additionalData.refusalReasonRaw and should be passed to classifyDecline as networkCode.
 */
export const ADYEN_DECLINE_CODES = (): readonly DeclineCodeRecord[] =>
  defineProviderCodes('adyen', [
    decline('2', 'unknown', 'generic', 'Refused: the transaction was refused.'),
    decline('3', 'unknown', 'referral', 'Referral: the issuer referred the transaction.'),
    decline('4', 'soft_retry', 'processing_error', "Acquirer Error: the transaction did not go through because of an error on the acquirer's side."),
    decline('5', 'hard_customer', 'stolen', 'Blocked Card: the card used for the transaction is blocked and cannot be used.'),
    decline('6', 'hard_customer', 'expired', 'Expired Card: the card used for the transaction has expired.'),
    decline('7', 'terminal', 'merchant_error', 'Invalid Amount: an amount mismatch occurred during the transaction.'),
    decline('8', 'hard_customer', 'invalid_details', 'Invalid Card Number: the card number is incorrect or invalid.'),
    decline('9', 'soft_retry', 'processing_error', "Issuer Unavailable: the shopper's bank could not be contacted to authorise the transaction."),
    decline('10', 'terminal', 'not_permitted', "Not supported: the shopper's bank does not support or allow this type of transaction."),
    decline('11', 'hard_customer', 'authentication_required', '3D Not Authenticated: 3-D Secure authentication was not executed, or did not succeed.'),
    decline('12', 'soft_retry', 'balance', 'Not enough balance: the card does not have enough money to cover the amount.'),
    decline('14', 'terminal', 'fraud', 'Acquirer Fraud: possible fraud, flagged by the acquirer.'),
    decline('20', 'terminal', 'fraud', 'FRAUD: possible fraud.'),
    decline('22', 'terminal', 'fraud', 'FRAUD-CANCELLED: the risk check flagged the transaction as fraudulent, so it was cancelled.'),
    decline('23', 'terminal', 'not_permitted', 'Transaction Not Permitted: the transaction is not permitted on this card.'),
    decline('24', 'hard_customer', 'invalid_details', 'CVC Declined: the security code is invalid.'),
    decline('25', 'hard_customer', 'closed', 'Restricted Card: the card is restricted.'),
    decline('26', 'terminal', 'revoked_authorization', 'Revocation Of Auth: the authorisation for this card has been revoked (recurring payments stopped).'),
    decline('27', 'unknown', 'generic', 'Declined Non Generic: the issuer declined with a reason Adyen does not map to a generic one.'),
    decline('28', 'soft_retry', 'limit', 'Withdrawal amount exceeded: the withdrawal amount permitted for the card has been exceeded.'),
    decline('29', 'soft_retry', 'limit', 'Withdrawal count exceeded: the number of withdrawals permitted for the card has been exceeded.', {
      adjust: ['limit_resets_daily'],
    }),
    decline('31', 'terminal', 'fraud', 'Issuer Suspected Fraud: the issuer reported the transaction as suspected fraud.'),
    decline(
      '38',
      'hard_customer',
      'authentication_required',
      'Authentication required: the issuer declined the authentication exemption and requires authentication (3-D Secure).',
    ),
    decline('46', 'terminal', 'do_not_retry', 'Transaction blocked by Adyen to prevent excessive retry fees.', {
      action: 'Stop retrying this card: the card networks would fine further attempts. Ask the customer for another payment method.',
    }),
  ]);
