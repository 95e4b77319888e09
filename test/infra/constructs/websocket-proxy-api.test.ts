import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { WebSocketProxyApi } from '#lib/constructs/websocket-proxy-api';
import { actionsOfRole, roleLogicalIdOf, synthService } from '#test/infra/synth-service';

/** The session proxy's WebSocket API: its routes, stage, grants and settings (docs/session-proxy.md). */
describe('WebSocketProxyApi', () => {
  const standalone = (settings?: ConstructorParameters<typeof WebSocketProxyApi>[2]['settings']) => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new Stack(app, 'Edge');
    const table = new Table(stack, 'Table', { partitionKey: { name: 'PK', type: AttributeType.STRING } });
    const construct = new WebSocketProxyApi(stack, 'SessionProxyWebSocket', {
      stage: 'dev',
      table,
      secretsKey: new Key(stack, 'Key'),
      ...(settings === undefined ? {} : { settings }),
    });
    return { construct, template: Template.fromStack(stack) };
  };

  it('synthesises a WebSocket API in the edge stack with $connect, $disconnect and $default on one function', () => {
    // Prepare
    const { service, template } = synthService();
    // Act
    const edge = template(service.apis.edge);
    // Assess
    edge.resourceCountIs('AWS::ApiGatewayV2::Api', 1);
    edge.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'WEBSOCKET' });
    const routeKeys = Object.values(edge.findResources('AWS::ApiGatewayV2::Route')).map((route) => route.Properties.RouteKey);
    expect(routeKeys.sort()).toEqual(['$connect', '$default', '$disconnect']);
    const integrations = Object.values(edge.findResources('AWS::ApiGatewayV2::Integration'));
    expect(new Set(integrations.map((integration) => JSON.stringify(integration.Properties.IntegrationUri))).size).toBe(1);
  });

  it('logs access and throttles its stage, and sends nothing back on $default (one-way: the relay answers)', () => {
    // Prepare
    const { template } = standalone();
    // Assess
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: 'dev',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 },
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('connectionId') },
    });
    const frameRoute = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).find((route) => route.Properties.RouteKey === '$default');
    expect(frameRoute?.Properties.RouteResponseSelectionExpression).toBeUndefined();
  });

  it('grants its function the table and KMS Encrypt/Decrypt only, never the connection management API', () => {
    // Prepare
    const { construct, template } = standalone();
    // Act
    const actions = actionsOfRole(template, roleLogicalIdOf(construct.handler));
    // Assess
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:DeleteItem', 'kms:Encrypt', 'kms:Decrypt']));
    expect(actions.filter((action) => action.startsWith('kms:')).sort()).toEqual(['kms:Decrypt', 'kms:Encrypt']);
    expect(actions.some((action) => action.startsWith('execute-api:'))).toBe(false);
  });

  it('passes the identity provider and upstream settings to its function, and leaves unset ones unset', () => {
    // Prepare
    const settings = { idpIssuer: 'https://idp.example/', idpAudience: 'app', idpJwksUrl: 'https://idp.example/jwks.json', upstreamUrl: 'https://db.example' };
    // Act
    const configured = standalone(settings).template;
    const bare = standalone().template;
    // Assess
    configured.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: {
          IDP_ISSUER: settings.idpIssuer,
          IDP_AUDIENCE: settings.idpAudience,
          IDP_JWKS_URL: settings.idpJwksUrl,
          WS_UPSTREAM_URL: settings.upstreamUrl,
          SECRET_BOX_DRIVER: 'kms',
        },
      },
    });
    const variables = Object.values(bare.findResources('AWS::Lambda::Function'))[0]?.Properties.Environment.Variables as Record<string, unknown>;
    expect(variables.IDP_JWKS_URL).toBeUndefined();
    expect(variables.WS_UPSTREAM_URL).toBeUndefined();
  });
});
