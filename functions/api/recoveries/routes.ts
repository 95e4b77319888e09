import { type RouteDef, READ, WRITE, v1 } from '#api/route-rows';
import { getRecoverySchemas, listRecoveriesSchemas, triggerDunningSchemas } from './schemas';

/** The `recoveries` group's rows of the route table: its Lambda serves exactly these. */
export const recoveriesRoutes: readonly RouteDef[] = [
  v1('recoveries', 'GET', '/recoveries', 'listRecoveries', READ, 'List recoveries', { schemas: listRecoveriesSchemas }),
  v1('recoveries', 'GET', '/recoveries/{id}', 'getRecovery', READ, 'One recovery with its state history', { schemas: getRecoverySchemas }),
  v1('recoveries', 'POST', '/recoveries/{id}/dunning', 'triggerDunning', WRITE, 'Send a dunning message now', { schemas: triggerDunningSchemas }),
];
