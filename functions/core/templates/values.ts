import { findDeclineCode } from '../decline-codes/catalogue';
import { SUBCATEGORY_INFO } from '../decline-codes/categories';
import { formatMoney } from '../money';
import type { PaymentRecord } from '../payments';
import type { PlaceholderValues } from './render';

/**
 * What the values are built from; every field beyond the payment's amount and currency may be
 * missing. No payment at all for a customer-level notice (a card expiring): its payment
 * placeholders render as ''.
 */
export interface PlaceholderSources {
  readonly payment:
    | undefined
    | (Pick<PaymentRecord, 'amount' | 'currency'> &
        Partial<Pick<PaymentRecord, 'customer_email' | 'psp' | 'decline_code' | 'decline_subcategory' | 'next_retry_at' | 'invoice_id' | 'metadata'>>);
  readonly customer?: { readonly name?: string | null; readonly email?: string | null } | null;
  readonly merchant: { readonly name: string; readonly support_email?: string | null };
  /** Links the sending path makes (edge host): the update-payment page, and the unsubscribe page (not a placeholder: the sender adds it). */
  readonly links: { readonly update_payment_url?: string | null; readonly unsubscribe_url?: string | null };
}

/**
 * A date for a customer to read, in UTC (the customer's time zone is rarely known):
 * `2026-11-28T09:00:00Z` → `November 28, 2026`. Empty for null or a value that is not a date.
 */
export function formatRetryDate(at: string | null | undefined): string {
  if (at === null || at === undefined) return '';
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

/** The catalogue's description of the decline (provider's code), else its subcategory's, else ''. */
function declineReasonOf(payment: NonNullable<PlaceholderSources['payment']>): string {
  if (payment.decline_code !== null && payment.decline_code !== undefined && payment.psp !== undefined) {
    const entry = findDeclineCode(payment.psp, payment.decline_code);
    if (entry !== undefined) return entry.description;
  }
  return SUBCATEGORY_INFO.find((info) => info.subcategory === payment.decline_subcategory)?.description ?? '';
}

const textOr = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * The 13 placeholder values of one message. `amount` is formatted in its currency's minor unit
 * (`$49.99`, `¥5,000`), `amount_cents` is the integer as sent by the provider, `currency` the
 * upper-case ISO code, `retry_date` the next retry's date (formatRetryDate), `decline_reason` the
 * decline catalogue's description. `subscription_name` comes from the payment's
 * `metadata.subscription_name` when the merchant sent one. A value with nothing to show is ''.
 *
 * @example placeholderValuesFor({ payment: { amount: 5000, currency: 'jpy' }, merchant: { name: 'Acme' }, links: {} }).amount // '¥5,000'
 */
export function placeholderValuesFor(sources: PlaceholderSources): PlaceholderValues {
  const { payment, customer, merchant, links } = sources;
  return {
    customer_name: textOr(customer?.name),
    customer_email: textOr(customer?.email ?? payment?.customer_email),
    amount: payment === undefined ? '' : formatMoney(payment.amount, payment.currency),
    amount_cents: payment === undefined ? '' : String(payment.amount),
    currency: payment === undefined ? '' : payment.currency.toUpperCase(),
    decline_code: textOr(payment?.decline_code),
    decline_reason: payment === undefined ? '' : declineReasonOf(payment),
    retry_date: formatRetryDate(payment?.next_retry_at),
    merchant_name: merchant.name,
    update_payment_url: textOr(links.update_payment_url),
    support_email: textOr(merchant.support_email),
    subscription_name: textOr(payment?.metadata?.subscription_name),
    invoice_id: textOr(payment?.invoice_id),
  };
}
