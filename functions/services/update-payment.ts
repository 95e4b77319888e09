import { looksLikeLinkToken, providerPageFor, sha256Hex } from '#core/hosted';
import { getCustomer } from '#data/customer-repository';
import { getHostedSettings } from '#data/hosted-settings-repository';
import { getMessage, recordDeliveryEvent } from '#data/message-repository';
import { getUpdatePaymentLink, markUpdatePaymentLinkClicked, type UpdatePaymentLink } from '#data/update-payment-token-repository';
import { logger } from '#shared/logger';
import { countCampaignMessageClicked } from './campaign-message-events';

export type UpdatePaymentOutcome =
  | { readonly outcome: 'redirect'; readonly location: string; readonly merchantId: string }
  /** The merchant has configured no provider page yet: the customer is told to contact them. */
  | { readonly outcome: 'unconfigured'; readonly merchantId: string }
  /** Not a token we issued, or past its 30 days. */
  | { readonly outcome: 'unknown' };

/** The delivery event's `source` for a click on the link (beside the providers' `mailer`, `ses`, …). */
export const UPDATE_PAYMENT_CLICK_SOURCE = 'update_payment_page';

/**
 * The click, counted on the link itself (`clicks`, `clicked_at`) and, for a link a message
 * carried, recorded on the message as the `clicked` delivery event the email engagement analytics
 * already count (clicked_at, delivery_status), once per link (the event id is derived from the
 * token's hash, so reloading the page records nothing more); a campaign message's first click
 * counts for its A/B arm. The widget's links carry no message.
 */
async function recordClick(link: UpdatePaymentLink, tokenHash: string, now: Date): Promise<void> {
  await markUpdatePaymentLinkClicked(tokenHash, now);
  if (link.message_id === null) return;
  const message = await getMessage(link.merchant_id, link.message_id);
  if (message === undefined) return;
  const at = now.toISOString();
  const outcome = await recordDeliveryEvent(message, {
    id: `${UPDATE_PAYMENT_CLICK_SOURCE}:${tokenHash.slice(0, 32)}`,
    type: 'clicked',
    source: UPDATE_PAYMENT_CLICK_SOURCE,
    occurred_at: at,
    received_at: at,
    detail: 'update_payment_url',
  });
  if (outcome === 'recorded' && message.clicked_at === undefined) await countCampaignMessageClicked(message);
}

/**
 * `GET /update-payment/{token}`: finds the link by its token's hash, records the click, and
 * answers where to send the customer: the merchant's provider page (its placeholders filled in).
 * Four reads at most (link, message, settings, customer) and the click's writes.
 */
export async function followUpdatePaymentLink(token: string, now: Date = new Date()): Promise<UpdatePaymentOutcome> {
  if (!looksLikeLinkToken(token)) return { outcome: 'unknown' };
  const tokenHash = sha256Hex(token);
  const link = await getUpdatePaymentLink(tokenHash);
  if (link === undefined || link.expires_at <= Math.floor(now.getTime() / 1000)) return { outcome: 'unknown' };
  const [settings, customer] = await Promise.all([
    getHostedSettings(link.merchant_id),
    getCustomer(link.merchant_id, link.customer_id),
    recordClick(link, tokenHash, now),
  ]);
  logger.info('update-payment link followed', {
    merchant_id: link.merchant_id,
    message_id: link.message_id,
    configured: settings.update_payment_page_url !== null,
  });
  if (settings.update_payment_page_url === null) return { outcome: 'unconfigured', merchantId: link.merchant_id };
  const location = providerPageFor(settings.update_payment_page_url, {
    customer_id: link.customer_id,
    provider_customer_id: customer?.provider_customer_id ?? null,
    payment_id: link.payment_id,
  });
  return { outcome: 'redirect', location, merchantId: link.merchant_id };
}
