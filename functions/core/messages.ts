import { idBody } from './ids';

/**
 * A message of the communication log: one email (later SMS, WhatsApp) sent to a customer about a
 * recovery. Its status only moves forward, each step a conditional write on the one before, so a
 * redelivered queue message can never send it twice:
 * `queued` → `sending` (claimed by one consumer) → `sent`; or `cancelled` when, at send time, the
 * recovery no longer takes dunning (recovered, terminal, paused); or `failed` when it could not
 * even be queued.
 */
export const MESSAGE_STATUSES = ['queued', 'sending', 'sent', 'cancelled', 'failed'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export interface MessageRecord {
  readonly id: string;
  readonly merchant_id: string;
  readonly customer_id: string;
  readonly payment_id: string;
  readonly recovery_id: string;
  readonly channel: 'email';
  /** What the message is for: `dunning` (POST /recoveries/{id}/dunning). */
  readonly purpose: 'dunning';
  readonly status: MessageStatus;
  /** Recipient address (the payment's customer email at the time it was queued). */
  readonly to: string;
  /** Asked for by the caller (B); templates are rendered once templates exist. */
  readonly template_id: string | null;
  /** The caller's subject (B), else null and the default subject is used. */
  readonly subject: string | null;
  /** When a consumer claimed it (`sending`); a claim older than the queue's visibility timeout may be taken over. */
  readonly sending_at: string | null;
  readonly sent_at: string | null;
  /** Which EmailSender adapter sent it and the id that adapter gave the email. */
  readonly provider: string | null;
  readonly provider_message_id: string | null;
  /** Why it was cancelled or failed. */
  readonly status_reason: string | null;
  readonly created_at: string;
  readonly updated_at: string;
}

export const messageIdFor = (body: string): string => `msg_${body}`;
export const messageBodyOf = (id: string): string | undefined => idBody(id, 'msg');
