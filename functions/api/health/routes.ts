import { type RouteDef, at } from '#api/route-rows';
import { getHealthSchemas } from './schemas';

/** The `health` group's rows of the route table: its Lambda serves exactly these. */
export const healthRoutes: readonly RouteDef[] = [at('all', 'health', 'GET', '/health', 'getHealth', 'public', [], 'Liveness of the host', getHealthSchemas)];
