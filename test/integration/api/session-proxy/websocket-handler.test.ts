/**
 * The WebSocket API's Lambda (AWS; functions/api/session-proxy/websocket-handler.ts), invoked with
 * API Gateway's WebSocket events against DynamoDB Local and a loopback SQS FIFO queue: `$connect`
 * spends a ticket, records the connection and sends `open` to the relay, refuses what the local
 * upgrade refuses; `$default` sends each frame; `$disconnect` deletes the connection and sends
 * `close`. The relay itself: test/integration/relay/relay.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { relayQueue } from '#adapters/relay-queue';
import { handler } from '#api/session-proxy/websocket-handler';
import { shardOf } from '#core/relay-messages';
import { documentClient } from '#data/client';
import { browserSessionKeys } from '#data/keys';
import { issueWebsocketTicket, startBrowserSession } from '#services/browser-sessions';
import type { TestIdentityProvider } from '#test/fixtures/identity-provider';
import { type FakeFifoQueue, startFakeFifoQueue } from '#test/fixtures/relay-peers';
import { type SessionProxyPeers, startSessionProxyPeers } from '#test/fixtures/session-proxy';

jest.setTimeout(30_000);

const wsEvent = (
  routeKey: string,
  connectionId: string,
  query: Record<string, string> | null = null,
  headers: Record<string, string> = {},
): APIGatewayProxyEvent =>
  ({
    resource: '',
    path: '',
    httpMethod: 'GET',
    headers,
    multiValueHeaders: {},
    queryStringParameters: query,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body: routeKey === '$default' ? '{"op":"subscribe"}' : null,
    isBase64Encoded: false,
    requestContext: { routeKey, connectionId, requestId: `req-${routeKey}-${connectionId}`, eventType: routeKey === '$connect' ? 'CONNECT' : 'MESSAGE' },
  }) as unknown as APIGatewayProxyEvent;

const connectionItem = async (connectionId: string) =>
  (
    await documentClient.send(
      new GetCommand({ TableName: process.env.TABLE_NAME as string, Key: browserSessionKeys.connection(connectionId), ConsistentRead: true }),
    )
  ).Item;

describe('session proxy WebSocket handler (AWS)', () => {
  let idp: TestIdentityProvider;
  let peers: SessionProxyPeers;
  let queue: FakeFifoQueue;
  /** What was sent to the relay for a connection, in order. */
  const relayed = (connectionId: string) => queue.sent.filter((message) => message.groupId === connectionId).map((message) => JSON.parse(message.body));

  const newTicket = async (sub: string): Promise<string> => {
    const { sessionId, sessionHash, session } = await startBrowserSession(await idp.sign({ sub }), new Date());
    expect(sessionId).toBeDefined();
    return (await issueWebsocketTicket({ sessionHash, session }, new Date())).ticket;
  };

  beforeAll(async () => {
    ({ idp } = peers = await startSessionProxyPeers());
    process.env.SECRET_BOX_DRIVER = 'local';
    process.env.SECRET_BOX_KEY ??= randomBytes(32).toString('base64');
    process.env.WEBHOOK_ALLOW_LOOPBACK = 'true';
    queue = await startFakeFifoQueue();
    Object.assign(process.env, { RELAY_QUEUE_URL: queue.url, AWS_ACCESS_KEY_ID: 'AKIDWSHANDLER', AWS_SECRET_ACCESS_KEY: 'ws-handler-secret' });
  });

  afterAll(async () => {
    delete process.env.RELAY_QUEUE_URL;
    await Promise.all([peers?.close(), queue?.close()]);
  });

  it('accepts $connect with a ticket, records the connection with its upstream token sealed, and refuses the ticket a second time', async () => {
    // Prepare
    const ticket = await newTicket('user_aws');
    // Act
    const first = await handler(wsEvent('$connect', 'conn-1', { database: 'app_db', ticket }));
    const second = await handler(wsEvent('$connect', 'conn-2', { database: 'app_db', ticket }));
    // Assess
    expect(first.statusCode).toBe(200);
    const item = await connectionItem('conn-1');
    expect(item).toMatchObject({ database: 'app_db', subject: 'user_aws', issuer: idp.issuer });
    expect(JSON.stringify(item)).not.toContain('upstream-token');
    expect(Number(item?.expires_at) - Math.floor(Date.now() / 1000)).toBeGreaterThan(7_100);
    expect(second.statusCode).toBe(401);
    expect(JSON.parse(second.body).error).toMatchObject({ code: 'invalid_session', reason: 'invalid_ticket' });
    expect(await connectionItem('conn-2')).toBeUndefined();
    expect(relayed('conn-1')).toEqual([{ v: 1, type: 'open', connection_id: 'conn-1' }]);
    expect(relayed('conn-2')).toEqual([]);
  });

  it('refuses $connect without a credential (401) or with a database name that cannot exist (404)', async () => {
    // Act
    const anonymous = await handler(wsEvent('$connect', 'conn-3', { database: 'app_db' }));
    const badName = await handler(wsEvent('$connect', 'conn-4', { database: '../admin', ticket: await newTicket('user_x') }));
    // Assess
    expect(anonymous.statusCode).toBe(401);
    expect(JSON.parse(anonymous.body).error.reason).toBe('missing_cookie');
    expect(badName.statusCode).toBe(404);
    expect(JSON.parse(badName.body).error).toMatchObject({ code: 'resource_not_found', param: 'database' });
  });

  it('sends each frame to the relay (base64, in its connection’s group), then on $disconnect deletes the connection and sends close', async () => {
    // Prepare
    await handler(wsEvent('$connect', 'conn-5', { database: 'app_db', ticket: await newTicket('user_y') }));
    // Act
    const frame = await handler(wsEvent('$default', 'conn-5'));
    const gone = await handler({
      ...wsEvent('$disconnect', 'conn-5'),
      requestContext: { ...wsEvent('$disconnect', 'conn-5').requestContext, disconnectStatusCode: 1001, disconnectReason: 'Going away' },
    } as APIGatewayProxyEvent);
    // Assess
    expect(frame.statusCode).toBe(200);
    expect(gone.statusCode).toBe(200);
    expect(await connectionItem('conn-5')).toBeUndefined();
    expect(relayed('conn-5')).toEqual([
      { v: 1, type: 'open', connection_id: 'conn-5' },
      { v: 1, type: 'frame', connection_id: 'conn-5', data: Buffer.from('{"op":"subscribe"}').toString('base64') },
      { v: 1, type: 'close', connection_id: 'conn-5', code: 1001, reason: 'Going away' },
    ]);
    expect(new Set(queue.sent.filter((message) => message.groupId === 'conn-5').map((message) => message.deduplicationId)).size).toBe(3);
  });

  it('spreads connections over the relay’s shards, every message of a connection to its shard’s queue', async () => {
    // Prepare
    const second = await startFakeFifoQueue();
    process.env.RELAY_QUEUE_URL = `${queue.url},${second.url}`;
    const ids = Array.from({ length: 8 }, (_, index) => `shard-conn-${index}`);
    try {
      // Act
      for (const id of ids) {
        await handler(wsEvent('$connect', id, { database: 'app_db', ticket: await newTicket(`user_${id}`) }));
        await handler(wsEvent('$default', id));
      }
      // Assess
      for (const id of ids) {
        const [mine, other] = shardOf(id, 2) === 0 ? [queue, second] : [second, queue];
        expect(mine.sent.filter((message) => message.groupId === id).map((message) => JSON.parse(message.body).type)).toEqual(['open', 'frame']);
        expect(other.sent.some((message) => message.groupId === id)).toBe(false);
      }
      expect(new Set(ids.map((id) => shardOf(id, 2)))).toEqual(new Set([0, 1]));
      // A relay task reads exactly one queue.
      expect(() => relayQueue()).toThrow(/one queue/);
    } finally {
      process.env.RELAY_QUEUE_URL = queue.url;
      await second.close();
    }
  });

  it('refuses $connect with 503 and records nothing when the relay queue is not configured', async () => {
    // Prepare
    const ticket = await newTicket('user_no_relay');
    delete process.env.RELAY_QUEUE_URL;
    // Act
    const answer = await handler(wsEvent('$connect', 'conn-6', { database: 'app_db', ticket }));
    // Assess
    process.env.RELAY_QUEUE_URL = queue.url;
    expect(answer.statusCode).toBe(503);
    expect(JSON.parse(answer.body).error.code).toBe('service_unavailable');
    expect(await connectionItem('conn-6')).toBeUndefined();
  });
});
