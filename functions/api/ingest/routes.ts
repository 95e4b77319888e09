import { type RouteDef, v1 } from '#api/route-rows';
import { ingestPaymentEventSchemas } from './schemas';

/** The `ingest` group's rows of the route table: its Lambda serves exactly these. */
export const ingestRoutes: readonly RouteDef[] = [
  v1('ingest', 'POST', '/ingest/payment-event', 'ingestPaymentEvent', ['write', 'admin'], 'Ingest a payment event', { schemas: ingestPaymentEventSchemas }),
];
