import { type RouteDef, WRITE, v1 } from '#api/route-rows';
import { startWinBackSchemas } from './schemas';

/** The `win-back` group's rows of the route table: its Lambda serves exactly these. */
export const winBackRoutes: readonly RouteDef[] = [
  v1('win-back', 'POST', '/win-back/{customerId}', 'startWinBack', WRITE, 'Start a win-back offer for a customer', { schemas: startWinBackSchemas }),
];
