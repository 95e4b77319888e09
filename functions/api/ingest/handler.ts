import { createGroupHandler } from '#api/group-handler';
import { apiKeyAuth } from '#api/pipeline/api-key';
import { ingestRoutes } from './routes';
import { ingestPaymentEvent } from './ingest-payment-event';

/** The ingest Lambda: POST /api/v1/ingest/payment-event. */
export const handler = createGroupHandler(ingestRoutes, { ingestPaymentEvent }, apiKeyAuth);
