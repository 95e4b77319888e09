import { type RouteDef, at } from '#api/route-rows';
import { createSessionSchemas, createWebsocketTokenSchemas, refreshSessionSchemas, revokeSessionSchemas, subscribeDatabaseSchemas } from './schemas';

/** The `session-proxy` group's rows of the route table: its Lambda serves exactly these. */
export const sessionProxyRoutes: readonly RouteDef[] = [
  at(
    'edge',
    'session-proxy',
    'POST',
    '/ws/auth/session',
    'createSession',
    'public',
    [],
    'Exchange an identity-provider JWT for a session cookie',
    createSessionSchemas,
  ),
  at('edge', 'session-proxy', 'POST', '/ws/auth/refresh', 'refreshSession', 'session_cookie', [], 'Refresh the session cookie', refreshSessionSchemas),
  at('edge', 'session-proxy', 'POST', '/ws/auth/revoke', 'revokeSession', 'session_cookie', [], 'Revoke the session', revokeSessionSchemas),
  at(
    'edge',
    'session-proxy',
    'POST',
    '/ws/v1/identity/websocket-token',
    'createWebsocketToken',
    'session_cookie',
    [],
    'Proxy a WebSocket token request',
    createWebsocketTokenSchemas,
  ),
  at(
    'edge',
    'session-proxy',
    'GET',
    '/ws/v1/database/{name}/subscribe',
    'subscribeDatabase',
    'session_cookie',
    [],
    'Upgrade to a proxied WebSocket',
    subscribeDatabaseSchemas,
  ),
];
