import * as z from '#shared/zod';

export const DeliveryCallbackReceivedResponse = z.object({
  data: z.object({ received: z.literal(true) }),
  meta: z.object({ timestamp: z.string(), request_id: z.string(), merchant_id: z.optional(z.string()) }),
});

// No body schemas: each operation reads the body raw, since the signatures cover it as sent; the
// bodies below are documented only (`documentedBody`). One object per row, so each operation is
// tied to its own row.

const MessagingStatusForm = z.looseObject({
  MessageSid: z.string().clone().register(z.globalRegistry, { description: 'The message (`SM…`/`MM…`); `SmsSid` is read when it is absent.' }),
  MessageStatus: z
    .string()
    .clone()
    .register(z.globalRegistry, { description: '`delivered`, `read`, `undelivered` and `failed` are acted on; `queued`, `sent`, … are acknowledged.' }),
  ErrorCode: z.optional(z.string()),
});

const LegacyEmailEvent = z.looseObject({
  signature: z.object({
    timestamp: z.union([z.string(), z.number()]),
    token: z.string().clone().register(z.globalRegistry, { description: 'Single use.' }),
    signature: z.string().clone().register(z.globalRegistry, { description: 'Hex HMAC-SHA256 of timestamp+token.' }),
  }),
  'event-data': z.looseObject({
    id: z.optional(z.string()),
    event: z.string().clone().register(z.globalRegistry, { description: '`delivered`, `opened`, `clicked`, `complained`, `failed`; others are acknowledged.' }),
    severity: z.optional(z.string()).clone().register(z.globalRegistry, { description: 'On `failed`: `permanent` (a hard bounce) or `temporary`.' }),
    reason: z.optional(z.string()),
    timestamp: z.optional(z.number()),
    message: z.looseObject({ headers: z.looseObject({ 'message-id': z.string() }) }),
  }),
});

const MailerEvent = z.looseObject({
  type: z.string().clone().register(z.globalRegistry, {
    description: '`email.delivered`, `email.opened`, `email.clicked`, `email.bounced`, `email.complained`, `email.delivery_delayed`; others are acknowledged.',
  }),
  created_at: z.optional(z.string()),
  data: z.looseObject({ email_id: z.string(), bounce: z.optional(z.looseObject({ type: z.optional(z.string()), subType: z.optional(z.string()) })) }),
});

/** POST /api/v1/messaging/status: Twilio-style status callbacks (form-encoded). */
export const receiveMessagingStatusSchemas = {
  documentedBody: {
    description:
      'A Twilio-style status callback, signed in `X-Twilio-Signature`: base64 HMAC-SHA1, keyed by MESSAGING_AUTH_TOKEN, of the full URL followed by the form parameters sorted by name (name+value).',
    content: { 'application/x-www-form-urlencoded': MessagingStatusForm },
  },
  responses: { 200: DeliveryCallbackReceivedResponse },
} as const;
/** POST /api/v1/messaging/email/status: Mailgun-style legacy email webhooks (JSON). */
export const receiveLegacyEmailStatusSchemas = {
  documentedBody: {
    description:
      'A Mailgun-style event, signed in the body: `signature.signature` is the hex HMAC-SHA256 of `timestamp`+`token`, keyed by LEGACY_EMAIL_SIGNING_KEY, within 300 s; each token is accepted once.',
    content: { 'application/json': LegacyEmailEvent },
  },
  responses: { 200: DeliveryCallbackReceivedResponse },
} as const;
/** POST /api/v1/mailer/webhook: Standard Webhooks-signed email events (JSON). */
export const receiveMailerEventSchemas = {
  documentedBody: {
    description:
      'An email event signed with Standard Webhooks: `webhook-id`, `webhook-timestamp` (within 300 s) and `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed by MAILER_WEBHOOK_SECRET (`svix-*` names accepted).',
    content: { 'application/json': MailerEvent },
  },
  responses: { 200: DeliveryCallbackReceivedResponse },
} as const;
