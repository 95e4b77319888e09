import { upstreamSocketTarget } from '#adapters/http/websocket-upstream';
import { upstreamOfConnection } from '#services/browser-sessions';
import type { UpstreamTarget } from './relay';

/**
 * The upstream of an API Gateway connection: the item `$connect` wrote (database, the upstream
 * token unsealed), and `<WS_UPSTREAM_URL>/v1/database/<name>/subscribe` resolved and checked now
 * (public addresses only, the connection pinned to the address checked), as the local proxy
 * opens it. Undefined when the connection's item is gone.
 */
export async function connectionUpstream(connectionId: string): Promise<UpstreamTarget | undefined> {
  const connection = await upstreamOfConnection(connectionId, new Date());
  if (connection === undefined) return undefined;
  const target = await upstreamSocketTarget(connection.database);
  return { url: target.url, lookup: target.lookup, token: connection.upstreamToken };
}
