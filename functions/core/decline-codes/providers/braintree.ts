import { decline, defineProviderCodes } from '#core/decline-codes/define';
import type { DeclineCodeRecord } from '#core/decline-codes/types';

/**
 * Braintree processor response codes (transaction `processor-response-code`, 2000-class declines
 * and 3000 network errors).
 *
 * Source: https://developer.paypal.com/braintree/docs/reference/general/processor-responses/authorization-responses
 * (texts and Braintree's own Soft/Hard decline type, paraphrased). Braintree's "Hard" codes are
 * never classed soft_retry here; its "Soft" do-not-honor style codes go to unknown. The codes that
 * only concern PayPal-wallet or merchant-account setup (2025-2037, 2039-2042, 2045, 2049-2100 except
 * 2053 and 2057) are left out: they are not card declines a recovery flow acts on.
 */
export const BRAINTREE_DECLINE_CODES = (): readonly DeclineCodeRecord[] =>
  defineProviderCodes('braintree', [
    decline('2000', 'unknown', 'generic', "Do Not Honor: the customer's bank is unwilling to accept the transaction (Braintree: soft decline)."),
    decline('2001', 'soft_retry', 'balance', 'Insufficient Funds: the account did not have sufficient funds to cover the transaction amount.'),
    decline('2002', 'soft_retry', 'limit', 'Limit Exceeded: the transaction exceeds the withdrawal limit of the account.'),
    decline('2003', 'soft_retry', 'limit', "Cardholder's Activity Limit Exceeded: the transaction exceeds the activity limit of the account."),
    decline('2004', 'hard_customer', 'expired', 'Expired Card: the card is expired.'),
    decline('2005', 'hard_customer', 'invalid_details', 'Invalid Credit Card Number: the card number is invalid or mistyped.'),
    decline('2006', 'hard_customer', 'expired', 'Invalid Expiration Date: the expiration date is invalid or mistyped.'),
    decline('2007', 'hard_customer', 'closed', 'No Account: the card number was not found at the issuing bank.'),
    decline('2010', 'hard_customer', 'invalid_details', 'Card Issuer Declined CVV: the security code is invalid.'),
    decline('2012', 'hard_customer', 'stolen', 'Processor Declined - Possible Lost Card: the card has likely been reported lost.'),
    decline('2013', 'hard_customer', 'stolen', 'Processor Declined - Possible Stolen Card: the card has likely been reported stolen.'),
    decline('2014', 'terminal', 'fraud', 'Processor Declined - Fraud Suspected: the bank suspects fraud.'),
    decline(
      '2015',
      'terminal',
      'not_permitted',
      'Transaction Not Allowed: the bank declines the transaction, possibly because of an issue with the card itself.',
    ),
    decline('2017', 'terminal', 'revoked_authorization', 'Cardholder Stopped Billing: the customer asked to cancel a single transaction.'),
    decline(
      '2018',
      'terminal',
      'revoked_authorization',
      'Cardholder Stopped All Billing: the customer asked to cancel a recurring transaction or subscription.',
    ),
    decline('2019', 'terminal', 'not_permitted', 'Invalid Transaction: the card does not support this type of transaction.'),
    decline('2021', 'terminal', 'fraud', 'Security Violation: the bank declines the transaction, possibly because of a fraud concern.'),
    decline(
      '2022',
      'hard_customer',
      'closed',
      'Declined - Updated Cardholder Available: the card has expired or been reported lost and a new card has been issued.',
      {
        action: 'Run the account updater or ask the customer for the new card, then retry.',
        adjust: ['updated_credentials_available'],
      },
    ),
    decline(
      '2038',
      'unknown',
      'generic',
      'Processor Declined: the bank is unwilling to accept the transaction, for varying reasons (Braintree: soft decline).',
    ),
    decline('2043', 'terminal', 'do_not_retry', 'Error - Do Not Retry, Call Issuer: the card-issuing bank will not allow this transaction.'),
    decline('2044', 'unknown', 'referral', 'Declined - Call Issuer: the card-issuing bank declined the transaction; the customer should contact the bank.'),
    decline('2046', 'unknown', 'generic', 'Declined: the bank is unwilling to accept the transaction (Braintree: soft decline).'),
    decline(
      '2047',
      'hard_customer',
      'stolen',
      'Call Issuer. Pick Up Card: the card has been reported lost or stolen and the issuer asked merchants to report it.',
    ),
    decline('2053', 'hard_customer', 'stolen', 'Card reported as lost or stolen.'),
    decline('2057', 'soft_retry', 'issuer_hold', 'Issuer or Cardholder has put a restriction on the card (Braintree: soft decline).', {
      action: 'Ask the customer to lift the restriction with their bank, then retry.',
    }),
    decline('3000', 'soft_retry', 'processing_error', 'Processor Network Unavailable - Try Again: a problem on the back-end processing network.', {
      adjust: ['explicit_retry_signal'],
    }),
  ]);
