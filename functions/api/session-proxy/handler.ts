import { createGroupHandler } from '#api/group-handler';
import { publicAuth } from '#api/pipeline/authenticator';
import { sessionCookieAuth } from '#api/pipeline/session-cookie';
import { createSession } from './create-session';
import { createWebsocketToken } from './create-websocket-token';
import { refreshSession } from './refresh-session';
import { revokeSession } from './revoke-session';
import { sessionProxyRoutes } from './routes';
import { subscribeDatabase } from './subscribe-database';

/** The session-proxy Lambda: JWT → cookie session (create, refresh, revoke), WebSocket tickets, and the subscribe row's HTTP answer. */
export const handler = createGroupHandler(
  sessionProxyRoutes,
  { createSession, refreshSession, revokeSession, createWebsocketToken, subscribeDatabase },
  { ...publicAuth, ...sessionCookieAuth },
);
