import { z } from 'zod';

export const HealthResponse = z.object({ status: z.literal('ok') });

export const getHealthSchemas = { responses: { 200: HealthResponse } } as const;
