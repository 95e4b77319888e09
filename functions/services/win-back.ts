import { queueSender } from '#adapters/queue-sender';
import { ResourceNotFoundError } from '#core/errors';
import { timeOrderedId } from '#core/ids';
import { PAYMENT_STATUSES } from '#core/payments';
import { type WinBackOfferType, type WinBackRecord, winBackIdFor } from '#core/win-back';
import { sendMessageOf } from '#contracts/notifications';
import { getCampaign } from '#data/campaign-repository';
import { getCustomerByAnyId } from '#data/customer-repository';
import { customerPaymentsIn } from '#data/customer-queries';
import { failUnqueuedMessage, newMessageRecord } from '#data/message-repository';
import { createWinBack } from '#data/win-back-repository';

export interface WinBackRequest {
  /** Ours (`cust_…`) or the provider's customer id. */
  readonly customerId: string;
  readonly campaignId?: string | undefined;
  readonly offerType: WinBackOfferType;
  readonly offerValue: string;
}

/**
 * Sends a customer a win-back offer by email, through the messaging of the campaigns (a message
 * of purpose `win_back` on the notifications queue: the consumer checks unsubscribes, suppressions,
 * the sending pause and quiet hours as for any message, and renders the offer), and records it with
 * the message in one transaction. The message is filed under the customer's most recent payment
 * (its timeline shows the send). 404 for a customer or campaign the merchant does not have (another
 * merchant's, or an erased customer: erasure leaves nothing to find).
 */
export async function sendWinBack(merchantId: string, request: WinBackRequest, now: Date = new Date()): Promise<WinBackRecord> {
  const [customer, campaign] = await Promise.all([
    getCustomerByAnyId(merchantId, request.customerId),
    request.campaignId === undefined ? undefined : getCampaign(merchantId, request.campaignId),
  ]);
  if (customer === undefined) throw new ResourceNotFoundError('No such customer.', { param: 'customerId' });
  if (request.campaignId !== undefined && campaign === undefined) throw new ResourceNotFoundError('No such campaign.', { param: 'campaign_id' });
  const [payment] = await customerPaymentsIn(merchantId, customer.id, PAYMENT_STATUSES);
  if (payment === undefined) throw new ResourceNotFoundError('No such customer.', { param: 'customerId' });
  const offer = { type: request.offerType, value: request.offerValue };
  const message = newMessageRecord(
    {
      merchantId,
      customerId: customer.id,
      paymentId: payment.id,
      recoveryId: payment.recovery_id,
      channel: 'email',
      purpose: 'win_back',
      to: customer.email,
      campaignId: campaign?.id ?? null,
      offer,
    },
    now,
  );
  const record: WinBackRecord = {
    id: winBackIdFor(timeOrderedId(now)),
    object: 'win_back',
    merchant_id: merchantId,
    customer_id: customer.id,
    campaign_id: campaign?.id ?? null,
    offer_type: offer.type,
    offer_value: offer.value,
    channel: 'email',
    message_id: message.id,
    created_at: now.toISOString(),
  };
  await createWinBack(record, message);
  try {
    await queueSender.send('notifications', sendMessageOf(merchantId, message.id));
  } catch (error) {
    await failUnqueuedMessage(message, 'Could not be queued for sending', new Date()).catch(() => undefined);
    throw error;
  }
  return record;
}
