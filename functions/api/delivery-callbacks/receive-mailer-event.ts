import type { APIGatewayProxyEvent } from 'aws-lambda';
import * as z from '#shared/zod';
import { InvalidRequestError } from '#core/errors';
import { rawBody } from '#api/pipeline/parse-request';
import { env } from '#shared/env';
import { logger } from '#shared/logger';
import { headerOf } from '#webhooks/crypto';
import { defineOperation, type SignedPrincipal } from '#api/operation';
import { applyDeliveryCallback, type DeliveryCallback, invalidSignature, isoOr, received } from './record-callback';
import { lowercasedHeaders } from '#api/pipeline/headers';
import { receiveMailerEventSchemas } from './schemas';
import { verifyStandardWebhook } from './signatures';

/** The part of a mailer event we read (Resend's shape); anything else is ignored. */
const MailerEvent = z.object({
  type: z.string(),
  created_at: z.optional(z.string()),
  data: z.object({
    email_id: z.string().check(z.minLength(1)),
    bounce: z.optional(z.object({ type: z.optional(z.string()), subType: z.optional(z.string()) })),
  }),
});

/**
 * POST /api/v1/mailer/webhook: email events from the service's mailer, signed with Standard
 * Webhooks (Svix; Resend's webhooks): headers `webhook-id`, `webhook-timestamp` and
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">` (or their `svix-*` names),
 * keyed by the base64 after `whsec_` of MAILER_WEBHOOK_SECRET, timestamp within ±300 s. The body
 * is `{ type, created_at, data: { email_id, bounce? } }`.
 *
 * `email.delivered`, `email.opened`, `email.clicked`, `email.complained` map to their states;
 * `email.bounced` is a hard bounce (recipient suppressed) unless `data.bounce.type` is
 * `Transient` (then, like `email.delivery_delayed`, a deferral: kept as an event, status
 * unchanged); a complaint suppresses the recipient; other types are acknowledged and ignored. The
 * event id is `webhook-id`, which stays the same across the sender's retries. A bad, missing or
 * stale signature, or no MAILER_WEBHOOK_SECRET, is 401 `invalid_signature` with nothing changed;
 * a signed body that is not such an event is 400 `invalid_request`; an unknown email id is 200
 * with nothing changed.
 */
/** A verified mailer event: its body and the Standard Webhooks id it was signed under. */
export interface MailerEventPrincipal extends SignedPrincipal {
  readonly body: Buffer;
  readonly webhookId: string;
}

/** The provider_signature authenticator of this row (Standard Webhooks, above). */
export async function verifyMailerEvent(event: APIGatewayProxyEvent): Promise<MailerEventPrincipal> {
  const secret = env.MAILER_WEBHOOK_SECRET;
  if (secret === undefined) {
    logger.warn('mailer webhook refused: MAILER_WEBHOOK_SECRET is not configured', { request_id: event.requestContext.requestId });
    throw invalidSignature();
  }
  const body = rawBody(event) ?? Buffer.alloc(0);
  const headers = lowercasedHeaders(event);
  const signed = {
    id: headerOf(headers, 'webhook-id') ?? headerOf(headers, 'svix-id'),
    timestamp: headerOf(headers, 'webhook-timestamp') ?? headerOf(headers, 'svix-timestamp'),
    signature: headerOf(headers, 'webhook-signature') ?? headerOf(headers, 'svix-signature'),
  };
  const verification = verifyStandardWebhook(signed, body, secret, new Date());
  if (!verification.ok || signed.id === undefined) {
    logger.info('mailer webhook refused', { request_id: event.requestContext.requestId, reason: verification.ok ? 'no webhook-id' : verification.reason });
    throw invalidSignature();
  }
  return { kind: 'provider_signature', sender: 'mailer', body, webhookId: signed.id };
}

export const receiveMailerEvent = defineOperation(
  { auth: 'provider_signature', schemas: receiveMailerEventSchemas, verify: verifyMailerEvent },
  async ({ principal: { body, webhookId }, requestId }) => {
    const log = logger.child({ request_id: requestId, callback: 'mailer' });
    const now = new Date();
    let json: unknown;
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch {
      throw new InvalidRequestError('The body is not valid JSON.');
    }
    const parsed = MailerEvent.safeParse(json);
    if (!parsed.success) throw new InvalidRequestError('The body is not a mailer event (type and data.email_id).', { param: 'data.email_id' });
    const mailerEvent = parsed.data;
    const at = now.toISOString();
    let type: DeliveryCallback['event']['type'] | undefined;
    let suppress: DeliveryCallback['suppress'];
    switch (mailerEvent.type) {
      case 'email.delivered':
        type = 'delivered';
        break;
      case 'email.opened':
        type = 'opened';
        break;
      case 'email.clicked':
        type = 'clicked';
        break;
      case 'email.complained':
        [type, suppress] = ['complained', 'complaint'];
        break;
      case 'email.bounced':
        [type, suppress] = mailerEvent.data.bounce?.type === 'Transient' ? ['deferred', undefined] : ['bounced', 'hard_bounce'];
        break;
      case 'email.delivery_delayed':
        type = 'deferred';
        break;
      default:
        type = undefined;
    }
    if (type === undefined) {
      log.info('mailer event we do not track; ignored', { type: mailerEvent.type });
      return received(requestId, now);
    }
    const bounce = mailerEvent.data.bounce;
    const detail = [mailerEvent.type, bounce?.type, bounce?.subType].filter((part) => part !== undefined && part !== '').join('/');
    await applyDeliveryCallback(
      {
        source: 'mailer',
        providerMessageId: mailerEvent.data.email_id,
        event: { id: webhookId, type, source: 'mailer', occurred_at: isoOr(mailerEvent.created_at, at), received_at: at, detail },
        ...(suppress === undefined ? {} : { suppress }),
      },
      log,
    );
    return received(requestId, now);
  },
);
