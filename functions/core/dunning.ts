import type { PaymentRecord, PaymentStatus } from './payments';
import { formatMoney } from './money';

/**
 * Templates a dunning email may name (`template_id`). Merchant templates do not exist yet; until
 * they do, the one built-in email (renderDunningEmail) is the only template, and any other id is
 * unknown (404 with `param: "template_id"`).
 */
export const DUNNING_TEMPLATE_IDS = ['tmpl_dunning_default'] as const;
export const isKnownDunningTemplate = (id: string): boolean => (DUNNING_TEMPLATE_IDS as readonly string[]).includes(id);

/**
 * Manual dunning (POST /recoveries/{id}/dunning) reaches one customer at most once per hour,
 * whichever of the customer's recoveries it is for: a second request within the hour is refused
 * (409 state_conflict, as a business rule that the request itself cannot change, not a rate
 * limit of the API key). The hour runs from the send, or from the end of the quiet period when
 * the email was scheduled for it.
 */
export const MANUAL_DUNNING_COOLDOWN_MS = 60 * 60 * 1000;

/** Statuses of a recovery that may receive a dunning email now. */
export const DUNNING_STATUSES: readonly PaymentStatus[] = ['pending', 'retrying'];

/**
 * Why a recovery in this status takes no dunning email (spec: 409 when recovered or terminal; a
 * paused recovery gets no dunning emails until resumed), or undefined when it may.
 */
export function dunningRefusal(status: PaymentStatus): string | undefined {
  if (DUNNING_STATUSES.includes(status)) return undefined;
  if (status === 'paused') return 'it is paused: no dunning emails until it is resumed';
  return `it is ${status}`;
}

export interface DunningEmailInput {
  readonly payment: Pick<PaymentRecord, 'amount' | 'currency' | 'invoice_id'>;
  readonly merchantName: string;
  readonly customerName: string | null;
  /** The caller's subject (B); the default names the amount and the merchant. */
  readonly subject: string | null;
}

export interface RenderedEmail {
  readonly subject: string;
  readonly text: string;
}

/**
 * The plain-text dunning email. Templates (and their placeholders) come with the email-template
 * feature; until then every dunning email is this one text.
 *
 * @example renderDunningEmail({ payment, merchantName: 'Acme', customerName: null, subject: null }).subject
 * // 'Your payment of $49.99 to Acme did not go through'
 */
export function renderDunningEmail(input: DunningEmailInput): RenderedEmail {
  const amount = formatMoney(input.payment.amount, input.payment.currency);
  const invoice = input.payment.invoice_id === null ? '' : ` (invoice ${input.payment.invoice_id})`;
  const subject = input.subject ?? `Your payment of ${amount} to ${input.merchantName} did not go through`;
  const text = [
    `Hello ${input.customerName ?? 'there'},`,
    '',
    `We could not collect your payment of ${amount} to ${input.merchantName}${invoice}.`,
    'Please update your payment method so that your subscription continues without interruption.',
    '',
    'If you have already done so, you can ignore this email.',
    '',
    input.merchantName,
  ].join('\n');
  return { subject, text };
}
