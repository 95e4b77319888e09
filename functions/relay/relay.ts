import type { LookupFunction } from 'node:net';
import { type RawData, WebSocket } from 'ws';
import type { ReceivedMessage } from '#adapters/aws/sqs-json';
import type { ConnectionManagement } from '#adapters/aws/websocket-connections';
import { MAX_WEBSOCKET_MESSAGE_BYTES, sendableCloseCode } from '#core/browser-sessions';
import { closeReason, parseRelayMessage, type RelayMessage } from '#core/relay-messages';
import { logger } from '#shared/logger';

/**
 * The session proxy's relay on AWS (docs/session-proxy.md, "On AWS"): a long-running process
 * (ECS Fargate) that holds the upstream WebSocket of each API Gateway connection, which a Lambda
 * cannot. It long-polls the relay's SQS FIFO queue, where the WebSocket API's Lambda puts one
 * message group per connection (core/relay-messages.ts): `open` opens the upstream
 * (`<WS_UPSTREAM_URL>/v1/database/<name>/subscribe`, with the upstream token `$connect` sealed on
 * the connection's item), `frame` forwards the browser's message, `close` closes the upstream.
 * What the upstream sends goes to the browser by PostToConnection; the upstream closing deletes
 * the browser's connection (DeleteConnection); a 410 Gone (the browser left) closes the upstream.
 *
 * - **Order:** a group's messages are handled one after another and deleted only once handled,
 *   so SQS gives none of the group's next messages meanwhile (FIFO); posts to one connection are
 *   chained.
 * - **Not held:** a frame for a connection this relay does not hold (it restarted, or another
 *   relay opened it) closes the browser's connection (DeleteConnection): the browser reconnects
 *   with a fresh ticket and subscribes again, as after API Gateway's 2 h limit. Reopening the
 *   upstream silently would lose the subscriptions the browser made on the old one.
 * - **Bounds:** connections per relay (an `open` beyond it closes the browser's connection),
 *   messages handled at once (receives wait below it), 128 KB per message (the upstream's larger
 *   messages close both sides with 1009), posts waiting per connection (the upstream socket is
 *   paused above it), API Gateway's 2 h per connection.
 * - **Shutdown** (`stop`, on SIGTERM): no more receives, received messages not yet handled made
 *   visible again at once, every upstream closed with 1001 and its browser connection deleted so
 *   the browser reconnects (through the next relay).
 * - Never logs tokens, tickets or message contents: connection ids, codes and counts only.
 */

/** The upstream socket to open for a connection, or undefined when the connection is gone. */
export interface UpstreamTarget {
  readonly url: string;
  readonly token: string;
  readonly lookup?: LookupFunction;
}

export interface RelayPorts {
  readonly queue: {
    receive(max: number, waitSeconds: number): Promise<ReceivedMessage[]>;
    deleteBatch(receiptHandles: readonly string[]): Promise<string[]>;
    changeVisibility(receiptHandle: string, seconds: number): Promise<void>;
  };
  readonly connections: ConnectionManagement;
  readonly upstreamOf: (connectionId: string) => Promise<UpstreamTarget | undefined>;
}

export interface RelayLimits {
  /** Upstream connections held at once. */
  readonly maxConnections: number;
  /** Queue messages being handled at once (a receive takes at most 10). */
  readonly maxInFlightMessages: number;
  /** A receive's long poll (SQS allows 0 to 20). */
  readonly receiveWaitSeconds: number;
  /** The upstream's WebSocket handshake. */
  readonly handshakeTimeoutMs: number;
  /** After `open`, a 410 may mean API Gateway has not finished the browser's handshake yet: posts are retried this long. */
  readonly goneGraceMs: number;
  /** Posts waiting for one connection before its upstream socket is paused. */
  readonly maxPendingPosts: number;
  /** API Gateway's connection limit: a connection held longer is closed (its `$disconnect` was lost). */
  readonly connectionLifetimeMs: number;
  /** How long `stop` waits for messages being handled and closes to finish. */
  readonly shutdownTimeoutMs: number;
}

