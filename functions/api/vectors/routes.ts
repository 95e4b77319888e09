import { type RouteDef, v1 } from '#api/route-rows';
import { embedEventSchemas, findSimilarSchemas, recommendStrategySchemas } from './schemas';

/** The `vectors` group's rows of the route table: its Lambda serves exactly these. */
export const vectorsRoutes: readonly RouteDef[] = [
  v1('vectors', 'POST', '/vectors/embed-event', 'embedRecoveryEvent', ['write', 'write:vectors'], 'Embed a recovery outcome', { schemas: embedEventSchemas }),
  v1('vectors', 'POST', '/vectors/find-similar', 'findSimilarRecoveries', ['read', 'read:vectors'], 'Nearest past recoveries', { schemas: findSimilarSchemas }),
  v1('vectors', 'GET', '/vectors/recommend-strategy/{payment_id}', 'recommendStrategy', ['read', 'read:vectors'], 'Strategy from similar outcomes', {
    schemas: recommendStrategySchemas,
  }),
];
