import { z } from 'zod';

export const StatusData = z.object({
  // A
  connected: z.boolean(),
  merchant_id: z.string().nullable(),
  merchant_name: z.string().nullable(),
  plan_tier: z.string().nullable(),
  auth_strategy: z.enum(['api_key', 'none']),
  // B
  status: z.literal('ok'),
  version: z.string(),
  timestamp: z.string(),
  authenticated: z.boolean(),
});

export const StatusResponse = z.object({
  data: StatusData,
  meta: z.object({ timestamp: z.string(), request_id: z.string(), merchant_id: z.string().optional() }),
});

export const getStatusSchemas = { responses: { 200: StatusResponse } } as const;
