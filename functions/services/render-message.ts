import type { CustomerRecord } from '#core/customers';
import { renderDunningEmail } from '#core/dunning';
import type { Merchant } from '#core/merchants';
import type { MessageRecord } from '#core/messages';
import type { PaymentRecord } from '#core/payments';
import type { MessageLinks } from './message-links';

export interface RenderMessageInput {
  readonly message: MessageRecord;
  readonly payment: PaymentRecord;
  readonly customer: CustomerRecord | undefined;
  readonly merchant: Merchant;
  readonly links: MessageLinks;
}

/** A message ready for its channel: email has a subject and an HTML part; SMS and WhatsApp only text. */
export interface RenderedMessage {
  readonly subject?: string;
  readonly html?: string;
  readonly text: string;
}

const escapeHtml = (value: string): string =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * THE rendering seam of every message, whatever its channel and purpose: the notifications
 * consumer calls only this. For now it renders the built-in dunning email (core/dunning.ts
 * renderDunningEmail) as text and as HTML, with the update-payment link and a visible unsubscribe
 * link in both; SMS and WhatsApp get a short text with the same two links. Merchant templates
 * (`{{placeholder}}` substitution, issue 11) replace the body here, and nowhere else.
 */
export function renderMessage(input: RenderMessageInput): RenderedMessage {
  const { message, payment, customer, merchant, links } = input;
  const email = renderDunningEmail({ payment, merchantName: merchant.name, customerName: customer?.name ?? null, subject: message.subject });
  if (message.channel !== 'email') {
    const text = `${merchant.name}: ${email.subject}. Update your payment method: ${links.update_payment_url} Reply STOP or unsubscribe: ${links.unsubscribe_url}`;
    return { text };
  }
  const text = [email.text, '', `Update your payment method: ${links.update_payment_url}`, '', `Unsubscribe from these emails: ${links.unsubscribe_url}`].join(
    '\n',
  );
  const paragraphs = email.text
    .split('\n\n')
    .map((paragraph) => `<p>${paragraph.split('\n').map(escapeHtml).join('<br>')}</p>`)
    .join('\n');
  const html = [
    '<!doctype html>',
    `<html><head><meta charset="utf-8"><title>${escapeHtml(email.subject)}</title></head><body>`,
    paragraphs,
    `<p><a href="${escapeHtml(links.update_payment_url)}">Update your payment method</a></p>`,
    `<p style="font-size:12px;color:#666"><a href="${escapeHtml(links.unsubscribe_url)}">Unsubscribe</a> from these emails.</p>`,
    '</body></html>',
  ].join('\n');
  return { subject: email.subject, html, text };
}
