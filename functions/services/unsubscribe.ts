import { getUnsubscribe, putUnsubscribe } from '#data/channel-repository';
import { getCustomer } from '#data/customer-repository';
import { getMessage, markMessageUnsubscribed } from '#data/message-repository';
import { suppressEmail } from '#data/suppression-repository';
import { readUnsubscribeToken } from './message-links';

export type UnsubscribeOutcome =
  /** Not a genuine token: answered as an absent page (404), so tokens cannot be probed. */
  | { readonly outcome: 'invalid' }
  | { readonly outcome: 'unsubscribed'; readonly merchantId: string; readonly customerId: string; readonly alreadyUnsubscribed: boolean };

/** Whether a token is genuine (the confirmation page is shown only for one). */
export async function checkUnsubscribeToken(token: string): Promise<boolean> {
  return (await readUnsubscribeToken(token)) !== undefined;
}

/**
 * One-click unsubscribe (RFC 8058) from a message's link or `List-Unsubscribe` header: records the
 * unsubscribe on the customer (their own item, among their data for erasure), so that no channel
 * sends them anything more, and puts their email address on the merchant's suppression list with
 * reason `unsubscribe` (the message's address for an email, the customer's for SMS/WhatsApp).
 * A first unsubscribe also sets `unsubscribed_at` on the message whose link was used: the
 * engagement analytics count it for that message's campaign, channel and send time.
 * Idempotent: a second use changes nothing. A customer erased since the message was sent gets
 * nothing written (there is nobody left to unsubscribe) and the same answer.
 */
export async function unsubscribeByToken(token: string, now: Date = new Date()): Promise<UnsubscribeOutcome> {
  const claims = await readUnsubscribeToken(token);
  if (claims === undefined) return { outcome: 'invalid' };
  const { merchantId, customerId, channel, messageId } = claims;
  const [customer, message] = await Promise.all([getCustomer(merchantId, customerId), getMessage(merchantId, messageId)]);
  if (customer === undefined) return { outcome: 'unsubscribed', merchantId, customerId, alreadyUnsubscribed: true };
  const added = await putUnsubscribe({ merchant_id: merchantId, customer_id: customerId, channel, message_id: messageId, created_at: now.toISOString() });
  const email = message?.channel === 'email' ? message.to : customer.email;
  await suppressEmail({ merchant_id: merchantId, email, customer_id: customerId, reason: 'unsubscribe', source_message_id: messageId }, now);
  // The engagement analytics attribute the first unsubscribe to its message (and so its campaign);
  // a retried request whose first attempt stopped before this line completes it.
  if (message !== undefined && (added || (await getUnsubscribe(merchantId, customerId))?.message_id === messageId))
    await markMessageUnsubscribed(merchantId, messageId, now);
  return { outcome: 'unsubscribed', merchantId, customerId, alreadyUnsubscribed: !added };
}
