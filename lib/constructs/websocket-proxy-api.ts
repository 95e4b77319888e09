import { CfnOutput, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { LogGroupLogDestination, WebSocketApi, WebSocketStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { logRetentionFor, removalPolicyFor, type StageName } from '#lib/config/stages';
import { GroupFunction } from './group-function';

/** The session proxy's settings (context `sessionProxy`): the identity provider and the upstream. */
export interface SessionProxySettings {
  readonly idpIssuer?: string;
  readonly idpAudience?: string;
  readonly idpJwksUrl?: string;
  readonly upstreamUrl?: string;
  /** The relay's shards on AWS (lib/constructs/websocket-relay.ts). @default 1 */
  readonly relayShards?: number;
  /** Upstream sockets one relay task holds. @default 1000 */
  readonly relayMaxConnections?: number;
}

export interface WebSocketProxyApiProps {
  /** @default - none; required */
  readonly stage: StageName;
  /** @default - none; required */
  readonly table: ITable;
  /** Seals the upstream token on each connection's item. @default - none; required */
  readonly secretsKey: IKey;
  /** @default - none: the routes answer 503 service_unavailable until configured */
  readonly settings?: SessionProxySettings;
}

/** The session proxy's environment on a function (unset settings stay unset: the routes answer 503). */
export function sessionProxyEnvironment(settings: SessionProxySettings | undefined): Record<string, string> {
  const variables: Record<string, string | undefined> = {
    IDP_ISSUER: settings?.idpIssuer,
    IDP_AUDIENCE: settings?.idpAudience,
    IDP_JWKS_URL: settings?.idpJwksUrl,
    WS_UPSTREAM_URL: settings?.upstreamUrl,
  };
  return Object.fromEntries(Object.entries(variables).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/**
 * The session proxy's WebSocket API on AWS (API Gateway WebSocket API; docs/session-proxy.md):
 * `$connect` authenticates the one-time ticket (or the session cookie), records the connection in
 * the main table and tells the relay to open the upstream; `$default` passes each frame to the
 * relay; `$disconnect` deletes the connection and tells the relay to close. One function serves
 * the three routes with read-write table access (tickets are spent, connections written), KMS
 * Encrypt/Decrypt, and `sqs:SendMessage` on the relay's queue (granted by
 * lib/constructs/websocket-relay.ts); it never calls the management API (the relay does). API
 * Gateway's own limits apply: 2 h per connection, 10 min idle, 128 KB messages; the browser
 * reconnects with a fresh ticket.
 */
export class WebSocketProxyApi extends Construct {
  readonly api: WebSocketApi;
  readonly stage: WebSocketStage;
  readonly handler: GroupFunction;

  constructor(scope: Construct, id: string, props: WebSocketProxyApiProps) {
    super(scope, id);
    this.handler = new GroupFunction(this, 'Handler', {
      entry: 'functions/api/session-proxy/websocket-handler.ts',
      stage: props.stage,
      description: 'Session proxy WebSocket API: $connect, $disconnect, $default',
    });
    this.handler.bindTable(props.table, 'RW');
    this.handler.bindSecretsKey(props.secretsKey);
    for (const [name, value] of Object.entries(sessionProxyEnvironment(props.settings))) this.handler.function.addEnvironment(name, value);

    const integration = (name: string) => new WebSocketLambdaIntegration(name, this.handler.function);
    this.api = new WebSocketApi(this, 'Api', {
      apiName: `recovery-session-proxy-ws-${props.stage}`,
      description: 'Recovery service: session proxy WebSocket API',
      connectRouteOptions: { integration: integration('ConnectIntegration') },
      disconnectRouteOptions: { integration: integration('DisconnectIntegration') },
      // One-way: the browser hears the upstream, through the relay (lib/constructs/websocket-relay.ts), not the Lambda.
      defaultRouteOptions: { integration: integration('FrameIntegration') },
    });
    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: logRetentionFor(props.stage), removalPolicy: removalPolicyFor(props.stage) });
    this.stage = new WebSocketStage(this, 'Stage', {
      webSocketApi: this.api,
      stageName: props.stage,
      autoDeploy: true,
      throttle: { rateLimit: 100, burstLimit: 200 },
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            connectionId: '$context.connectionId',
            routeKey: '$context.routeKey',
            eventType: '$context.eventType',
            status: '$context.status',
            requestTime: '$context.requestTime',
          }),
        ),
      },
    });
    new CfnOutput(this, 'Url', { value: this.stage.url, description: 'wss:// URL of the session proxy WebSocket API (?database=<name>&ticket=<ticket>)' });
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        '$connect authenticates in its Lambda: the one-time ticket (or the session cookie), spent by a conditional delete, the same code as the local proxy.',
    });
  }
}
