import { idBody } from './ids';
import { escapeHtml, type RenderableTemplate } from './templates/render';

/**
 * Win-back offers (B: `POST /win-back/{customerId}`): an offer sent to a customer who left (or is
 * leaving), by email through the messaging of the campaigns, and recorded for the merchant.
 */
export const WIN_BACK_OFFER_TYPES = ['discount', 'pause', 'downgrade', 'custom'] as const;
export type WinBackOfferType = (typeof WIN_BACK_OFFER_TYPES)[number];

/** The offer a message carries (MessageRecord `offer`): what the email says. */
export interface WinBackOffer {
  readonly type: WinBackOfferType;
  /** The merchant's words for it (`20% off for 3 months`, `pause up to 2 months`): at most 200 characters. */
  readonly value: string;
}

export const MAX_OFFER_VALUE_LENGTH = 200;

export interface WinBackRecord {
  /** `wb_<time-ordered body>`. */
  readonly id: string;
  readonly object: 'win_back';
  readonly merchant_id: string;
  readonly customer_id: string;
  /** The campaign the offer belongs to, when the merchant named one. */
  readonly campaign_id: string | null;
  readonly offer_type: WinBackOfferType;
  readonly offer_value: string;
  readonly channel: 'email';
  /** The email that carries the offer: its status is the message's (the communication log). */
  readonly message_id: string;
  readonly created_at: string;
}

export const winBackIdFor = (body: string): string => `wb_${body}`;
export const winBackBodyOf = (id: string): string | undefined => idBody(id, 'wb');

/** The sentence of the email that states the offer. */
export function offerSentence(offer: WinBackOffer): string {
  switch (offer.type) {
    case 'discount':
      return `We would like to offer you a discount: ${offer.value}.`;
    case 'pause':
      return `You can pause your subscription instead of leaving: ${offer.value}.`;
    case 'downgrade':
      return `A lighter plan may suit you better: ${offer.value}.`;
    case 'custom':
      return offer.value;
  }
}

/** Whether an offer's words can go in an email as they are: no template braces, no control characters. */
export const isOfferText = (value: string): boolean => !/\{\{|\}\}/.test(value) && !/\p{Cc}/u.test(value);

/**
 * The win-back email as a template of the placeholders every message has (customer and merchant
 * names, the update-payment link), the offer's sentence written in (HTML-escaped in the html part).
 */
export function winBackTemplate(offer: WinBackOffer): RenderableTemplate & { readonly channel: 'email' } {
  const sentence = offerSentence(offer);
  return {
    channel: 'email',
    subject: 'An offer to welcome you back to {{merchant_name}}',
    html: [
      '<p>Hello {{customer_name}},</p>',
      `<p>We would love to welcome you back to {{merchant_name}}. ${escapeHtml(sentence)}</p>`,
      '<p><a href="{{update_payment_url}}">Come back: update your payment method</a></p>',
    ].join('\n'),
    text: `Hello {{customer_name}},\n\nWe would love to welcome you back to {{merchant_name}}. ${sentence}\n\nCome back: update your payment method: {{update_payment_url}}\n`,
  };
}
