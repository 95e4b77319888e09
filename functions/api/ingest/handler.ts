import { createGroupHandler } from '../group-handler';
import { ingestPaymentEvent } from './ingest-payment-event';

/** The ingest Lambda: POST /api/v1/ingest/payment-event. */
export const handler = createGroupHandler('ingest', { ingestPaymentEvent });
