import type { APIGatewayProxyEvent } from 'aws-lambda';
import * as z from '#shared/zod';
import { InvalidRequestError } from '#core/errors';
import { claimCallbackToken } from '#data/callback-token-repository';
import { rawBody } from '#api/pipeline/parse-request';
import { env } from '#shared/env';
import { logger } from '#shared/logger';
import { defineOperation, type SignedPrincipal } from '#api/operation';
import { applyDeliveryCallback, type DeliveryCallback, invalidSignature, isoOr, received } from './record-callback';
import { receiveLegacyEmailStatusSchemas } from './schemas';
import { CALLBACK_TOLERANCE_SECONDS, verifyMailgunSignature } from './signatures';

const SignedBody = z.object({
  signature: z.object({ timestamp: z.pipe(z.union([z.string(), z.number()]), z.transform(String)), token: z.string(), signature: z.string() }),
});

/** The part of Mailgun's `event-data` we read; anything else is ignored. */
const EventData = z.object({
  id: z.optional(z.string().check(z.minLength(1))),
  event: z.string(),
  timestamp: z.optional(z.number()),
  severity: z.optional(z.string()),
  reason: z.optional(z.string()),
  message: z.object({ headers: z.object({ 'message-id': z.string().check(z.minLength(1)) }) }),
});

const stripBrackets = (id: string): string => id.trim().replace(/^<(.*)>$/, '$1');

/**
 * POST /api/v1/messaging/email/status: legacy email delivery callbacks, Mailgun-style: a JSON
 * body with `signature: { timestamp, token, signature }` (hex HMAC-SHA256 of timestamp+token
 * keyed by LEGACY_EMAIL_SIGNING_KEY, timestamp within ±300 s) and `event-data` (`event`,
 * `severity`, `message.headers.message-id`, `id`).
 *
 * `delivered`, `opened`, `clicked`, `complained` map to themselves; `failed` with severity
 * `permanent` is a hard bounce (the recipient is suppressed), `temporary` a deferral (kept as an
 * event, status unchanged); a complaint suppresses the recipient too; other events are
 * acknowledged and ignored. The event id is `event-data.id` (else the signature token). A body
 * that is not JSON or has no signature, a bad or stale signature, or no LEGACY_EMAIL_SIGNING_KEY
 * is 401 `invalid_signature` with nothing changed; a signed body without readable event-data is
 * 400 `invalid_request`; an unknown message id is 200 with nothing changed.
 *
 * Tokens are single use. The signature covers only timestamp+token, so once it verifies, and
 * before event-data is even read, the token is spent (its SHA-256 is recorded with a conditional
 * put, functions/data/callback-token-repository.ts); a token seen before is 401
 * `invalid_signature` with nothing else written, whatever event-data it carries. That is what
 * Mailgun suggests (https://documentation.mailgun.com/docs/mailgun/user-manual/webhooks/securing-webhooks).
 *
 * Provider retries. Mailgun retries a POST not answered 200 (or 406) after 5 min, 10 min, 15 min,
 * 1 h, 2 h and 4 h (https://documentation.mailgun.com/docs/mailgun/user-manual/webhooks/webhook-retries).
 * Its documentation does not say whether a retry is signed anew; third-party references say the
 * signature block is resent unchanged. Either way the token cache refuses no retry the timestamp
 * check would accept: a re-signed retry carries a new token and is accepted (and, carrying the
 * same `event-data.id`, records nothing twice), while an unchanged one arrives at least 5 min
 * (= the ±300 s window) after it was signed and is refused as stale before its token is looked
 * at. A second delivery of one token inside the window is therefore a replay (or a duplicate of
 * a delivery already received), so refusing it loses nothing. (If Mailgun does resend blocks
 * unchanged, a delivery that fails here with a 5xx is never accepted again: that follows from the
 * ±300 s window, with or without the token cache.)
 */
/** A verified legacy email callback: its JSON body and the signature token, spent by the check. */
export interface LegacyEmailPrincipal extends SignedPrincipal {
  readonly json: Record<string, unknown>;
  readonly token: string;
}

/** The provider_signature authenticator of this row (signature and single-use token, above). */
export async function verifyLegacyEmailCallback(event: APIGatewayProxyEvent): Promise<LegacyEmailPrincipal> {
  const log = logger.child({ request_id: event.requestContext.requestId, callback: 'legacy_email' });
  const now = new Date();
  const key = env.LEGACY_EMAIL_SIGNING_KEY;
  if (key === undefined) {
    log.warn('legacy email callback refused: LEGACY_EMAIL_SIGNING_KEY is not configured');
    throw invalidSignature();
  }
  let json: unknown;
  try {
    json = JSON.parse((rawBody(event) ?? Buffer.alloc(0)).toString('utf8'));
  } catch {
    json = undefined;
  }
  const signed = SignedBody.safeParse(json);
  const signature = signed.success ? signed.data.signature : undefined;
  const verification = verifyMailgunSignature(signature, key, now);
  if (!verification.ok || signature === undefined) {
    log.info('legacy email callback refused', { reason: verification.ok ? 'missing signature object' : verification.reason });
    throw invalidSignature();
  }
  const firstUse = await claimCallbackToken(
    { source: 'legacy_email', token: signature.token, acceptableUntil: Number(signature.timestamp) + CALLBACK_TOLERANCE_SECONDS },
    now,
  );
  if (!firstUse) {
    log.info('legacy email callback refused', { reason: 'token already used' });
    throw invalidSignature();
  }
  return { kind: 'provider_signature', sender: 'legacy_email', json: json as Record<string, unknown>, token: signature.token };
}

export const receiveLegacyEmailStatus = defineOperation(
  { auth: 'provider_signature', schemas: receiveLegacyEmailStatusSchemas, verify: verifyLegacyEmailCallback },
  async ({ principal: { json, token }, requestId }) => {
    const log = logger.child({ request_id: requestId, callback: 'legacy_email' });
    const now = new Date();
    const parsed = EventData.safeParse(json['event-data']);
    if (!parsed.success) throw new InvalidRequestError('The body has no readable event-data (event and message.headers.message-id).', { param: 'event-data' });
    const data = parsed.data;
    const at = now.toISOString();
    let type: DeliveryCallback['event']['type'] | undefined;
    let suppress: DeliveryCallback['suppress'];
    if (data.event === 'delivered' || data.event === 'opened' || data.event === 'clicked') type = data.event;
    else if (data.event === 'complained') [type, suppress] = ['complained', 'complaint'];
    else if (data.event === 'failed') [type, suppress] = data.severity === 'temporary' ? ['deferred', undefined] : ['bounced', 'hard_bounce'];
    if (type === undefined) {
      log.info('legacy email callback for an event we do not track; ignored', { event: data.event });
      return received(requestId, now);
    }
    const detail = [data.event, data.severity, data.reason].filter((part) => part !== undefined && part !== '').join('/');
    await applyDeliveryCallback(
      {
        source: 'legacy_email',
        providerMessageId: stripBrackets(data.message.headers['message-id']),
        event: { id: data.id ?? token, type, source: 'legacy_email', occurred_at: isoOr(data.timestamp, at), received_at: at, detail },
        ...(suppress === undefined ? {} : { suppress }),
      },
      log,
    );
    return received(requestId, now);
  },
);
