import { emailSender } from '#adapters/email/index';
import { MessageRefusedError, messagingSender } from '#adapters/messaging/index';
import { dunningRefusal } from '#core/dunning';
import { InternalError } from '#core/errors';
import { isE164, type MessageRecord } from '#core/messages';
import { isQuietAt, nextAllowedAt } from '#core/quiet-hours';
import { countSending, getUnsubscribe, judgeSending } from '#data/channel-repository';
import { getCustomer } from '#data/customer-repository';
import { getMerchantCached } from '#data/merchant-repository';
import { claimMessage, closeMessage, deferMessage, markMessageSent } from '#data/message-repository';
import { getPayment } from '#data/payment-repository';
import { getQuietHours } from '#data/settings-repository';
import { getSuppression } from '#data/suppression-repository';
import { countCampaignMessageSent } from '#services/campaign-message-events';
import { chooseSender } from '#services/email-sender-domain';
import { linksFor } from '#services/message-links';
import { messageSentItems } from '#services/message-sent';
import { MessageRenderError, type RenderedMessage, renderMessage } from '#services/render-message';
import { logger } from '#shared/logger';
import { NotificationMessageSchema } from '#contracts/notifications';
import { queueDefinitions } from '#contracts/queues';
import type { MessageProcessor } from './consume';

/** A claim older than the queue's visibility timeout belongs to a consumer that died mid-send. */
const STALE_CLAIM_MS = (queueDefinitions.find((queue) => queue.name === 'notifications')?.visibilityTimeoutSeconds ?? 60) * 1000;

/** While the merchant's sending is paused, a message goes back to `scheduled` this much later (and is looked at again then). */
export const PAUSED_RECHECK_MS = 60 * 60 * 1000;

class MessageBusyError extends Error {
  constructor(messageId: string) {
    super(`Message ${messageId} is being sent by another consumer; it is redelivered later`);
    this.name = 'MessageBusyError';
  }
}

/** Why the recipient must not get the message (unsubscribed customer, suppressed address), or undefined. */
async function recipientRefusal(message: MessageRecord): Promise<string | undefined> {
  const unsubscribed = await getUnsubscribe(message.merchant_id, message.customer_id);
  if (unsubscribed !== undefined) return `Not sent: the customer unsubscribed on ${unsubscribed.created_at} (${unsubscribed.channel})`;
  if (message.channel === 'email') {
    const suppression = await getSuppression(message.merchant_id, message.to);
    if (suppression !== undefined) return `Not sent: the recipient is on the suppression list (${suppression.reason})`;
  } else if (!isE164(message.to)) {
    return `Not sent: "${message.to}" is not an E.164 phone number`;
  }
  return undefined;
}

/**
 * Sends one queued message of any channel (`send_message`; `dunning_email` from older producers),
 * at most once however often SQS delivers it:
 * 1. claims it (`queued`/`scheduled` → `sending`, a conditional write; a fresh claim of another
 *    consumer fails the record for redelivery; a message already done or erased is acknowledged);
 * 2. re-checks the recovery (recovered, ended or paused since: `cancelled`); a customer-level
 *    notice (no payment: card expiring, upcoming charge) has none to re-check;
 * 3. the recipient: a customer who unsubscribed gets nothing on any channel, a suppressed email
 *    address nothing by email (`suppressed`);
 * 4. the merchant's sending pause (email: bounce or complaint rate past its threshold, judged on
 *    the last 30 days): back to `scheduled` an hour later with the reason, nothing lost;
 * 5. quiet hours at send time: back to `scheduled` at their end;
 * 6. renders its template (services/render-message.ts, with its unsubscribe and update-payment
 *    links) and sends it through the channel's port (each deduplicates by message id; email carries
 *    RFC 8058 List-Unsubscribe headers); a refusal for good (a template deleted since, a free-form
 *    WhatsApp, an invalid number) is `failed`;
 * 7. marks it `sent` with the payment's `dunning_sent` timeline entry and the `dunning.sent`
 *    outbound event in one transaction (services/message-sent.ts), and
 *    counts an email send for the merchant's sending pause, and a campaign message for its
 *    campaign (`stats.messages_sent`) and its A/B arm.
 */
