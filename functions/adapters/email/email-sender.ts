/**
 * The port every outgoing email goes through. Domain code and consumers depend on this, never on
 * an adapter; configuration picks the adapter (DESIGN §2, ports and adapters).
 */
export interface OutgoingEmail {
  readonly merchantId: string;
  /** The recipient's customer: the stored copy joins the customer's data, so erasure removes it. */
  readonly customerId: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  /** The HTML part; with it the email is multipart/alternative (text, then html). */
  readonly html?: string;
  /** Extra headers (`List-Unsubscribe`, `List-Unsubscribe-Post`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The display name of the sender (the merchant's name). */
  readonly fromName?: string;
  /** The sender address: the merchant's verified sending domain's (services/email-sender-domain.ts); the service's (EMAIL_FROM) when absent. */
  readonly fromAddress?: string;
  /**
   * The communication-log message this email is (`msg_…`). Sending again with the same id sends
   * nothing new and returns the first send's result, so a redelivered queue message is harmless.
   */
  readonly messageId: string;
}

export interface SentEmail {
  /** The adapter's name, kept on the message (`outbox`, `smtp`, `ses`). */
  readonly provider: string;
  /** The id the adapter gave the email (the outbox item's id; SES's MessageId). */
  readonly providerMessageId: string;
}

export interface EmailSender {
  readonly name: string;
  send(email: OutgoingEmail): Promise<SentEmail>;
}
