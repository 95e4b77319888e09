import type { CustomerRecord } from '#core/customers';
import type { Merchant } from '#core/merchants';
import type { MessageRecord } from '#core/messages';
import type { PaymentRecord } from '#core/payments';
import { headerSafe, renderTemplate, withUnsubscribeLink } from '#core/templates/render';
import { placeholderValuesFor } from '#core/templates/values';
import { winBackTemplate } from '#core/win-back';
import { templateFitsChannel } from '#core/templates/template';
import type { MessageLinks } from './message-links';
import { renderTemplateMessage } from './render-template-message';

export interface RenderMessageInput {
  readonly message: MessageRecord;
  /** Undefined for a customer-level notice (no payment: its payment placeholders render as ''). */
  readonly payment: PaymentRecord | undefined;
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

/** Why a message cannot be rendered at send time: it is then `failed` with this reason, and nothing is sent. */
export class MessageRenderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MessageRenderError';
  }
}

/**
 * The template of a message that names none, by channel: the manual dunning email (POST
 * /recoveries/{id}/dunning without `template_id`), and the update-card text for SMS and WhatsApp.
 */
export const DEFAULT_TEMPLATE_IDS: Readonly<Record<MessageRecord['channel'], string>> = {
  email: 'tmpl_dunning_default',
  sms: 'tmpl_card_update_sms',
  whatsapp: 'tmpl_card_update_sms',
};

/**
 * THE rendering seam of every message, whatever its channel and purpose: the notifications
 * consumer calls only this. The message's template (its `template_id`: a built-in or the
 * merchant's own; none means its channel's default, DEFAULT_TEMPLATE_IDS) is rendered with the 13 placeholders of the
 * payment, customer and merchant (core/templates: plain substitution, HTML-escaped in the html
 * part), with the update-payment link as `{{update_payment_url}}` and, for email, a visible
 * unsubscribe link. The caller's `subject` (B's dunning body, a campaign step's or an A/B variant's)
 * replaces the template's. SMS and WhatsApp get the unsubscribe link after the text.
 * MessageRenderError when the template was deleted since the message was queued, or is for another
 * channel than the message.
 */
export async function renderMessage(input: RenderMessageInput): Promise<RenderedMessage> {
  const { message, customer, merchant, links } = input;
  // A pre-dunning notice has no payment: its upcoming charge fills the amount and date placeholders.
  const payment = input.payment ?? (message.charge ? { ...message.charge, next_retry_at: message.charge.due_at } : undefined);
  if (message.purpose === 'win_back' && message.offer) {
    // A win-back email states its offer (core/win-back.ts), with the same placeholders and unsubscribe link as any email.
    const email = renderTemplate(winBackTemplate(message.offer), placeholderValuesFor({ payment, customer, merchant, links }));
    return withUnsubscribeLink(email, links.unsubscribe_url);
  }
  const templateId = message.template_id ?? DEFAULT_TEMPLATE_IDS[message.channel];
  const rendered = await renderTemplateMessage({ merchantId: message.merchant_id, templateId, payment, customer, merchant, links });
  if (rendered === undefined) throw new MessageRenderError(`template ${templateId} no longer exists`);
  if (!templateFitsChannel(rendered.channel, message.channel))
    throw new MessageRenderError(`template ${templateId} is for ${rendered.channel}, not ${message.channel}`);
  if (rendered.channel !== 'email') return { text: `${rendered.text.trimEnd()}\nUnsubscribe: ${links.unsubscribe_url}` };
  const subject = message.subject === null ? rendered.subject : headerSafe(message.subject);
  return { subject, html: rendered.html, text: rendered.text };
}
