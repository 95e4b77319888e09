import { getHealthSchemas } from './schemas';
import { defineOperation } from '#api/operation';

/** GET /health on every host: the function answers, so the host is up. Unwrapped, as the spec shows it. */
export const getHealth = defineOperation({ auth: 'public', schemas: getHealthSchemas }, async () => ({
  body: { status: 'ok' },
  headers: { 'Cache-Control': 'no-store' },
}));
