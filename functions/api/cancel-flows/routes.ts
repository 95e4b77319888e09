import { type RouteDef, v1 } from '#api/route-rows';
import {
  activateCancelFlowSchemas,
  createCancelFlowSchemas,
  deactivateCancelFlowSchemas,
  deleteCancelFlowSchemas,
  listCancelFlowsSchemas,
  updateCancelFlowSchemas,
} from './schemas';

const READ = ['read', 'read:cancel-flows'] as const;
const WRITE = ['write', 'write:cancel-flows'] as const;

/** The `cancel-flows` group's rows of the route table: its Lambda serves exactly these. */
export const cancelFlowsRoutes: readonly RouteDef[] = [
  v1('cancel-flows', 'GET', '/cancel-flows', 'listCancelFlows', [...READ], 'List cancel flows', { schemas: listCancelFlowsSchemas }),
  v1('cancel-flows', 'POST', '/cancel-flows', 'createCancelFlow', [...WRITE], 'Create a cancel flow', { schemas: createCancelFlowSchemas }),
  v1('cancel-flows', 'PUT', '/cancel-flows/{id}', 'updateCancelFlow', [...WRITE], 'Replace the steps of a cancel flow', { schemas: updateCancelFlowSchemas }),
  v1('cancel-flows', 'DELETE', '/cancel-flows/{id}', 'deleteCancelFlow', [...WRITE], 'Delete an inactive cancel flow', { schemas: deleteCancelFlowSchemas }),
  v1('cancel-flows', 'POST', '/cancel-flows/{id}/activate', 'activateCancelFlow', [...WRITE], 'Activate a cancel flow', { schemas: activateCancelFlowSchemas }),
  v1('cancel-flows', 'POST', '/cancel-flows/{id}/deactivate', 'deactivateCancelFlow', [...WRITE], 'Deactivate a cancel flow', {
    schemas: deactivateCancelFlowSchemas,
  }),
];
