import { type RouteDef, v1 } from '#api/route-rows';
import { getStatusSchemas } from './schemas';

/** The `status` group's rows of the route table: its Lambda serves exactly these. */
export const statusRoutes: readonly RouteDef[] = [
  v1('status', 'GET', '/status', 'getStatus', [], 'Connection status; merchant data with a valid key', { auth: 'optional_api_key', schemas: getStatusSchemas }),
];
