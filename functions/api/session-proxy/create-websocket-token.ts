import { TICKET_TTL_SECONDS } from '#core/browser-sessions';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { issueWebsocketTicket } from '#services/browser-sessions';
import { cookieSession } from './cookie-session';
import { createWebsocketTokenSchemas } from './schemas';

/**
 * POST /ws/v1/identity/websocket-token: asks the upstream (`WS_UPSTREAM_URL`) for a WebSocket
 * token for the session's subject and answers a one-time ticket valid 60 s in its stead (201).
 * The upstream's token never reaches the browser. Upstream failure: 502; no upstream set: 503.
 */
export const createWebsocketToken = defineOperation({ auth: 'session_cookie', schemas: createWebsocketTokenSchemas }, async ({ principal, requestId }) => {
  const { ticket, expiresAt } = await issueWebsocketTicket(cookieSession(principal), new Date());
  const data = { object: 'websocket_ticket' as const, ticket, expires_at: new Date(expiresAt * 1000).toISOString(), expires_in: TICKET_TTL_SECONDS };
  return { statusCode: 201, body: envelope(data, requestId), headers: { 'Cache-Control': 'no-store' } };
});
