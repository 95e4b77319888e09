import { z } from 'zod';

export const ProviderWebhookParams = z.object({
  merchant_id: z.string().min(1).describe('The merchant the provider was told to post to.'),
});

export const ProviderWebhookReceivedResponse = z.object({
  data: z.object({
    received: z.literal(true),
    id: z.string().describe('Our id of the stored delivery (`whk_…`); it is processed from the inbound-webhooks queue.'),
  }),
  meta: z.object({ timestamp: z.string(), request_id: z.string(), merchant_id: z.string().optional() }),
});

/**
 * One schemas object for the 14 provider-webhook rows (13 providers and Square's invoice path).
 * No body schema: the body is read raw, since the signature covers the bytes exactly as sent.
 */
export const receiveProviderWebhookSchemas = { params: ProviderWebhookParams, responses: { 200: ProviderWebhookReceivedResponse } } as const;
