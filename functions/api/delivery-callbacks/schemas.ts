import { z } from 'zod';

export const DeliveryCallbackReceivedResponse = z.object({
  data: z.object({ received: z.literal(true) }),
  meta: z.object({ timestamp: z.string(), request_id: z.string(), merchant_id: z.string().optional() }),
});

// No body schemas: each operation reads the body raw, since the signatures cover it as sent.
// One object per row, so each operation is tied to its own row.

/** POST /api/v1/messaging/status: Twilio-style status callbacks (form-encoded). */
export const receiveMessagingStatusSchemas = { responses: { 200: DeliveryCallbackReceivedResponse } } as const;
/** POST /api/v1/messaging/email/status: Mailgun-style legacy email webhooks (JSON). */
export const receiveLegacyEmailStatusSchemas = { responses: { 200: DeliveryCallbackReceivedResponse } } as const;
/** POST /api/v1/mailer/webhook: Standard Webhooks-signed email events (JSON). */
export const receiveMailerEventSchemas = { responses: { 200: DeliveryCallbackReceivedResponse } } as const;
