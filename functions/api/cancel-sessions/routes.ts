import { type RouteDef, at } from '#api/route-rows';
import {
  advanceCancelSessionSchemas,
  completeCancelSessionSchemas,
  getCancelSessionSchemas,
  showCancelPageSchemas,
  startCancelSessionSchemas,
} from './schemas';

/**
 * The `cancel-sessions` group's rows of the route table: its Lambda serves exactly these. Start is
 * called by the merchant's server with its API key (the spec lists it among neither the public
 * routes nor the token ones); the others are opened by the session token in the path.
 */
export const cancelSessionsRoutes: readonly RouteDef[] = [
  at(
    'edge',
    'cancel-sessions',
    'POST',
    '/api/cancel-session/start',
    'startCancelSession',
    'api_key',
    ['write', 'write:cancel-flows'],
    'Start a cancel session',
    startCancelSessionSchemas,
  ),
  at(
    'edge',
    'cancel-sessions',
    'GET',
    '/api/cancel-session/{token}',
    'getCancelSession',
    'session_token',
    [],
    'Current state of a cancel session',
    getCancelSessionSchemas,
  ),
  at(
    'edge',
    'cancel-sessions',
    'POST',
    '/api/cancel-session/{token}/advance',
    'advanceCancelSession',
    'session_token',
    [],
    'Advance a cancel session',
    advanceCancelSessionSchemas,
  ),
  at(
    'edge',
    'cancel-sessions',
    'POST',
    '/api/cancel-session/{token}/complete',
    'completeCancelSession',
    'session_token',
    [],
    'Complete a cancel session',
    completeCancelSessionSchemas,
  ),
  at('edge', 'cancel-sessions', 'GET', '/cancel/{token}', 'showCancelPage', 'public', [], 'The hosted cancel page of a session (HTML)', showCancelPageSchemas),
];
