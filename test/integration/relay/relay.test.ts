/**
 * The session proxy's relay on AWS (functions/relay/), end to end on loopback: the WebSocket API's
 * Lambda invoked with API Gateway's WebSocket events (`$connect` with a real ticket, `$default`
 * frames, `$disconnect`), the relay running in-process with its real adapters, against an SQS
 * FIFO fake and a connection management fake speaking the real protocols, DynamoDB Local and a
 * loopback upstream.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { WebSocket } from 'ws';
import { sqsFifoQueue } from '#adapters/aws/sqs-json';
import { apiGatewayConnections } from '#adapters/aws/websocket-connections';
import { relayQueue } from '#adapters/relay-queue';
import { handler } from '#api/session-proxy/websocket-handler';
import { MAX_WEBSOCKET_MESSAGE_BYTES } from '#core/browser-sessions';
import { shardOf } from '#core/relay-messages';
import { createRelay, type Relay } from '#relay/relay';
import { connectionUpstream } from '#relay/upstream';
import { issueWebsocketTicket, startBrowserSession, upstreamOfConnection } from '#services/browser-sessions';
import { eventually, type FakeConnectionManagement, type FakeFifoQueue, startFakeConnectionManagement, startFakeFifoQueue } from '#test/fixtures/relay-peers';
import { type SessionProxyPeers, startSessionProxyPeers } from '#test/fixtures/session-proxy';

jest.setTimeout(60_000);

const event = (routeKey: string, connectionId: string, extra: { query?: Record<string, string>; body?: string; context?: object } = {}): APIGatewayProxyEvent =>
  ({
    headers: {},
    multiValueHeaders: {},
    queryStringParameters: extra.query ?? null,
    body: extra.body ?? null,
    isBase64Encoded: false,
    requestContext: {
      routeKey,
      connectionId,
      requestId: randomUUID(),
      eventType: routeKey === '$default' ? 'MESSAGE' : routeKey.slice(1).toUpperCase(),
      ...extra.context,
    },
  }) as unknown as APIGatewayProxyEvent;

/** A connection id shaped as API Gateway's (base64 with `=`, so the management path is escaped). */
const newConnectionId = () => `${randomBytes(10).toString('base64').replace(/\//g, '_')}=`.slice(0, 15);

