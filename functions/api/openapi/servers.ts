import { API_NAMES, type ApiName } from '#api/route-types';
import type { OpenApiDocument, Server } from './types';

/** The local stack's default origin (PORT 3000): each server's default when the document is not served from a known origin. */
export const LOCAL_ORIGIN = 'http://localhost:3000';

const SERVER_TEXT: Readonly<Record<ApiName, { readonly variable: string; readonly description: string }>> = {
  merchant: { variable: 'base_url', description: 'merchant API' },
  edge: { variable: 'edge_url', description: 'edge API (cancel sessions, widget, white label, email domains)' },
  webhook: { variable: 'webhook_url', description: 'webhook API (provider webhooks, delivery callbacks)' },
};

/**
 * The server of one REST API: a `{variable}` URL whose default is `origin` (scheme, host and any
 * base path, no trailing slash), so a client can still point it elsewhere.
 */
export function serverOf(api: ApiName, origin: string = LOCAL_ORIGIN): Server {
  const { variable, description } = SERVER_TEXT[api];
  return {
    url: `{${variable}}`,
    description,
    variables: {
      [variable]: {
        default: origin,
        description: `Origin of the ${description} (scheme and host, and the stage path on an execute-api host; no trailing slash). The local stack serves all three hosts on one port (PORT, default 3000).`,
      },
    },
  };
}

/** One server per REST API, at the local stack's default origin; a path is served by the server(s) of its row's `api`. */
export const SERVERS: Readonly<Record<ApiName, Server>> = {
  merchant: serverOf('merchant'),
  edge: serverOf('edge'),
  webhook: serverOf('webhook'),
};

/**
 * The document with each API's server defaulting to the origin it is served at (the merchant
 * API's own URL when the document is fetched from it); APIs without a known origin keep the local
 * stack's default. Servers are told apart by their URL (`{base_url}`, `{edge_url}`,
 * `{webhook_url}`), so a document read back from JSON is served the same way. Everything else is
 * the shared document.
 *
 * @example
 * const served = withServerOrigins(buildOpenApiDocument(routes), { merchant: 'https://abc.execute-api.eu-west-1.amazonaws.com/prod' });
 */
export function withServerOrigins(document: OpenApiDocument, origins: Readonly<Partial<Record<ApiName, string>>>): OpenApiDocument {
  const replaced = new Map<string, Server>(API_NAMES.map((api) => [SERVERS[api].url, origins[api] === undefined ? SERVERS[api] : serverOf(api, origins[api])]));
  const servers = (list: readonly Server[]): Server[] => list.map((server) => replaced.get(server.url) ?? server);
  return {
    ...document,
    servers: servers(document.servers),
    paths: Object.fromEntries(
      Object.entries(document.paths).map(([path, item]) => [path, item.servers === undefined ? item : { ...item, servers: servers(item.servers) }]),
    ),
  };
}
