import type { APIGatewayProxyEvent } from 'aws-lambda';
import { type UpstreamSocketTarget, upstreamSocketTarget } from '#adapters/http/websocket-upstream';
import { headerOf } from '#api/pipeline/headers';
import { parseRequest } from '#api/pipeline/parse-request';
import { presentedTicket } from '#api/pipeline/session-cookie';
import type { RouteDef } from '#api/route-types';
import { authorizeSubscription, type SubscriptionGrant } from '#services/browser-sessions';

/** What opening a subscription needs: who, and the upstream socket to open with its token. */
export interface OpenedSubscription {
  readonly database: string;
  readonly grant: SubscriptionGrant & { readonly upstreamToken: string };
  readonly target: UpstreamSocketTarget;
}

/**
 * The WebSocket upgrade of GET /ws/v1/database/{name}/subscribe, authenticated exactly as its
 * route: `{name}` held to the row's params schema (404 when it cannot exist), then the session
 * cookie or the one-time `?ticket=` (spent now: this request opens the socket), then the upstream
 * resolved and checked. Throws the route's AppErrors; the caller answers them as HTTP before any
 * upgrade. Used by the local server (lib/local/websocket-proxy.ts).
 */
export async function openSubscription(event: APIGatewayProxyEvent, route: RouteDef, now: Date): Promise<OpenedSubscription> {
  const { params } = parseRequest(event, route);
  const database = (params as { name: string }).name;
  const grant = await authorizeSubscription({ cookieHeader: headerOf(event, 'cookie'), ticket: presentedTicket(event, route) }, 'open', now);
  const target = await upstreamSocketTarget(database);
  return { database, grant: grant as OpenedSubscription['grant'], target };
}