describe('session proxy relay (AWS)', () => {
  let peers: SessionProxyPeers;
  let queue: FakeFifoQueue;
  let management: FakeConnectionManagement;
  let relay: Relay | undefined;

  const startRelay = (limits: Parameters<typeof createRelay>[1] = {}): Relay => {
    relay = createRelay(
      { queue: relayQueue(), connections: apiGatewayConnections(management.endpoint, { region: 'us-east-1' }), upstreamOf: connectionUpstream },
      { receiveWaitSeconds: 1, shutdownTimeoutMs: 5_000, ...limits },
    );
    relay.start();
    return relay;
  };

  const connect = async (sub: string, connectionId = newConnectionId()): Promise<string> => {
    const { sessionHash, session } = await startBrowserSession(await peers.idp.sign({ sub }), new Date());
    const { ticket } = await issueWebsocketTicket({ sessionHash, session }, new Date());
    const answer = await handler(event('$connect', connectionId, { query: { database: 'app_db', ticket } }));
    expect(answer.statusCode).toBe(200);
    return connectionId;
  };
  const send = (connectionId: string, body: string) => handler(event('$default', connectionId, { body }));
  /** The upstream's side of the socket the relay opened for `subject` (the latest one). */
  const upstreamSocketOf = (subject: string): WebSocket | undefined =>
    peers.upstream.connections.filter((connection) => connection.subject === subject).at(-1)?.socket;
  const closeCodeOf = (socket: WebSocket): Promise<number> => new Promise((resolve) => socket.once('close', (code) => resolve(code)));

  beforeAll(async () => {
    peers = await startSessionProxyPeers();
    [queue, management] = await Promise.all([startFakeFifoQueue({ visibilityTimeoutSeconds: 5 }), startFakeConnectionManagement('dev')]);
    Object.assign(process.env, {
      SECRET_BOX_DRIVER: 'local',
      SECRET_BOX_KEY: process.env.SECRET_BOX_KEY ?? randomBytes(32).toString('base64'),
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      RELAY_QUEUE_URL: queue.url,
      AWS_ACCESS_KEY_ID: 'AKIDRELAYTEST',
      AWS_SECRET_ACCESS_KEY: 'relay-test-secret',
    });
  });

  afterEach(async () => {
    await relay?.stop();
    relay = undefined;
  });

  afterAll(async () => {
    await Promise.all([peers?.close(), queue?.close(), management?.close()]);
  });

  it('relays frames to the upstream in order, and the upstream’s messages to the right connection through PostToConnection', async () => {
    // Prepare
    startRelay();
    const first = await connect('user_order_1');
    const second = await connect('user_order_2');
    // Act
    for (let index = 0; index < 12; index += 1) {
      await send(first, `a${index}`);
      if (index % 3 === 0) await send(second, `b${index}`);
    }
    // Assess
    await eventually(() => management.postsTo(first).length === 12 && management.postsTo(second).length === 4, 20_000, 'the echoes');
    expect(management.postsTo(first)).toEqual(Array.from({ length: 12 }, (_, index) => `echo:a${index}`));
    expect(management.postsTo(second)).toEqual(['echo:b0', 'echo:b3', 'echo:b6', 'echo:b9']);
    expect(peers.upstream.connections.filter((connection) => connection.subject.startsWith('user_order_')).map((connection) => connection.database)).toEqual([
      'app_db',
      'app_db',
    ]);
    expect(relay?.held()).toEqual(expect.arrayContaining([first, second]));
    // One message group per connection; the upstream token never travels through the queue.
    expect(new Set(queue.sent.filter((message) => message.groupId === first).map((message) => JSON.parse(message.body).type))).toEqual(
      new Set(['open', 'frame']),
    );
    expect(queue.sent.some((message) => message.body.includes('upstream-token'))).toBe(false);
  });

  it('sends a message API Gateway delivered twice (the same request id) to the upstream once', async () => {
    // Prepare
    startRelay();
    const connectionId = await connect('user_dedupe');
    const twice = event('$default', connectionId, { body: 'once' });
    // Act
    await handler(twice);
    await handler(twice);
    await send(connectionId, 'after');
    // Assess
    await eventually(() => management.postsTo(connectionId).length >= 2, 10_000, 'the echoes');
    expect(management.postsTo(connectionId)).toEqual(['echo:once', 'echo:after']);
    expect(queue.sent.filter((message) => message.groupId === connectionId && message.duplicate)).toHaveLength(1);
  });

  it('retries a post answered 410 just after the open (API Gateway finishing $connect), then delivers it', async () => {
    // Prepare
    startRelay();
    const connectionId = await connect('user_grace');
    management.goneForPosts(connectionId, 2);
    // Act
    await send(connectionId, 'early');
    // Assess
    await eventually(() => management.postsTo(connectionId).length === 1, 10_000, 'the echo');
    expect(management.postsTo(connectionId)).toEqual(['echo:early']);
    expect(relay?.held()).toContain(connectionId);
  });

  it('deletes the browser’s connection when the upstream closes, after what the upstream sent first', async () => {
    // Prepare
    startRelay();
    const connectionId = await connect('user_upstream_close');
    await send(connectionId, 'hello');
    await eventually(() => management.postsTo(connectionId).length === 1, 10_000, 'the echo');
    // Act
    await send(connectionId, 'close:4001');
    // Assess
    await eventually(() => management.deletes(connectionId) === 1, 10_000, 'the DeleteConnection');
    expect(relay?.held()).not.toContain(connectionId);
    const calls = management.calls.filter((call) => call.connectionId === connectionId).map((call) => call.method);
    expect(calls).toEqual(['POST', 'DELETE']);
  });

  it('closes the upstream (1001) when PostToConnection answers 410 Gone: the browser left', async () => {
    // Prepare
    startRelay({ goneGraceMs: 0 });
    const connectionId = await connect('user_gone');
    await eventually(() => upstreamSocketOf('user_gone') !== undefined, 10_000, 'the upstream socket');
    const upstreamClosed = closeCodeOf(upstreamSocketOf('user_gone') as WebSocket);
    management.markGone(connectionId);
    // Act
    await send(connectionId, 'anyone there?');
    // Assess
    expect(await upstreamClosed).toBe(1001);
    await eventually(() => !(relay?.held() ?? []).includes(connectionId), 5_000, 'the connection released');
    expect(management.deletes(connectionId)).toBe(0);
  });

  it('closes the upstream with the browser’s code on $disconnect, and deletes the connection item', async () => {
    // Prepare
    startRelay();
    const connectionId = await connect('user_leaves');
    await eventually(() => upstreamSocketOf('user_leaves') !== undefined, 10_000, 'the upstream socket');
    const upstreamClosed = closeCodeOf(upstreamSocketOf('user_leaves') as WebSocket);
    // Act
    const answer = await handler(event('$disconnect', connectionId, { context: { disconnectStatusCode: 4002, disconnectReason: 'tab closed' } }));
    // Assess
    expect(answer.statusCode).toBe(200);
    expect(await upstreamOfConnection(connectionId, new Date())).toBeUndefined();
    expect(await upstreamClosed).toBe(4002);
    await eventually(() => !(relay?.held() ?? []).includes(connectionId), 5_000, 'the connection released');
    expect(management.deletes(connectionId)).toBe(0);
  });

  it('refuses a message over 128 KB from the browser (closing both sides with 1009) and from the upstream', async () => {
    // Prepare
    startRelay();
    const fromBrowser = await connect('user_big_in');
    const fromUpstream = await connect('user_big_out');
    await eventually(() => upstreamSocketOf('user_big_in') !== undefined, 10_000, 'the upstream socket');
    const upstreamClosed = closeCodeOf(upstreamSocketOf('user_big_in') as WebSocket);
    // Act
    const refused = await send(fromBrowser, 'x'.repeat(MAX_WEBSOCKET_MESSAGE_BYTES + 1));
    await send(fromUpstream, `send:${MAX_WEBSOCKET_MESSAGE_BYTES + 1}`);
    // Assess
    expect(refused.statusCode).toBe(400);
    expect(JSON.parse(refused.body).error).toMatchObject({ code: 'invalid_request', param: 'body' });
    expect(await upstreamClosed).toBe(1009);
    await eventually(() => management.deletes(fromBrowser) === 1 && management.deletes(fromUpstream) === 1, 10_000, 'both connections deleted');
    expect(management.postsTo(fromUpstream)).toEqual([]);
    // A message of exactly 128 KB still passes.
    const exact = await connect('user_exact');
    await send(exact, `send:${MAX_WEBSOCKET_MESSAGE_BYTES}`);
    await eventually(() => management.postsTo(exact).length === 1, 10_000, 'the 128 KB message');
    expect(management.postsTo(exact)[0]).toHaveLength(MAX_WEBSOCKET_MESSAGE_BYTES);
  });

  it('closes both sides (1003) when the upstream sends binary, which API Gateway cannot carry', async () => {
    // Prepare
    startRelay();
    const connectionId = await connect('user_binary');
    await eventually(() => upstreamSocketOf('user_binary') !== undefined, 10_000, 'the upstream socket');
    const upstreamClosed = closeCodeOf(upstreamSocketOf('user_binary') as WebSocket);
    // Act
    await send(connectionId, 'sendbinary:16');
    // Assess
    expect(await upstreamClosed).toBe(1003);
    await eventually(() => management.deletes(connectionId) === 1, 10_000, 'the DeleteConnection');
    expect(management.postsTo(connectionId)).toEqual([]);
  });

  it('after a restart, closes the browser’s connection when a frame comes for a connection it does not hold', async () => {
    // Prepare: a relay took the connection's `open` off the queue and died holding it.
    const connectionId = await connect('user_restart');
    const taken: string[] = [];
    for (let attempt = 0; attempt < 5 && !taken.includes(connectionId); attempt += 1) {
      const batch = await relayQueue().receive(10, 1);
      await relayQueue().deleteBatch(batch.map((message) => message.receiptHandle));
      taken.push(...batch.map((message) => message.groupId ?? ''));
    }
    expect(taken).toContain(connectionId);
    const upstreamsBefore = peers.upstream.connections.length;
    startRelay();
    // Act
    await send(connectionId, 'still there?');
    // Assess
    await eventually(() => management.deletes(connectionId) === 1, 10_000, 'the DeleteConnection');
    expect(relay?.held()).not.toContain(connectionId);
    expect(peers.upstream.connections.length).toBe(upstreamsBefore);
    expect(management.postsTo(connectionId)).toEqual([]);
  });

  it('on shutdown closes every upstream with 1001 and deletes its browser connection, so the browser reconnects', async () => {
    // Prepare
    const stopping = startRelay();
    const connectionId = await connect('user_shutdown');
    await eventually(() => upstreamSocketOf('user_shutdown') !== undefined && stopping.held().includes(connectionId), 10_000, 'the upstream socket');
    const upstreamClosed = closeCodeOf(upstreamSocketOf('user_shutdown') as WebSocket);
    // Act
    await stopping.stop();
    relay = undefined;
    // Assess
    expect(await upstreamClosed).toBe(1001);
    expect(management.deletes(connectionId)).toBe(1);
    expect(stopping.held()).toEqual([]);
  });

  it('keeps the upstream’s order through a slow management API with only 4 posts allowed to wait', async () => {
    // Prepare
    const slow = await startFakeConnectionManagement('dev', { postDelayMs: 15 });
    relay = createRelay(
      { queue: relayQueue(), connections: apiGatewayConnections(slow.endpoint, { region: 'us-east-1' }), upstreamOf: connectionUpstream },
      { receiveWaitSeconds: 1, shutdownTimeoutMs: 5_000, maxPendingPosts: 4 },
    );
    relay.start();
    try {
      const connectionId = await connect('user_burst');
      // Act
      await send(connectionId, 'burst:40');
      // Assess
      await eventually(() => slow.postsTo(connectionId).length === 40, 20_000, 'the burst');
      expect(slow.postsTo(connectionId)).toEqual(Array.from({ length: 40 }, (_, index) => `burst-${index}`));
    } finally {
      await relay.stop();
      relay = undefined;
      await slow.close();
    }
  });

  it('drops a message that is not a relay message (deleting it, not retrying it) and goes on', async () => {
    // Prepare
    startRelay();
    const connectionId = await connect('user_malformed');
    await relayQueue().send('{"v":9,"type":"frame"}', connectionId, `bad-${randomUUID()}`);
    // Act
    await send(connectionId, 'after the bad one');
    // Assess
    await eventually(() => management.postsTo(connectionId).length === 1, 10_000, 'the echo');
    expect(management.postsTo(connectionId)).toEqual(['echo:after the bad one']);
    await eventually(() => queue.pending() === 0, 5_000, 'the queue drained');
  });

  it('with two shards, each relay holds exactly the connections hashed to its queue and relays them', async () => {
    // Prepare
    const secondQueue = await startFakeFifoQueue({ visibilityTimeoutSeconds: 5 });
    const relayOf = (url: string) =>
      createRelay(
        {
          queue: sqsFifoQueue(url, { region: 'us-east-1' }),
          connections: apiGatewayConnections(management.endpoint, { region: 'us-east-1' }),
          upstreamOf: connectionUpstream,
        },
        { receiveWaitSeconds: 1, shutdownTimeoutMs: 5_000 },
      );
    const shards = [relayOf(queue.url), relayOf(secondQueue.url)];
    process.env.RELAY_QUEUE_URL = `${queue.url},${secondQueue.url}`;
    for (const shard of shards) shard.start();
    try {
      // Three connections on each shard.
      const candidates = Array.from({ length: 64 }, newConnectionId);
      const chosen = [0, 1].flatMap((shard) => candidates.filter((id) => shardOf(id, 2) === shard).slice(0, 3));
      const ids: string[] = [];
      for (const [index, id] of chosen.entries()) ids.push(await connect(`user_shard_${index}`, id));
      expect(ids).toHaveLength(6);
      // Act
      for (const id of ids) await send(id, `hello ${id}`);
      // Assess
      await eventually(() => ids.every((id) => management.postsTo(id).length === 1), 20_000, 'every echo');
      for (const id of ids) {
        expect(management.postsTo(id)).toEqual([`echo:hello ${id}`]);
        expect(shards[shardOf(id, 2)]?.held()).toContain(id);
        expect(shards[1 - shardOf(id, 2)]?.held()).not.toContain(id);
      }
    } finally {
      process.env.RELAY_QUEUE_URL = queue.url;
      await Promise.all(shards.map((shard) => shard.stop()));
      await secondQueue.close();
    }
  });

  it('closes the browser’s connection when the upstream refuses the socket', async () => {
    // Prepare: the upstream answers 401 on this path.
    const connectionId = await connect('user_refused');
    process.env.WS_UPSTREAM_URL = `${peers.upstream.url}/elsewhere`;
    try {
      // Act
      startRelay();
      // Assess
      await eventually(() => management.deletes(connectionId) === 1, 10_000, 'the DeleteConnection');
      expect(relay?.held()).not.toContain(connectionId);
      expect(peers.upstream.connections.some((connection) => connection.subject === 'user_refused')).toBe(false);
    } finally {
      peers.upstream.configure();
    }
  });

  it('refuses an open beyond its connection limit by closing the browser’s connection', async () => {
    // Prepare
    startRelay({ maxConnections: 1 });
    const admitted = await connect('user_limit_1');
    await eventually(() => (relay?.held() ?? []).includes(admitted), 10_000, 'the first connection');
    // Act
    const refused = await connect('user_limit_2');
    // Assess
    await eventually(() => management.deletes(refused) === 1, 10_000, 'the refused connection deleted');
    expect(relay?.held()).toEqual([admitted]);
    expect(peers.upstream.connections.some((connection) => connection.subject === 'user_limit_2')).toBe(false);
  });
});
