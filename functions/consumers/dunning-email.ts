import { emailSender } from '#adapters/email/index';
import { dunningRefusal, renderDunningEmail } from '#core/dunning';
import { InternalError } from '#core/errors';
import { getCustomer } from '#data/customer-repository';
import { getMerchantCached } from '#data/merchant-repository';
import { claimMessage, closeMessage, deferMessage, markMessageSent } from '#data/message-repository';
import { getQuietHours } from '#data/settings-repository';
import { isQuietAt, nextAllowedAt } from '#core/quiet-hours';
import { getPayment, timelineItem } from '#data/payment-repository';
import { getSuppression } from '#data/suppression-repository';
import { logger } from '#shared/logger';
import type { MessageProcessor } from './consume';
import { DunningEmailMessageSchema } from '#contracts/notifications';
import { queueDefinitions } from '#contracts/queues';

/** A claim older than the queue's visibility timeout belongs to a consumer that died mid-send. */
const STALE_CLAIM_MS = (queueDefinitions.find((queue) => queue.name === 'notifications')?.visibilityTimeoutSeconds ?? 60) * 1000;

class MessageBusyError extends Error {
  constructor(messageId: string) {
    super(`Message ${messageId} is being sent by another consumer; it is redelivered later`);
    this.name = 'MessageBusyError';
  }
}

/**
 * Sends one queued dunning email, at most once however often SQS delivers it: claims the message
 * (`queued` → `sending`, a conditional write), re-checks the recovery (it may have been recovered,
 * ended or paused since it was queued: then the message is `cancelled` and nothing is sent),
 * skips a recipient on the merchant's suppression list (a hard bounce or a complaint: the message
 * is `suppressed` and nothing is sent), renders the email, sends it through the EmailSender port (which deduplicates by message id),
 * then marks the message `sent` with the sender's id and adds the payment's `dunning_sent`
 * timeline entry in one transaction. A message already sent or cancelled, or erased with its
 * customer, is acknowledged without doing anything; one claimed by another live consumer is
 * failed, so SQS delivers it again after the visibility timeout.
 */
export const sendDunningEmail: MessageProcessor = async (raw) => {
  const { merchant_id: merchantId, message_id: messageId } = DunningEmailMessageSchema.parse(raw);
  const log = logger.child({ merchant_id: merchantId, message_id: messageId });
  const claim = await claimMessage(merchantId, messageId, new Date(), STALE_CLAIM_MS);
  if (claim.outcome === 'missing') {
    log.warn('dunning message not found (erased with its customer?); nothing to send');
    return;
  }
  if (claim.outcome === 'done') {
    log.info('dunning message already handled; nothing to send', { status: claim.message.status });
    return;
  }
  if (claim.outcome === 'busy') throw new MessageBusyError(messageId);

  const message = claim.message;
  const payment = await getPayment(merchantId, message.payment_id);
  const refusal = payment === undefined ? 'the payment no longer exists' : dunningRefusal(payment.status);
  if (payment === undefined || refusal !== undefined) {
    await closeMessage(message, 'cancelled', `Not sent: recovery ${message.recovery_id}: ${refusal}`, new Date());
    log.info('dunning message cancelled', { reason: refusal });
    return;
  }
  const suppression = await getSuppression(merchantId, message.to);
  if (suppression !== undefined) {
    await closeMessage(message, 'suppressed', `Not sent: the recipient is on the suppression list (${suppression.reason})`, new Date());
    log.info('dunning message suppressed', { reason: suppression.reason });
    return;
  }
  // Quiet hours are checked again at send time: the message may have waited on the queue into
  // them, or the merchant may have changed them since it was queued. The send time is never
  // earlier than the time the message was scheduled for: the every-minute job releases a message
  // only once its scheduled time has come, so a consumer that sees it earlier runs on a clock
  // behind the scheduler's (skew; or a test that runs the job at a later simulated time).
  const sendingAt = new Date(Math.max(Date.now(), message.scheduled_at == null ? 0 : Date.parse(message.scheduled_at)));
  const quietHours = await getQuietHours(merchantId, sendingAt.getTime());
  if (isQuietAt(quietHours, sendingAt)) {
    const until = nextAllowedAt(quietHours, sendingAt);
    await deferMessage(message, until, sendingAt);
    log.info('dunning message deferred to the end of quiet hours', { scheduled_at: until.toISOString() });
    return;
  }
  const [merchant, customer] = await Promise.all([getMerchantCached(merchantId), getCustomer(merchantId, payment.customer_id)]);
  if (merchant === undefined) throw new InternalError(`Merchant ${merchantId} of message ${messageId} does not exist`);

  const email = renderDunningEmail({ payment, merchantName: merchant.name, customerName: customer?.name ?? null, subject: message.subject });
  const sent = await emailSender.send({ merchantId, customerId: message.customer_id, to: message.to, subject: email.subject, text: email.text, messageId });
  const now = new Date();
  const timeline = timelineItem(payment, now.toISOString(), {
    type: 'dunning_sent',
    detail: `Dunning email sent: ${email.subject}`,
    details: { message_id: messageId, template_id: message.template_id, provider: sent.provider, provider_message_id: sent.providerMessageId },
  });
  const marked = await markMessageSent(message, sent, now, [timeline]);
  log.info(marked ? 'dunning email sent' : 'dunning email completed by another consumer', { provider: sent.provider });
};