export const sendMessage: MessageProcessor = async (raw) => {
  const { merchant_id: merchantId, message_id: messageId } = NotificationMessageSchema.parse(raw);
  const log = logger.child({ merchant_id: merchantId, message_id: messageId });
  const claim = await claimMessage(merchantId, messageId, new Date(), STALE_CLAIM_MS);
  if (claim.outcome === 'missing') {
    log.warn('message not found (erased with its customer?); nothing to send');
    return;
  }
  if (claim.outcome === 'done') {
    log.info('message already handled; nothing to send', { status: claim.message.status });
    return;
  }
  if (claim.outcome === 'busy') throw new MessageBusyError(messageId);

  const message = claim.message;
  // A customer-level notice (card expiring, upcoming charge) is about no payment: nothing to re-check but the recipient.
  const payment = message.payment_id === null ? undefined : await getPayment(merchantId, message.payment_id);
  // A win-back offer goes to a customer who left: whatever became of the payment it is filed under.
  const refusal =
    message.payment_id === null
      ? undefined
      : payment === undefined
        ? 'the payment no longer exists'
        : message.purpose === 'win_back'
          ? undefined
          : dunningRefusal(payment.status);
  if (refusal !== undefined) {
    await closeMessage(message, 'cancelled', `Not sent: recovery ${message.recovery_id}: ${refusal}`, new Date());
    log.info('message cancelled', { reason: refusal });
    return;
  }
  const recipient = await recipientRefusal(message);
  if (recipient !== undefined) {
    await closeMessage(message, 'suppressed', recipient, new Date());
    log.info('message suppressed', { reason: recipient });
    return;
  }
  // The send time is never earlier than the time the message was scheduled for: the every-minute
  // job releases a message only once its scheduled time has come, so a consumer that sees it
  // earlier runs on a clock behind the scheduler's (skew; or a test that runs the job at a later
  // simulated time).
  const sendingAt = new Date(Math.max(Date.now(), message.scheduled_at == null ? 0 : Date.parse(message.scheduled_at)));
  if (message.channel === 'email') {
    const pause = await judgeSending(merchantId, sendingAt);
    if (pause !== undefined) {
      const until = new Date(sendingAt.getTime() + PAUSED_RECHECK_MS);
      await deferMessage(message, until, sendingAt, `Held: the merchant's sending is paused since ${pause.since}: ${pause.reason}`);
      log.info('message held: sending paused', { scheduled_at: until.toISOString() });
      return;
    }
  }
  // Quiet hours are checked again at send time: the message may have waited on the queue into
  // them, or the merchant may have changed them since it was queued.
  const quietHours = await getQuietHours(merchantId, sendingAt.getTime());
  if (isQuietAt(quietHours, sendingAt)) {
    const until = nextAllowedAt(quietHours, sendingAt);
    await deferMessage(message, until, sendingAt);
    log.info('message deferred to the end of quiet hours', { scheduled_at: until.toISOString() });
    return;
  }
  const sender = message.channel === 'email' ? await chooseSender(merchantId, sendingAt) : undefined;
  if (sender?.kind === 'held') {
    await deferMessage(message, sender.until, sendingAt, sender.reason);
    log.info('message held: sending domain warm-up cap reached', { scheduled_at: sender.until.toISOString() });
    return;
  }
  const [merchant, customer] = await Promise.all([getMerchantCached(merchantId), getCustomer(merchantId, message.customer_id)]);
  if (merchant === undefined) throw new InternalError(`Merchant ${merchantId} of message ${messageId} does not exist`);
  const links = await linksFor(message);

  let rendered: RenderedMessage;
  let sent: { readonly provider: string; readonly providerMessageId: string };
  try {
    rendered = await renderMessage({ message, payment, customer, merchant, links });
    sent =
      message.channel === 'email'
        ? await emailSender.send({
            merchantId,
            customerId: message.customer_id,
            to: message.to,
            subject: rendered.subject ?? '',
            text: rendered.text,
            ...(rendered.html === undefined ? {} : { html: rendered.html }),
            headers: { 'List-Unsubscribe': `<${links.unsubscribe_url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
            fromName: merchant.name,
            ...(sender?.kind === 'domain' ? { fromAddress: sender.address } : {}),
            messageId,
          })
        : await messagingSender.send({
            merchantId,
            customerId: message.customer_id,
            messageId,
            channel: message.channel,
            to: message.to,
            text: rendered.text,
            contentSid: message.content_sid ?? null,
          });
  } catch (error) {
    if (!(error instanceof MessageRefusedError || error instanceof MessageRenderError)) throw error;
    await closeMessage(message, 'failed', `Not sent: ${error.message}`, new Date());
    log.info('message refused by its channel', { channel: message.channel, reason: error.message });
    return;
  }
  const now = new Date();
  const marked = await markMessageSent(message, sent, now, messageSentItems(message, payment, { ...sent, subject: rendered.subject }, now));
  if (marked && message.channel === 'email') await countSending(merchantId, 'sent', now);
  if (marked) await countCampaignMessageSent(message);
  log.info(marked ? 'message sent' : 'message completed by another consumer', { channel: message.channel, provider: sent.provider });
};
