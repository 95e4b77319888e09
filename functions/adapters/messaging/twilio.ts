import { readSecret } from '#adapters/secrets';
import { getSentMarker, putSentMarker } from '#data/channel-repository';
import { InternalError } from '#core/errors';
import { messageBodyOf } from '#core/messages';
import { type Env, env } from '#shared/env';
import { MessageRefusedError, type MessagingSender, type OutgoingMessage, refusalOf, type SentMessage } from './messaging-sender';

/** A Twilio call gives up after this long (retried: the queue redelivers). */
export const TWILIO_TIMEOUT_MS = 10_000;

const setting = (name: keyof Env & string): string | undefined => {
  const value = process.env[name];
  return value === undefined || value === '' ? (env[name] as string | undefined) : value;
};

let secretToken: Promise<string> | undefined;

/** TWILIO_AUTH_TOKEN, else the secret TWILIO_AUTH_TOKEN_ARN names (AWS, read once per cold start), else MESSAGING_AUTH_TOKEN. */
async function authToken(): Promise<string | undefined> {
  const direct = setting('TWILIO_AUTH_TOKEN');
  if (direct !== undefined) return direct;
  const arn = setting('TWILIO_AUTH_TOKEN_ARN');
  if (arn !== undefined) {
    secretToken ??= readSecret(arn);
    return secretToken;
  }
  return setting('MESSAGING_AUTH_TOKEN');
}

/** The form Twilio's Create Message takes for a message (exported for tests). */
export function twilioFormOf(message: OutgoingMessage, from: string, statusCallback: string | undefined): URLSearchParams {
  const whatsapp = message.channel === 'whatsapp';
  const form = new URLSearchParams();
  form.set('To', whatsapp ? `whatsapp:${message.to}` : message.to);
  form.set('From', whatsapp ? `whatsapp:${from}` : from);
  if (whatsapp) {
    form.set('ContentSid', message.contentSid as string);
    if (message.contentVariables !== undefined) form.set('ContentVariables', JSON.stringify(message.contentVariables));
  } else {
    form.set('Body', message.text);
  }
  if (statusCallback !== undefined) form.set('StatusCallback', statusCallback);
  return form;
}

/**
 * SMS and WhatsApp through Twilio's REST API over plain HTTPS (no SDK: the bundle stays small):
 * `POST {TWILIO_API_BASE_URL}/2010-04-01/Accounts/{AccountSid}/Messages.json`, form-encoded,
 * HTTP Basic auth (Account SID : auth token). SMS sends `Body`; WhatsApp sends `To=whatsapp:+…`
 * with the template's `ContentSid` (+ `ContentVariables`), and is refused without one (see
 * refusalOf). Status callbacks come back to `/api/v1/messaging/status` on the webhook API
 * (WEBHOOK_PUBLIC_BASE_URL). A 4xx answer is a refusal for good (MessageRefusedError with Twilio's
 * code and message); 429, 5xx and network errors throw to be retried. Resend dedupe: a marker per
 * message (ids only), so a redelivered queue message does not text twice.
 */
export const twilioMessagingSender: MessagingSender = {
  name: 'twilio',
  async send(message: OutgoingMessage): Promise<SentMessage> {
    const body = messageBodyOf(message.messageId);
    if (body === undefined) throw new InternalError(`Messages are keyed by a message id, not "${message.messageId}"`);
    const refusal = refusalOf(message);
    if (refusal !== undefined) throw new MessageRefusedError(refusal);
    const already = await getSentMarker(message.merchantId, body);
    if (already !== undefined) return already;

    const accountSid = setting('TWILIO_ACCOUNT_SID');
    const token = await authToken();
    const from = message.channel === 'whatsapp' ? setting('TWILIO_WHATSAPP_FROM') : setting('TWILIO_SMS_FROM');
    if (accountSid === undefined || token === undefined || from === undefined)
      throw new InternalError(`MESSAGING_DRIVER is twilio but TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN or the ${message.channel} sender is not set`);
    const base = (setting('TWILIO_API_BASE_URL') ?? 'https://api.twilio.com').replace(/\/+$/, '');
    const webhookBase = setting('WEBHOOK_PUBLIC_BASE_URL')?.replace(/\/+$/, '');
    const form = twilioFormOf(message, from, webhookBase === undefined ? undefined : `${webhookBase}/api/v1/messaging/status`);

    const response = await fetch(`${base}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${accountSid}:${token}`, 'utf8').toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: form.toString(),
      signal: AbortSignal.timeout(TWILIO_TIMEOUT_MS),
    });
    const answer = (await response.json().catch(() => ({}))) as { sid?: unknown; code?: unknown; message?: unknown };
    if (response.status === 429 || response.status >= 500) throw new Error(`Twilio answered ${response.status}; retried later`);
    if (!response.ok) {
      const code = typeof answer.code === 'number' || typeof answer.code === 'string' ? ` ${answer.code}` : '';
      const detail = typeof answer.message === 'string' ? `: ${answer.message}` : '';
      throw new MessageRefusedError(`Twilio refused the ${message.channel} (${response.status}${code})${detail}`);
    }
    if (typeof answer.sid !== 'string') throw new Error('Twilio accepted the message without a sid');
    return putSentMarker(message.merchantId, message.customerId, body, { provider: 'twilio', providerMessageId: answer.sid });
  },
};
