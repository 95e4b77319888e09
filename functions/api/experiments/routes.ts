import { type RouteDef, READ, WRITE, v1 } from '#api/route-rows';
import {
  getExperimentAssignmentSchemas,
  getExperimentResultsSchemas,
  getExperimentSchemas,
  listExperimentsSchemas,
  promoteExperimentSchemas,
  stopExperimentSchemas,
} from './schemas';

/** The `experiments` group's rows of the route table: its Lambda serves exactly these. */
export const experimentsRoutes: readonly RouteDef[] = [
  v1('experiments', 'GET', '/experiments', 'listExperiments', READ, 'List experiments', { schemas: listExperimentsSchemas }),
  v1('experiments', 'GET', '/experiments/assign/{customer_id}', 'getExperimentAssignment', READ, 'Variant assigned to a customer', {
    schemas: getExperimentAssignmentSchemas,
  }),
  v1('experiments', 'GET', '/experiments/{id}', 'getExperiment', READ, 'One experiment', { schemas: getExperimentSchemas }),
  v1('experiments', 'GET', '/experiments/{id}/results', 'getExperimentResults', READ, 'Results with confidence intervals', {
    schemas: getExperimentResultsSchemas,
  }),
  v1('experiments', 'POST', '/experiments/{id}/promote', 'promoteExperiment', WRITE, 'Promote the winner to default', { schemas: promoteExperimentSchemas }),
  v1('experiments', 'POST', '/experiments/{id}/stop', 'stopExperiment', WRITE, 'Stop a running experiment', { schemas: stopExperimentSchemas }),
];
