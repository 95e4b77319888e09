import { type RouteDef, v1 } from '#api/route-rows';

/** The `cancel-flows` group's rows of the route table: its Lambda serves exactly these. */
export const cancelFlowsRoutes: readonly RouteDef[] = [
  v1('cancel-flows', 'GET', '/cancel-flows', 'listCancelFlows', ['read', 'read:cancel-flows'], 'List cancel flows'),
  v1('cancel-flows', 'POST', '/cancel-flows', 'createCancelFlow', ['write', 'write:cancel-flows'], 'Create a cancel flow'),
  v1('cancel-flows', 'PUT', '/cancel-flows/{id}', 'updateCancelFlow', ['write', 'write:cancel-flows'], 'Replace the steps of a cancel flow'),
  v1('cancel-flows', 'DELETE', '/cancel-flows/{id}', 'deleteCancelFlow', ['write', 'write:cancel-flows'], 'Delete an inactive cancel flow'),
  v1('cancel-flows', 'POST', '/cancel-flows/{id}/activate', 'activateCancelFlow', ['write', 'write:cancel-flows'], 'Activate a cancel flow'),
  v1('cancel-flows', 'POST', '/cancel-flows/{id}/deactivate', 'deactivateCancelFlow', ['write', 'write:cancel-flows'], 'Deactivate a cancel flow'),
];
