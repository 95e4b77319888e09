import { createGroupHandler } from '#api/group-handler';
import { apiKeyAuth } from '#api/pipeline/api-key';
import { getExperiment } from './get-experiment';
import { getExperimentAssignment } from './get-experiment-assignment';
import { getExperimentResults } from './get-experiment-results';
import { listExperiments } from './list-experiments';
import { promoteExperiment } from './promote-experiment';
import { experimentsRoutes } from './routes';
import { stopExperiment } from './stop-experiment';

/** The experiments Lambda: list, one, results, promote, stop, and a customer's assignment. */
export const handler = createGroupHandler(
  experimentsRoutes,
  {
    listExperiments,
    getExperiment,
    getExperimentResults,
    promoteExperiment,
    stopExperiment,
    getExperimentAssignment,
  },
  apiKeyAuth,
);
