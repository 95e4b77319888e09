import type { BrowserSessionRecord, WebsocketTicketRecord } from '#core/browser-sessions';
import { BROWSER_SESSION_ENTITY, browserSessionKeys } from '../keys';
import { defineEntity } from './define-entity';

/** A session id of the session proxy, under its SHA-256 (the id itself is never stored). */
export const browserSessionEntity = defineEntity<BrowserSessionRecord, { readonly session_hash: string }>({
  name: BROWSER_SESSION_ENTITY.session,
  key: (_record, { session_hash }) => browserSessionKeys.session(session_hash),
});

/** A one-time WebSocket ticket, under its SHA-256. */
export const websocketTicketEntity = defineEntity<WebsocketTicketRecord, { readonly ticket_hash: string }>({
  name: BROWSER_SESSION_ENTITY.ticket,
  key: (_record, { ticket_hash }) => browserSessionKeys.ticket(ticket_hash),
});
