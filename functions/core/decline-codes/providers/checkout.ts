import { decline, defineProviderCodes } from '#core/decline-codes/define';
import type { DeclineCodeRecord } from '#core/decline-codes/types';

/**
 * Checkout.com `response_code` values (payment_declined webhook `data.response_code`).
 *
 * Sources: https://www.checkout.com/docs/resources/codes/api-response-codes (20xxx soft decline,
 * 30xxx hard decline, 40xxx risk; texts paraphrased) and the support article "Common response codes
 * to test", which gives the raw network code behind 20005, 20014, 20051, 20054, 20057, 20059, 20061,
 * 20062 (kept here as network_code) and names 20179/20182/20183 as the Mastercard Lifecycle, Policy
 * and Security groupings. Categories follow reference/providers.md §5.4, except that a 20xxx
 * ("soft") code whose raw code is Visa category 1 (12, 57) is never soft_retry.
 */
export const CHECKOUT_DECLINE_CODES = (): readonly DeclineCodeRecord[] =>
  defineProviderCodes('checkout', [
    decline('20001', 'unknown', 'referral', 'Refer to card issuer: the bank declined the payment; the customer should contact it or use another card.'),
    decline('20005', 'unknown', 'generic', 'Declined - Do not honour: the issuer declined without giving a reason.', { networkCode: '05' }),
    decline('20012', 'terminal', 'not_permitted', 'Invalid transaction: the issuer does not accept this transaction type.'),
    decline('20014', 'hard_customer', 'invalid_details', 'Invalid card number.', { networkCode: '14' }),
    decline('20051', 'soft_retry', 'balance', 'Insufficient funds.', { networkCode: '51' }),
    decline('20054', 'hard_customer', 'expired', 'Expired card.', { networkCode: '54' }),
    decline('20057', 'terminal', 'not_permitted', 'Transaction not permitted to cardholder.', { networkCode: '57' }),
    decline('20059', 'terminal', 'fraud', 'Suspected fraud.', { networkCode: '59' }),
    decline('20061', 'soft_retry', 'limit', 'Exceeds withdrawal value/amount limits.', { networkCode: '61' }),
    decline('20062', 'terminal', 'not_permitted', 'Restricted card.', { networkCode: '62' }),
    decline('20065', 'soft_retry', 'limit', 'Exceeds withdrawal frequency limit.', { adjust: ['limit_resets_daily'] }),
    decline('20091', 'soft_retry', 'processing_error', 'Issuer unavailable or switch is inoperative.'),
    decline('20096', 'soft_retry', 'processing_error', 'System malfunction.'),
    decline('20179', 'hard_customer', 'expired', 'Lifecycle: Mastercard lifecycle decline (expired or replaced card details).', {
      action: 'Run the account updater or ask the customer for updated card details; retry only with new credentials.',
    }),
    decline('20182', 'hard_customer', 'closed', 'Policy: Mastercard policy decline; the card cannot be charged under the current credentials.', {
      action: 'Do not retry the same credentials; use the account updater or ask the customer for another card.',
    }),
    decline(
      '20183',
      'hard_customer',
      'authentication_required',
      'Security: Mastercard security decline; the issuer may accept the payment with EMV 3-D Secure.',
      {
        action: 'Retry only with the customer on-session and authenticated (3-D Secure), otherwise ask for another card.',
      },
    ),
    decline('30004', 'hard_customer', 'stolen', 'Pick up card (no fraud).'),
    decline('30033', 'hard_customer', 'expired', 'Expired card - pick up.'),
    decline('30041', 'hard_customer', 'stolen', 'Lost card - pick up.'),
    decline('30043', 'hard_customer', 'stolen', 'Stolen card - pick up.'),
    decline('30046', 'hard_customer', 'closed', 'Closed account.'),
    decline('40101', 'terminal', 'fraud', "Risk blocked transaction: Checkout.com's risk engine blocked the payment."),
  ]);
