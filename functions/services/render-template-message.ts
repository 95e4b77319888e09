import { type RenderedEmailParts, type RenderedTextMessage, renderTemplate, withUnsubscribeLink } from '#core/templates/render';
import { type PlaceholderSources, placeholderValuesFor } from '#core/templates/values';
import { getTemplate } from '#data/template-repository';

export interface TemplateMessageInput extends PlaceholderSources {
  readonly merchantId: string;
  /** A built-in id or one of the merchant's (`tmpl_…`). */
  readonly templateId: string;
}

export type RenderedTemplateMessage = ({ readonly channel: 'email' } & RenderedEmailParts) | ({ readonly channel: 'sms' | 'whatsapp' } & RenderedTextMessage);

/**
 * One message rendered from a template, for the sending path: the template (built-in first, then
 * the merchant's own), its 13 placeholder values from the payment, customer, merchant and links,
 * and, for an email with `links.unsubscribe_url`, the visible unsubscribe link. Undefined when the
 * merchant has no such template (deleted since the message was queued).
 *
 * @example await renderTemplateMessage({ merchantId, templateId: 'tmpl_soft_decline_1', payment, customer, merchant, links: { update_payment_url, unsubscribe_url } })
 */
export async function renderTemplateMessage(input: TemplateMessageInput): Promise<RenderedTemplateMessage | undefined> {
  const template = await getTemplate(input.merchantId, input.templateId);
  if (template === undefined) return undefined;
  const values = placeholderValuesFor(input);
  if (template.channel !== 'email') return { channel: template.channel, ...renderTemplate({ ...template, channel: template.channel }, values) };
  const email = renderTemplate({ ...template, channel: 'email' }, values);
  const unsubscribeUrl = input.links.unsubscribe_url;
  return { channel: 'email', ...(unsubscribeUrl ? withUnsubscribeLink(email, unsubscribeUrl) : email) };
}
