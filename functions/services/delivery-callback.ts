import type { DeliveryEvent } from '#core/messages';
import { countSending } from '#data/channel-repository';
import { countCampaignMessageClicked } from './campaign-message-events';
import { getMessageByProviderId, recordDeliveryEvent } from '#data/message-repository';
import { suppressEmail, type SuppressionReason } from '#data/suppression-repository';
import type { Logger } from '#shared/logger';

/** Which callback a delivery event came from. */
export type CallbackSource = 'messaging' | 'legacy_email' | 'mailer' | 'ses';

/** A callback reduced to what we act on. */
export interface DeliveryCallback {
  readonly source: CallbackSource;
  /** The provider's id of the message it sent for us (our MSGREF key). */
  readonly providerMessageId: string;
  readonly event: DeliveryEvent;
  /** Set for an email bounce the provider calls permanent, and for complaints: the address is suppressed. */
  readonly suppress?: SuppressionReason;
}

/**
 * Applies a verified callback: finds the message by the provider's message id, records the event
 * (idempotent, furthest state kept) and, for a hard bounce or a complaint on an email, adds the
 * message's recipient to its merchant's suppression list. An unknown message id (never ours, sent
 * before references existed, or erased with its customer) changes nothing and is logged at info:
 * the caller still answers 200, since providers retry anything else.
 * @returns the merchant of the message, when known.
 */
export async function applyDeliveryCallback(callback: DeliveryCallback, log: Logger): Promise<string | undefined> {
  const message = await getMessageByProviderId(callback.providerMessageId);
  if (message === undefined) {
    log.info('delivery callback for an unknown message; ignored', { source: callback.source, event_type: callback.event.type });
    return undefined;
  }
  const outcome = await recordDeliveryEvent(message, callback.event);
  if (outcome === 'missing') {
    log.info('delivery callback for a message erased meanwhile; ignored', { source: callback.source });
    return undefined;
  }
  // The merchant's sending reputation (automatic pause): an email's bounce or complaint, counted
  // once (a duplicate callback is not counted again).
  if (outcome === 'recorded' && message.channel === 'email' && (callback.event.type === 'bounced' || callback.event.type === 'complained')) {
    await countSending(message.merchant_id, callback.event.type, new Date(callback.event.received_at));
  }
  // A campaign email's first click counts for its A/B arm (the test's `click` metric).
  if (outcome === 'recorded' && callback.event.type === 'clicked' && message.clicked_at === undefined) await countCampaignMessageClicked(message);
  // Runs for duplicates too: a retry after a failure between the writes completes the suppression.
  if (callback.suppress !== undefined && message.channel === 'email') {
    const added = await suppressEmail({
      merchant_id: message.merchant_id,
      email: message.to,
      customer_id: message.customer_id,
      reason: callback.suppress,
      source_message_id: message.id,
    });
    if (added) log.info('recipient suppressed', { merchant_id: message.merchant_id, message_id: message.id, reason: callback.suppress });
  }
  log.info('delivery callback recorded', {
    merchant_id: message.merchant_id,
    message_id: message.id,
    source: callback.source,
    event_type: callback.event.type,
    outcome,
  });
  return message.merchant_id;
}
