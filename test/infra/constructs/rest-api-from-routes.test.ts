import { Match } from 'aws-cdk-lib/assertions';
import { routes } from '#api/routes';
import { API_NAMES, type ApiName, servesApi } from '#api/route-types';
import { logicalIdOf, synthService } from '#test/infra/synth-service';

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation resource properties are free-form JSON
type Resources = Record<string, { Type: string; Properties: Record<string, any> }>;

/** Full path of every API Gateway resource of a template, by logical id ('' for the root). */
function resourcePaths(resources: Resources): Map<string, string> {
  const paths = new Map<string, string>();
  const pathOf = (logicalId: string): string => {
    const known = paths.get(logicalId);
    if (known !== undefined) return known;
    const { ParentId, PathPart } = resources[logicalId]!.Properties;
    const parent = ParentId.Ref === undefined ? '' : pathOf(ParentId.Ref);
    const full = `${parent}/${PathPart}`;
    paths.set(logicalId, full);
    return full;
  };
  for (const logicalId of Object.keys(resources)) pathOf(logicalId);
  return paths;
}

/** `METHOD /path` → the logical id of the function its integration invokes. */
function methodsOf(apiName: ApiName): Map<string, string> {
  const { service, template } = synthService();
  const t = template(service.apis[apiName]);
  const paths = resourcePaths(t.findResources('AWS::ApiGateway::Resource') as Resources);
  const methods = new Map<string, string>();
  for (const method of Object.values(t.findResources('AWS::ApiGateway::Method') as Resources)) {
    const { HttpMethod, ResourceId, Integration } = method.Properties;
    const path = ResourceId.Ref === undefined ? '/' : paths.get(ResourceId.Ref);
    const target = JSON.stringify(Integration.Uri).match(/"Fn::GetAtt":\["([A-Za-z0-9]+)","Arn"\]/);
    methods.set(`${HttpMethod} ${path}`, target?.[1] ?? 'no function');
  }
  return methods;
}

describe('RestApiFromRoutes', () => {
  describe.each(API_NAMES)('the %s API', (apiName) => {
    it("answers API Gateway's own errors in the error envelope, unknown routes with 404", () => {
      // Prepare
      const { service, template } = synthService();
      // Act
      const responses = Object.values(template(service.apis[apiName]).findResources('AWS::ApiGateway::GatewayResponse') as Resources).map((r) => r.Properties);
      const byType = new Map(responses.map((r) => [r.ResponseType as string, r]));
      // Assess
      expect([...byType.keys()].sort()).toEqual(['DEFAULT_4XX', 'DEFAULT_5XX', 'MISSING_AUTHENTICATION_TOKEN', 'THROTTLED']);
      expect(byType.get('MISSING_AUTHENTICATION_TOKEN')?.StatusCode).toBe('404');
      expect(byType.get('THROTTLED')?.StatusCode).toBe('429');
      for (const response of responses) {
        const body = (response.ResponseTemplates as Record<string, string>)['application/json'] as string;
        // The templates are JSON once API Gateway substitutes its variables.
        const filled = body.replace('$context.error.messageString', '"Forbidden"').replace(/\$context\.[A-Za-z]+/g, 'x');
        expect(JSON.parse(filled)).toEqual({ error: expect.objectContaining({ code: expect.any(String), message: expect.any(String), request_id: 'x' }) });
      }
    });

    it('creates exactly one method per route row it serves when synthesised', () => {
      // Prepare
      const rows = routes.filter((row) => servesApi(row, apiName));

      // Act
      const methods = methodsOf(apiName);

      // Assess
      expect([...methods.keys()].sort()).toEqual(rows.map((row) => `${row.method} ${row.path}`).sort());
    });

    it("integrates every row with its own group's function when synthesised", () => {
      // Prepare
      const { service } = synthService();
      const restApi = service.apis[apiName].restApi;
      const rows = routes.filter((row) => servesApi(row, apiName));

      // Act
      const methods = methodsOf(apiName);

      // Assess
      for (const row of rows) {
        expect({ route: `${row.method} ${row.path}`, fn: methods.get(`${row.method} ${row.path}`) }).toEqual({
          route: `${row.method} ${row.path}`,
          fn: logicalIdOf(restApi.functionForGroup(row.group)),
        });
      }
    });

    it('answers GET /health with its own small function when synthesised', () => {
      // Prepare
      const { service, template } = synthService();
      const health = service.apis[apiName].restApi.functionForGroup('health');

      // Act
      const methods = methodsOf(apiName);

      // Assess
      expect(methods.get('GET /health')).toBe(logicalIdOf(health));
      template(service.apis[apiName]).hasResourceProperties('AWS::Lambda::Function', {
        Description: Match.stringLikeRegexp('group health'),
        MemorySize: 128,
      });
    });

    it('creates one function and one Lambda permission per group when synthesised', () => {
      // Prepare
      const { service, template } = synthService();
      const groups = new Set(routes.filter((row) => servesApi(row, apiName)).map((row) => row.group));

      // Act
      const t = template(service.apis[apiName]);

      // Assess
      expect(service.apis[apiName].restApi.groups).toEqual([...groups]);
      // The edge stack also holds the session proxy's WebSocket API: one function, one permission per route ($connect, $disconnect, $default).
      const webSocket = apiName === 'edge' ? { functions: 1, permissions: 3 } : { functions: 0, permissions: 0 };
      t.resourceCountIs('AWS::Lambda::Function', groups.size + webSocket.functions);
      t.resourceCountIs('AWS::Lambda::Permission', groups.size + webSocket.permissions);
    });

    it('logs access as JSON and traces, throttles and measures the stage when synthesised', () => {
      // Prepare
      const { service, template } = synthService();

      // Act
      const t = template(service.apis[apiName]);

      // Assess
      const stage = Object.values(t.findResources('AWS::ApiGateway::Stage') as Resources)[0]!.Properties;
      expect(() => JSON.parse(stage.AccessLogSetting.Format)).not.toThrow();
      expect(stage.TracingEnabled).toBe(true);
      expect(stage.MethodSettings).toEqual([
        expect.objectContaining({
          HttpMethod: '*',
          ResourcePath: '/*',
          MetricsEnabled: true,
          ThrottlingRateLimit: expect.any(Number),
          ThrottlingBurstLimit: expect.any(Number),
        }),
      ]);
    });
  });

  it('throws when asked for a group the API does not serve', () => {
    // Prepare
    const { service } = synthService();

    // Act
    const lookup = () => service.apis.edge.restApi.functionForGroup('payments');

    // Assess
    expect(lookup).toThrow('Group "payments" is not served by this API');
  });
});
