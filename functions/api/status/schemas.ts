import * as z from '#shared/zod';

export const StatusData = z.object({
  // A
  connected: z.boolean(),
  merchant_id: z.nullable(z.string()),
  merchant_name: z.nullable(z.string()),
  plan_tier: z.nullable(z.string()),
  auth_strategy: z.enum(['api_key', 'none']),
  // B
  status: z.literal('ok'),
  version: z.string(),
  timestamp: z.string(),
  authenticated: z.boolean(),
});

export const StatusResponse = z.object({
  data: StatusData,
  meta: z.object({ timestamp: z.string(), request_id: z.string(), merchant_id: z.optional(z.string()) }),
});

export const getStatusSchemas = { responses: { 200: StatusResponse } } as const;
