import { idBody } from './ids';
import type { WinBackOffer } from './win-back';

/**
 * A message of the communication log: one email (later SMS, WhatsApp) sent to a customer about a
 * recovery. Its status only moves forward, each step a conditional write on the one before, so a
 * redelivered queue message can never send it twice:
 * `queued` → `sending` (claimed by one consumer) → `sent`; or `cancelled` when, at send time, the
 * recovery no longer takes dunning (recovered, terminal, paused); or `failed` when it could not
 * even be queued; or `suppressed` when, at send time, the recipient is on the merchant's
 * suppression list (a hard bounce or a complaint): nothing is sent.
 * A message asked for during the merchant's quiet hours starts `scheduled` (with `scheduled_at`,
 * the end of the quiet period) and is released to the queue by the every-minute job when due.
 * Held: while the merchant's sending is paused (bounce or complaint rate past its threshold, see
 * core/sending-pause.ts), a message reaching the consumer goes back to `scheduled` an hour later
 * with the pause in `status_reason`; nothing is lost, and once the pause is lifted
 * (`admin sending resume`) the next release sends it.
 * A message's body is never stored: it is rendered at send time (services/render-message.ts).
 */
export const MESSAGE_STATUSES = ['scheduled', 'queued', 'sending', 'sent', 'cancelled', 'failed', 'suppressed'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/**
 * Channels a message goes out on. `to` is an email address for `email`, an E.164 phone number
 * (`+14155550123`) for `sms` and `whatsapp`.
 */
export const MESSAGE_CHANNELS = ['email', 'sms', 'whatsapp'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

/** What a message is for: a manual or automatic dunning message, a step of a campaign, or a win-back offer (sent whatever the payment's state). */
export const MESSAGE_PURPOSES = ['dunning', 'campaign', 'win_back'] as const;
export type MessagePurpose = (typeof MESSAGE_PURPOSES)[number];

/** An E.164 phone number: `+`, then 8 to 15 digits, the first not 0. */
export const isE164 = (value: string): boolean => /^\+[1-9]\d{7,14}$/.test(value);

export interface MessageRecord {
  readonly id: string;
  readonly merchant_id: string;
  readonly customer_id: string;
  /**
   * The payment and recovery it is about; null for a customer-level campaign message (a
   * card-expiry or pre-dunning notice, functions/core/enrollments.ts `occasion`), which concerns
   * the customer's card, not a failed payment.
   */
  readonly payment_id: string | null;
  readonly recovery_id: string | null;
  readonly channel: MessageChannel;
  /** What the message is for: `dunning` (POST /recoveries/{id}/dunning) or `campaign` (a campaign step). */
  readonly purpose: MessagePurpose;
  /** The campaign and step that queued it (`purpose: campaign`). */
  readonly campaign_id?: string | null;
  readonly step_index?: number | null;
  /** The A/B test arm it belongs to (`A`, `B`, …), when the step is under test. */
  readonly variant?: string | null;
  /**
   * The upcoming charge a pre-dunning notice is about (its enrollment's occasion): the notice's
   * `{{amount}}`, `{{amount_cents}}` and `{{currency}}` are its, `{{retry_date}}` its due date.
   */
  readonly charge?: { readonly amount: number; readonly currency: string; readonly due_at: string } | null;
  /** The offer a win-back message states (`purpose: win_back`). */
  readonly offer?: WinBackOffer | null;
  readonly status: MessageStatus;
  /** Recipient: an email address (`email`) or an E.164 phone number (`sms`, `whatsapp`), as it was when queued. */
  readonly to: string;
  /** Asked for by the caller (B); templates are rendered once templates exist. */
  readonly template_id: string | null;
  /** The caller's subject (B), else null and the default subject is used. */
  readonly subject: string | null;
  /** When a `scheduled` message is due to be sent (the end of the quiet period it was asked for in); null or absent when sent at once. */
  readonly scheduled_at?: string | null;
  /** When a consumer claimed it (`sending`); a claim older than the queue's visibility timeout may be taken over. */
  readonly sending_at: string | null;
  readonly sent_at: string | null;
  /** A WhatsApp step's approved template (Twilio Content SID `HX…`), needed outside the 24 h session window. */
  readonly content_sid?: string | null;
  /** Which EmailSender adapter sent it and the id that adapter gave the email. */
  readonly provider: string | null;
  readonly provider_message_id: string | null;
  /** Why it was cancelled or failed. */
  readonly status_reason: string | null;
  readonly created_at: string;
  readonly updated_at: string;
  /** What the provider reported after sending (delivery callbacks): the furthest state reached; absent until a first callback. */
  readonly delivery_status?: DeliveryStatus;
  /** When each delivery state was first reported (the provider's time of the event). */
  readonly delivered_at?: string;
  readonly opened_at?: string;
  readonly clicked_at?: string;
  readonly bounced_at?: string;
  readonly complained_at?: string;
  /**
   * When the recipient used this message's one-click unsubscribe link or header, if they were not
   * unsubscribed already (services/unsubscribe.ts): the message an unsubscribe is attributed to in
   * the engagement analytics. Absent otherwise.
   */
  readonly unsubscribed_at?: string;
  /** Every distinct delivery callback event, in arrival order (at most {@link MAX_DELIVERY_EVENTS}). */
  readonly delivery_events?: readonly DeliveryEvent[];
}

/**
 * Delivery states a provider reports after a send, in the order of "furthest": a later state is
 * never replaced by an earlier one, so duplicate and out-of-order callbacks are harmless
 * (`delivered` < `opened` < `clicked` < `bounced` < `complained`; a bounce or a complaint is the
 * last word on a message).
 */
export const DELIVERY_STATUSES = ['delivered', 'opened', 'clicked', 'bounced', 'complained'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** The rank of a delivery state (1 = delivered … 5 = complained); higher is further. */
export const deliveryRank = (status: DeliveryStatus): number => DELIVERY_STATUSES.indexOf(status) + 1;

/** Events kept on one message; further ones still move its status but are not appended. */
export const MAX_DELIVERY_EVENTS = 100;

/** One delivery callback as the message keeps it. */
export interface DeliveryEvent {
  /** The provider's event id (or a stable one derived from the callback): the dedupe key. */
  readonly id: string;
  /** A delivery state, or `deferred` (a soft bounce: the provider retries; the status does not move). */
  readonly type: DeliveryStatus | 'deferred';
  /** Which callback reported it: `messaging`, `legacy_email` or `mailer`. */
  readonly source: string;
  /** When the provider says it happened. */
  readonly occurred_at: string;
  readonly received_at: string;
  /** The provider's own event name or error (`undelivered`, `Permanent/General`), for support. */
  readonly detail: string | null;
}

export const messageIdFor = (body: string): string => `msg_${body}`;
export const messageBodyOf = (id: string): string | undefined => idBody(id, 'msg');
