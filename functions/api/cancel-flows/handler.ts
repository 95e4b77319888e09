import { createGroupHandler } from '#api/group-handler';
import { apiKeyAuth } from '#api/pipeline/api-key';
import { activateCancelFlow } from './activate-cancel-flow';
import { createCancelFlow } from './create-cancel-flow';
import { deactivateCancelFlow } from './deactivate-cancel-flow';
import { deleteCancelFlow } from './delete-cancel-flow';
import { listCancelFlows } from './list-cancel-flows';
import { cancelFlowsRoutes } from './routes';
import { updateCancelFlow } from './update-cancel-flow';

/** The cancel-flows Lambda: list (with session statistics), create, replace, delete, activate, deactivate. */
export const handler = createGroupHandler(
  cancelFlowsRoutes,
  {
    listCancelFlows,
    createCancelFlow,
    updateCancelFlow,
    deleteCancelFlow,
    activateCancelFlow,
    deactivateCancelFlow,
  },
  apiKeyAuth,
);
