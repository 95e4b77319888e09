/**
 * The port every SMS and WhatsApp message goes through (DESIGN §2c "Messaging"); configuration
 * (MESSAGING_DRIVER) picks the adapter: `twilio` or the `local` sender the operator CLI lists.
 */
export interface OutgoingMessage {
  readonly merchantId: string;
  /** The recipient's customer: a stored copy joins the customer's data, so erasure removes it. */
  readonly customerId: string;
  /** The communication-log message (`msg_…`): sending it again returns the first send's result. */
  readonly messageId: string;
  readonly channel: 'sms' | 'whatsapp';
  /** E.164 (`+14155550123`); WhatsApp adds the `whatsapp:` prefix itself. */
  readonly to: string;
  readonly text: string;
  /** WhatsApp: the approved template (Twilio Content SID `HX…`) and its variables. */
  readonly contentSid?: string | null;
  readonly contentVariables?: Readonly<Record<string, string>>;
}

export interface SentMessage {
  readonly provider: string;
  /** Twilio's Message SID (`SM…`), or the local item's id. */
  readonly providerMessageId: string;
}

export interface MessagingSender {
  readonly name: string;
  send(message: OutgoingMessage): Promise<SentMessage>;
}

/**
 * The provider refused the message for good (an invalid number, a free-form WhatsApp outside the
 * session window): the message is marked `failed` with this reason, and not retried.
 */
export class MessageRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MessageRefusedError';
  }
}

/**
 * Why a message cannot go out on its channel as it is, or undefined when it can. A business-initiated
 * WhatsApp outside the 24 h customer-service window must be an approved template; the service
 * does not track customers' inbound WhatsApp sessions, so every WhatsApp it starts is treated as
 * outside the window and needs a Content SID.
 */
export function refusalOf(message: Pick<OutgoingMessage, 'channel' | 'contentSid'>): string | undefined {
  if (message.channel === 'whatsapp' && (message.contentSid === undefined || message.contentSid === null || message.contentSid === ''))
    return 'WhatsApp outside the 24 h session window needs an approved template (content SID); a free-form WhatsApp was not sent';
  return undefined;
}