export const DEFAULT_RELAY_LIMITS: RelayLimits = {
  maxConnections: 1000,
  maxInFlightMessages: 100,
  receiveWaitSeconds: 10,
  handshakeTimeoutMs: 10_000,
  goneGraceMs: 3_000,
  maxPendingPosts: 64,
  connectionLifetimeMs: 2 * 60 * 60 * 1000,
  shutdownTimeoutMs: 20_000,
};

export interface Relay {
  /** Starts the receive loop. */
  start(): void;
  /** Graceful shutdown (see above); resolves once done or after `shutdownTimeoutMs`. */
  stop(): Promise<void>;
  /** Connection ids held now. */
  held(): string[];
}

interface Held {
  readonly id: string;
  readonly upstream: WebSocket;
  readonly openedAt: number;
  /** The chain of posts to the browser, in the upstream's order. */
  posts: Promise<void>;
  pendingPosts: number;
  /** The browser's side is closed already (410, `$disconnect`): nothing more to post or delete. */
  clientGone: boolean;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const errorText = (error: unknown): string => (error instanceof Error ? error.name : 'error');

/** Waits for `work`, at most `ms` (its timer cleared either way, so nothing is left pending). */
async function within(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, ms))))]);
  clearTimeout(timer);
}

export function createRelay(ports: RelayPorts, overrides: Partial<RelayLimits> = {}): Relay {
  const limits: RelayLimits = { ...DEFAULT_RELAY_LIMITS, ...overrides };
  const connections = new Map<string, Held>();
  const working = new Set<Promise<void>>();
  let inFlight = 0;
  let stopping = false;
  let loop: Promise<void> | undefined;
  let sweeper: NodeJS.Timeout | undefined;
  let capacity: (() => void) | undefined;

  const deleteClient = async (connectionId: string, why: string): Promise<void> => {
    try {
      await ports.connections.delete(connectionId);
      logger.info('relay closed browser connection', { connection_id: connectionId, why });
    } catch (error) {
      logger.warn('relay could not close browser connection', { connection_id: connectionId, why, error: errorText(error) });
    }
  };

  /** Closes the upstream with `code`; the upstream's `close` event then closes the browser's side unless it is gone. */
  const closeUpstream = (held: Held, code: number, reason: string): void => {
    if (held.upstream.readyState === WebSocket.OPEN || held.upstream.readyState === WebSocket.CONNECTING) {
      held.upstream.close(sendableCloseCode(code), closeReason(reason));
    }
  };

  /** Posts one upstream message; within `goneGraceMs` of the open a 410 is retried (API Gateway may still be finishing `$connect`). */
  const post = async (held: Held, text: string): Promise<'sent' | 'gone'> => {
    for (;;) {
      const result = await ports.connections.post(held.id, text);
      if (result === 'sent' || Date.now() - held.openedAt >= limits.goneGraceMs) return result;
      await sleep(100);
    }
  };

  const onUpstreamMessage = (held: Held) => (data: RawData, isBinary: boolean) => {
    if (held.clientGone) return;
    if (isBinary) {
      // API Gateway's WebSocket API carries text only (it closes a browser's binary frame with 1003).
      closeUpstream(held, 1003, 'binary messages are not relayed');
      return;
    }
    const text = (Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer)).toString('utf8');
    held.pendingPosts += 1;
    if (held.pendingPosts >= limits.maxPendingPosts) held.upstream.pause();
    held.posts = held.posts
      .then(async () => {
        if (held.clientGone) return;
        if ((await post(held, text)) === 'gone') {
          held.clientGone = true;
          closeUpstream(held, 1001, 'client gone');
        }
      })
      .catch((error: unknown) => {
        // A message that cannot be delivered leaves a gap in the stream: close both sides, the browser reconnects.
        logger.warn('relay could not post to browser', { connection_id: held.id, error: errorText(error) });
        closeUpstream(held, 1011, 'relay could not deliver');
      })
      .finally(() => {
        held.pendingPosts -= 1;
        if (held.upstream.isPaused && held.pendingPosts <= limits.maxPendingPosts / 2) held.upstream.resume();
      });
  };

  const onUpstreamClose = (held: Held) => (code: number) => {
    if (connections.get(held.id) === held) connections.delete(held.id);
    logger.info('relay upstream closed', { connection_id: held.id, code });
    if (held.clientGone) return;
    held.clientGone = true;
    // What the upstream sent before it closed reaches the browser first.
    const closing = held.posts.then(() => deleteClient(held.id, `upstream closed ${code}`));
    track(closing);
  };

  const open = async (connectionId: string): Promise<void> => {
    if (connections.has(connectionId)) return;
    if (stopping) {
      // Past shutdown's snapshot of the held connections: the browser reconnects through the next relay.
      await deleteClient(connectionId, 'relay stopping');
      return;
    }
    if (connections.size >= limits.maxConnections) {
      logger.warn('relay full: connection refused', { connection_id: connectionId, held: connections.size });
      await deleteClient(connectionId, 'relay full');
      return;
    }
    const target = await ports.upstreamOf(connectionId);
    if (target === undefined) {
      await deleteClient(connectionId, 'connection gone');
      return;
    }
    const upstream = new WebSocket(target.url, {
      headers: { Authorization: `Bearer ${target.token}` },
      ...(target.lookup === undefined ? {} : { lookup: target.lookup }),
      maxPayload: MAX_WEBSOCKET_MESSAGE_BYTES,
      handshakeTimeout: limits.handshakeTimeoutMs,
      followRedirects: false,
    });
    const held: Held = { id: connectionId, upstream, openedAt: Date.now(), posts: Promise.resolve(), pendingPosts: 0, clientGone: false };
    connections.set(connectionId, held);
    const opened = await new Promise<boolean>((resolve) => {
      upstream.once('open', () => resolve(true));
      upstream.once('unexpected-response', (_request, response) => {
        logger.warn('relay upstream refused', { connection_id: connectionId, status: response.statusCode ?? 0 });
        upstream.terminate();
        resolve(false);
      });
      upstream.once('error', () => resolve(false));
    });
    upstream.on('error', (error) => {
      logger.warn('relay upstream error', { connection_id: connectionId, error: errorText(error) });
      upstream.terminate();
    });
    if (!opened) {
      if (connections.get(connectionId) === held) connections.delete(connectionId);
      await deleteClient(connectionId, 'upstream refused');
      return;
    }
    upstream.on('message', onUpstreamMessage(held));
    upstream.on('close', onUpstreamClose(held));
    logger.info('relay upstream open', { connection_id: connectionId, held: connections.size });
  };

  const handle = async (message: RelayMessage): Promise<void> => {
    const held = connections.get(message.connection_id);
    switch (message.type) {
      case 'open':
        await open(message.connection_id);
        return;
      case 'frame':
        if (held === undefined) {
          await deleteClient(message.connection_id, 'not held by this relay');
          return;
        }
        if (held.upstream.readyState === WebSocket.OPEN) held.upstream.send(Buffer.from(message.data, 'base64'), { binary: false });
        return;
      case 'close':
        if (held === undefined) {
          if (message.close_client === true) await deleteClient(message.connection_id, `refused ${message.code ?? 1000}`);
          return;
        }
        // `$disconnect`: the browser is gone already; a refusal by the Lambda: the upstream's close deletes the browser's side.
        if (message.close_client !== true) held.clientGone = true;
        closeUpstream(held, message.code ?? 1000, message.reason ?? '');
        return;
    }
  };

  /** Handles one connection's messages in order, then deletes them. */
  const handleGroup = async (messages: readonly ReceivedMessage[]): Promise<void> => {
    for (const received of messages) {
      const message = parseRelayMessage(received.body);
      if (message === undefined) {
        logger.warn('relay dropped a malformed message', { message_id: received.messageId });
        continue;
      }
      try {
        await handle(message);
      } catch (error) {
        logger.error('relay failed a message', { connection_id: message.connection_id, type: message.type, error: errorText(error) });
        const held = connections.get(message.connection_id);
        if (held === undefined) await deleteClient(message.connection_id, 'relay error');
        else closeUpstream(held, 1011, 'relay error');
      }
    }
    const failed = await ports.queue.deleteBatch(messages.map((message) => message.receiptHandle));
    if (failed.length > 0) logger.warn('relay could not delete handled messages', { count: failed.length });
  };

  function track(work: Promise<void>): void {
    const settled = work.catch((error: unknown) => logger.error('relay work failed', { error: errorText(error) }));
    working.add(settled);
    void settled.finally(() => working.delete(settled));
  }

  /** Groups a batch by connection, keeping each group's order. */
  const groupsOf = (batch: readonly ReceivedMessage[]): ReceivedMessage[][] => {
    const groups = new Map<string, ReceivedMessage[]>();
    for (const message of batch) {
      const key = message.groupId ?? message.messageId;
      groups.set(key, [...(groups.get(key) ?? []), message]);
    }
    return [...groups.values()];
  };

  const receiveLoop = async (): Promise<void> => {
    let failures = 0;
    while (!stopping) {
      const room = limits.maxInFlightMessages - inFlight;
      if (room <= 0) {
        await new Promise<void>((resolve) => {
          capacity = resolve;
        });
        continue;
      }
      let batch: ReceivedMessage[];
      try {
        batch = await ports.queue.receive(Math.min(10, room), limits.receiveWaitSeconds);
        failures = 0;
      } catch (error) {
        failures += 1;
        logger.error('relay could not receive', { error: errorText(error), failures });
        await sleep(Math.min(30_000, 250 * 2 ** Math.min(failures, 7)));
        continue;
      }
      if (stopping) {
        // Received while stopping: visible again at once, for the next relay.
        await Promise.allSettled(batch.map((message) => ports.queue.changeVisibility(message.receiptHandle, 0)));
        break;
      }
      for (const group of groupsOf(batch)) {
        inFlight += group.length;
        track(
          handleGroup(group).finally(() => {
            inFlight -= group.length;
            capacity?.();
            capacity = undefined;
          }),
        );
      }
    }
  };

  const sweep = () => {
    const now = Date.now();
    for (const held of connections.values()) {
      if (now - held.openedAt >= limits.connectionLifetimeMs) closeUpstream(held, 1001, 'connection lifetime reached');
    }
  };

  return {
    start() {
      if (loop !== undefined) return;
      sweeper = setInterval(sweep, 60_000);
      sweeper.unref();
      loop = receiveLoop().catch((error: unknown) => logger.error('relay receive loop ended', { error: errorText(error) }));
    },
    async stop() {
      stopping = true;
      clearInterval(sweeper);
      capacity?.();
      const deadline = Date.now() + limits.shutdownTimeoutMs;
      await within(loop ?? Promise.resolve(), limits.receiveWaitSeconds * 1000 + 1000);
      await within(Promise.allSettled([...working]), deadline - Date.now());
      logger.info('relay stopping', { held: connections.size });
      const holding = [...connections.values()];
      const closed = holding.map((held) => new Promise<void>((resolve) => held.upstream.once('close', () => resolve())));
      for (const held of holding) closeUpstream(held, 1001, 'relay shutting down');
      await within(Promise.all(closed), deadline - Date.now());
      // An upstream that did not answer its close in time is cut: its close event still deletes the browser's side.
      for (const held of holding) if (held.upstream.readyState !== WebSocket.CLOSED) held.upstream.terminate();
      await within(Promise.all(closed), 1_000);
      await within(Promise.allSettled([...working]), Math.max(1_000, deadline - Date.now()));
    },
    held: () => [...connections.keys()],
  };
}
