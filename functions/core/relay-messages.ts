/**
 * The messages of the session proxy's relay queue on AWS (docs/session-proxy.md, "On AWS"): the
 * WebSocket API's Lambda puts them on an SQS FIFO queue, the relay (functions/relay/) takes them
 * off. One message group per API Gateway connection (MessageGroupId = connection id), so a
 * connection's messages reach the relay in the order API Gateway delivered them:
 *
 * - `open` (`$connect`): open the upstream for this connection (the relay reads the connection's
 *   item, written by `$connect` before this message is sent);
 * - `frame` (`$default`): a message the browser sent, its bytes base64 (so a 128 KB message stays
 *   under SQS's 256 KB whatever it holds: JSON escaping could grow text six-fold);
 * - `close`: `$disconnect` (the browser or API Gateway closed: close the upstream with the code),
 *   or a refusal by the Lambda (`close_client`: the relay also closes the browser's side).
 *
 * Pure: no I/O.
 */
import { createHash } from 'node:crypto';
import { MAX_WEBSOCKET_MESSAGE_BYTES } from './browser-sessions';

/** The version of the message shape; a relay refuses (drops) any other. */
export const RELAY_MESSAGE_VERSION = 1;

export type RelayMessage =
  | { readonly v: 1; readonly type: 'open'; readonly connection_id: string }
  | { readonly v: 1; readonly type: 'frame'; readonly connection_id: string; readonly data: string }
  | {
      readonly v: 1;
      readonly type: 'close';
      readonly connection_id: string;
      /** A WebSocket close code (RFC 6455 §7.4), or absent when none was reported. */
      readonly code?: number;
      /** At most 123 bytes (a close frame's reason). */
      readonly reason?: string;
      /** Also close the browser's side (the Lambda refused one of its messages). */
      readonly close_client?: boolean;
    };

/** A connection id as API Gateway makes them (and as a FIFO message group id allows): 1 to 128 of these characters. */
const CONNECTION_ID_PATTERN = /^[A-Za-z0-9=+/_-]{1,128}$/;

export const isConnectionId = (value: unknown): value is string => typeof value === 'string' && CONNECTION_ID_PATTERN.test(value);

/**
 * The relay shard (0 to `count` - 1) that holds a connection: the first 4 bytes of its id's
 * SHA-256, modulo the count. The same on every Lambda instance, so all of a connection's messages
 * go to one shard's queue and task.
 */
export function shardOf(connectionId: string, count: number): number {
  if (count <= 1) return 0;
  return createHash('sha256').update(connectionId, 'utf8').digest().readUInt32BE(0) % count;
}

/** A frame's message: the browser's bytes base64. */
export const frameMessage = (connectionId: string, bytes: Buffer): RelayMessage => ({
  v: 1,
  type: 'frame',
  connection_id: connectionId,
  data: bytes.toString('base64'),
});

/** The reason of a close frame: at most 123 bytes of UTF-8, cut on a character boundary. */
export function closeReason(reason: string): string {
  let cut = reason;
  while (Buffer.byteLength(cut, 'utf8') > 123) cut = cut.slice(0, -1);
  return cut;
}

/**
 * A queue message's body as a relay message, or undefined when it is not one (another version, a
 * missing or malformed field): the relay drops such a message rather than retrying it forever.
 */
export function parseRelayMessage(body: string): RelayMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const message = value as Record<string, unknown>;
  if (message.v !== RELAY_MESSAGE_VERSION || !isConnectionId(message.connection_id)) return undefined;
  const connectionId = message.connection_id;
  switch (message.type) {
    case 'open':
      return { v: 1, type: 'open', connection_id: connectionId };
    case 'frame':
      if (typeof message.data !== 'string' || message.data.length > Math.ceil(MAX_WEBSOCKET_MESSAGE_BYTES / 3) * 4) return undefined;
      return { v: 1, type: 'frame', connection_id: connectionId, data: message.data };
    case 'close': {
      const code = typeof message.code === 'number' && Number.isInteger(message.code) ? message.code : undefined;
      const reason = typeof message.reason === 'string' ? closeReason(message.reason) : undefined;
      return {
        v: 1,
        type: 'close',
        connection_id: connectionId,
        ...(code === undefined ? {} : { code }),
        ...(reason === undefined ? {} : { reason }),
        ...(message.close_client === true ? { close_client: true } : {}),
      };
    }
    default:
      return undefined;
  }
}
