import * as z from '#shared/zod';

export const HealthResponse = z.object({ status: z.literal('ok') });

export const getHealthSchemas = { responses: { 200: HealthResponse } } as const;
