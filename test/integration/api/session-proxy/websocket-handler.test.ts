/**
 * The WebSocket API's Lambda (AWS; functions/api/session-proxy/websocket-handler.ts), invoked with
 * API Gateway's WebSocket events against DynamoDB Local: `$connect` spends a ticket and records
 * the connection, refuses what the local upgrade refuses; `$disconnect` deletes it; `$default`
 * answers a frame with `not_implemented`.
 */
import { randomBytes } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { handler } from '#api/session-proxy/websocket-handler';
import { documentClient } from '#data/client';
import { browserSessionKeys } from '#data/keys';
import { issueWebsocketTicket, startBrowserSession } from '#services/browser-sessions';
import type { TestIdentityProvider } from '#test/fixtures/identity-provider';
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
    requestContext: { routeKey, connectionId, requestId: `req-${connectionId}`, eventType: routeKey === '$connect' ? 'CONNECT' : 'MESSAGE' },
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
  });

  afterAll(async () => {
    await peers?.close();
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

  it('deletes the connection on $disconnect and answers a frame on $default with not_implemented', async () => {
    // Prepare
    await handler(wsEvent('$connect', 'conn-5', { database: 'app_db', ticket: await newTicket('user_y') }));
    // Act
    const frame = await handler(wsEvent('$default', 'conn-5'));
    const gone = await handler(wsEvent('$disconnect', 'conn-5'));
    // Assess
    expect(frame.statusCode).toBe(200);
    expect(JSON.parse(frame.body).error.code).toBe('not_implemented');
    expect(gone.statusCode).toBe(200);
    expect(await connectionItem('conn-5')).toBeUndefined();
  });
});
