import type { MessageRecord } from '#core/messages';
import type { PaymentRecord } from '#core/payments';
import type { CampaignChannel } from '#core/recovery-method';
import { getEnrollment } from '#data/enrollment-repository';
import { getMessage } from '#data/message-repository';

/**
 * The signal of a campaign recovery (core/recovery-method.ts), read where the recovery is
 * recorded: the channel of the last message the payment's campaign enrollment has sent it, or
 * null. Reads only, no write: the enrollment (one consistent GetItem) and, when it is not
 * `stopped`, the messages its steps queued (one consistent GetItem each, a campaign has a handful
 * of steps), of which those actually `sent` count. So a campaign message adds no write to the
 * payment, and the retry executor and ingest, which write the payment, contend with nothing new.
 *
 * An enrollment that `completed` (its last step ran) or already ended `recovered` still claims the
 * recovery: its messages are what the customer acts on. One `stopped` (card updated on a campaign
 * that stops on it, payment ended, campaign archived) does not: the campaign had withdrawn.
 * Dunning messages sent outside a campaign (POST /recoveries/{id}/dunning) are not campaign ones.
 *
 * A payment that was never enrolled (`campaign_id` null, set in the enrollment's own transaction)
 * costs no read at all: the common case of the retry executor and ingest.
 *
 * @example await campaignChannelOf(payment) // 'email' | 'sms' | null
 */
export async function campaignChannelOf(payment: Pick<PaymentRecord, 'merchant_id' | 'id' | 'campaign_id'>): Promise<CampaignChannel | null> {
  if (payment.campaign_id === null) return null;
  const merchantId = payment.merchant_id;
  const enrollment = await getEnrollment(merchantId, payment.id);
  if (enrollment === undefined || enrollment.status === 'stopped') return null;
  const ids = enrollment.steps
    .filter((step) => step.action !== 'retry' && step.message_id !== null)
    .flatMap((step) => step.message_ids ?? [step.message_id as string]);
  if (ids.length === 0) return null;
  const messages = await Promise.all([...new Set(ids)].map((id) => getMessage(merchantId, id)));
  const last = messages
    .filter((message): message is MessageRecord & { sent_at: string } => message?.status === 'sent' && message.sent_at !== null)
    .sort((a, b) => a.sent_at.localeCompare(b.sent_at))
    .at(-1);
  if (last === undefined) return null;
  return last.channel === 'email' ? 'email' : 'sms';
}
