import { type RouteDef, at } from '#api/route-rows';

/** The `cancel-sessions` group's rows of the route table: its Lambda serves exactly these. */
export const cancelSessionsRoutes: readonly RouteDef[] = [
  at('edge', 'cancel-sessions', 'POST', '/api/cancel-session/start', 'startCancelSession', 'public', [], 'Start a cancel session'),
  at('edge', 'cancel-sessions', 'GET', '/api/cancel-session/{token}', 'getCancelSession', 'session_token', [], 'Current state of a cancel session'),
  at('edge', 'cancel-sessions', 'POST', '/api/cancel-session/{token}/advance', 'advanceCancelSession', 'session_token', [], 'Advance a cancel session'),
  at('edge', 'cancel-sessions', 'POST', '/api/cancel-session/{token}/complete', 'completeCancelSession', 'session_token', [], 'Complete a cancel session'),
];
