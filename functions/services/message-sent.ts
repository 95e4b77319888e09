import type { MessageRecord } from '#core/messages';
import type { PaymentRecord } from '#core/payments';
import type { TransactItem } from '#data/customer-repository';
import { outboundEventItem } from '#data/outbound-event-repository';
import { timelineItem } from '#data/payment-repository';

const LABELS = { email: 'email', sms: 'SMS', whatsapp: 'WhatsApp' } as const;
const PURPOSE_LABELS: Readonly<Record<MessageRecord['purpose'], string>> = { dunning: 'Dunning', campaign: 'Campaign', win_back: 'Win-back' };

/**
 * What a sent message writes with the claim that marks it `sent` (message-repository
 * markMessageSent), in that one transaction: the payment's `dunning_sent` timeline entry and the
 * `dunning.sent` outbound event (A's and B's name), filed under the customer. A message that is
 * never marked sent (cancelled, suppressed, refused, or completed by another consumer) records
 * neither.
 */
export function messageSentItems(
  message: MessageRecord,
  payment: PaymentRecord | undefined,
  sent: { readonly provider: string; readonly providerMessageId: string; readonly subject?: string | undefined },
  now: Date,
): TransactItem[] {
  const campaign = message.campaign_id ? { campaign_id: message.campaign_id } : {};
  // A customer-level notice (no payment) has no payment timeline: the outbound event alone records it.
  const timeline =
    payment === undefined
      ? undefined
      : timelineItem(payment, now.toISOString(), {
          type: 'dunning_sent',
          detail: `${PURPOSE_LABELS[message.purpose]} ${LABELS[message.channel]} sent${sent.subject === undefined ? '' : `: ${sent.subject}`}`,
          details: {
            message_id: message.id,
            channel: message.channel,
            purpose: message.purpose,
            ...campaign,
            template_id: message.template_id,
            provider: sent.provider,
            provider_message_id: sent.providerMessageId,
          },
        });
  const event = outboundEventItem(
    message.merchant_id,
    message.customer_id,
    ['dunning.sent'],
    {
      message_id: message.id,
      payment_id: message.payment_id,
      recovery_id: message.recovery_id,
      customer_id: message.customer_id,
      channel: message.channel,
      purpose: message.purpose,
      ...campaign,
      step_index: message.step_index ?? null,
      template_id: message.template_id,
      sent_at: now.toISOString(),
    },
    now,
  );
  return timeline === undefined ? [event] : [timeline, event];
}
