import { decline, defineProviderCodes } from '#core/decline-codes/define';
import type { DeclineCodeRecord } from '#core/decline-codes/types';

/**
 * Authorize.Net Response Reason Codes (RRC, transactionResponse.errors[].errorCode; fetched with
 * getTransactionDetailsRequest, since webhooks carry only the response code).
 *
 * Source: the Response Code Tool, https://developer.authorize.net/api/reference/responseCodes.html
 * (texts and notes paraphrased). Categories follow reference/providers.md §7.4. RRC 19 stands for
 * the whole "An error occurred during processing. Please try again in 5 minutes." family
 * (19-23, 25, 26, which share one text); RRC 3 repeats RRC 2's text and is left out, as are the
 * several hundred API, configuration and eCheck codes. Authorize.Net exposes no dedicated
 * insufficient-funds RRC: most such declines arrive as RRC 2 (unverified, providers.md).
 */
export const AUTHORIZE_NET_DECLINE_CODES = (): readonly DeclineCodeRecord[] =>
  defineProviderCodes('authorize_net', [
    decline('2', 'unknown', 'generic', 'This transaction has been declined (general decline by the card issuer).'),
    decline('4', 'hard_customer', 'stolen', 'This transaction has been declined: the processor says the card must be picked up.'),
    decline('6', 'hard_customer', 'invalid_details', 'The credit card number is invalid.'),
    decline('8', 'hard_customer', 'expired', 'The credit card has expired.'),
    decline(
      '11',
      'terminal',
      'merchant_error',
      'A duplicate transaction has been submitted: identical amount and card information within the duplicate window.',
      {
        action: 'Check whether the earlier transaction succeeded before charging again.',
      },
    ),
    decline('19', 'soft_retry', 'processing_error', 'An error occurred during processing. Please try again in 5 minutes.', {
      adjust: ['explicit_retry_signal'],
    }),
    decline(
      '27',
      'hard_customer',
      'invalid_details',
      "The transaction resulted in an AVS mismatch: the address does not match the cardholder's billing address.",
    ),
    decline('37', 'hard_customer', 'invalid_details', 'The credit card number is invalid.'),
    decline('41', 'terminal', 'fraud', "This transaction has been declined: its FraudScreen score is above the merchant's threshold."),
    decline('44', 'hard_customer', 'invalid_details', 'This transaction has been declined: the card code did not match the one on file at the issuing bank.'),
    decline(
      '45',
      'hard_customer',
      'invalid_details',
      "This transaction has been declined: both the AVS and card code results matched the merchant's rejection criteria.",
    ),
    decline('65', 'hard_customer', 'invalid_details', "This transaction has been declined: the merchant's settings reject this card code mismatch."),
    decline('250', 'terminal', 'fraud', 'This transaction has been declined: it was submitted from a blocked IP address.'),
    decline('251', 'terminal', 'fraud', 'This transaction has been declined: it triggered a Fraud Detection Suite filter.'),
    decline('254', 'terminal', 'fraud', 'Your transaction has been declined: it was declined after manual review.'),
  ]);
