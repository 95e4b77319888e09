import type { APIGatewayProxyEvent } from 'aws-lambda';
import { rawBody } from '#api/pipeline/parse-request';
import { env } from '#shared/env';
import { logger } from '#shared/logger';
import type { DeliveryEvent } from '#core/messages';
import { defineOperation, type SignedPrincipal } from '#api/operation';
import { applyDeliveryCallback, invalidSignature, received } from './record-callback';
import { lowercasedHeaders } from '#api/pipeline/headers';
import { publicUrlOf } from '#api/pipeline/request-url';
import { receiveMessagingStatusSchemas } from './schemas';
import { verifyTwilioSignature } from './signatures';

/** Twilio `MessageStatus` values we act on; the others (queued, sending, sent, accepted, …) are acknowledged and ignored. */
const STATUS_MAP: Readonly<Record<string, DeliveryEvent['type']>> = {
  delivered: 'delivered',
  read: 'opened',
  undelivered: 'bounced',
  failed: 'bounced',
};

/**
 * POST /api/v1/messaging/status: SMS and WhatsApp delivery status from the service's messaging
 * provider, Twilio-style: a form-encoded body (`MessageSid`, `MessageStatus`, `ErrorCode`) signed
 * in `X-Twilio-Signature` (base64 HMAC-SHA1 of the full URL followed by the POST parameters
 * sorted by name, each name+value, keyed by MESSAGING_AUTH_TOKEN; the URL is rebuilt as for the
 * provider webhooks: WEBHOOK_PUBLIC_BASE_URL, else the Host header). As Twilio's own validator
 * does, a signature over that URL with the scheme's default port added (none in the URL) or
 * removed (`:443` on https, `:80` on http) is accepted too, since Twilio may sign either form
 * (signatures.ts `twilioUrlVariants`). No timestamp is signed.
 *
 * `delivered` → delivered, `read` → opened, `undelivered`/`failed` → bounced (no email
 * suppression: the address is a phone number); the event id is `MessageSid:MessageStatus`, as
 * Twilio sends one callback per status. A bad or missing signature, or no MESSAGING_AUTH_TOKEN
 * configured, is 401 `invalid_signature` with nothing changed; an unknown MessageSid is 200 with
 * nothing changed. Answers 200 `{ data: { received: true }, meta }`.
 */
/** A verified Twilio-style status callback: its form parameters. */
export interface MessagingCallbackPrincipal extends SignedPrincipal {
  readonly params: URLSearchParams;
}

/** The provider_signature authenticator of this row (the signature scheme above). */
export async function verifyMessagingCallback(event: APIGatewayProxyEvent): Promise<MessagingCallbackPrincipal> {
  const token = env.MESSAGING_AUTH_TOKEN;
  if (token === undefined) {
    logger.warn('messaging status callback refused: MESSAGING_AUTH_TOKEN is not configured', { request_id: event.requestContext.requestId });
    throw invalidSignature();
  }
  const headers = lowercasedHeaders(event);
  const params = new URLSearchParams((rawBody(event) ?? Buffer.alloc(0)).toString('utf8'));
  const verification = verifyTwilioSignature(publicUrlOf(event, headers), params, headers['x-twilio-signature'], token);
  if (!verification.ok) {
    logger.info('messaging status callback refused', { request_id: event.requestContext.requestId, reason: verification.reason });
    throw invalidSignature();
  }
  return { kind: 'provider_signature', sender: 'messaging', params };
}

export const receiveMessagingStatus = defineOperation(
  { auth: 'provider_signature', schemas: receiveMessagingStatusSchemas, verify: verifyMessagingCallback },
  async ({ principal: { params }, requestId }) => {
    const log = logger.child({ request_id: requestId, callback: 'messaging' });
    const now = new Date();
    const sid = params.get('MessageSid') ?? params.get('SmsSid');
    const status = params.get('MessageStatus') ?? params.get('SmsStatus');
    const type = status === null ? undefined : STATUS_MAP[status];
    if (sid === null || sid === '' || status === null || type === undefined) {
      log.info('messaging status callback without an actionable status; ignored', { status });
      return received(requestId, now);
    }
    const errorCode = params.get('ErrorCode');
    const at = now.toISOString();
    await applyDeliveryCallback(
      {
        source: 'messaging',
        providerMessageId: sid,
        event: {
          id: `${sid}:${status}`,
          type,
          source: 'messaging',
          occurred_at: at,
          received_at: at,
          detail: errorCode === null || errorCode === '' ? status : `${status} (${errorCode})`,
        },
      },
      log,
    );
    return received(requestId, now);
  },
);
