import { type RouteDef, v1 } from '#api/route-rows';

/** The `vectors` group's rows of the route table: its Lambda serves exactly these. */
export const vectorsRoutes: readonly RouteDef[] = [
  v1('vectors', 'POST', '/vectors/embed-event', 'embedRecoveryEvent', ['write', 'write:vectors'], 'Embed a recovery outcome'),
  v1('vectors', 'POST', '/vectors/find-similar', 'findSimilarRecoveries', ['read', 'read:vectors'], 'Nearest past recoveries'),
  v1('vectors', 'GET', '/vectors/recommend-strategy/{payment_id}', 'recommendStrategy', ['read', 'read:vectors'], 'Strategy from similar outcomes'),
];
