import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { routes } from '#api/routes';
import { API_NAMES, servesApi } from '#api/route-types';
import { queueDefinitions } from '#contracts/queues';
import { scheduleDefinitions } from '#contracts/schedules';
import { GroupFunction } from '#lib/constructs/group-function';
import { actionsOfRole, policyStatementsOfRole, roleLogicalIdOf, synthService } from '#test/infra/synth-service';

const WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

/** Every API group function, with whether all of its rows are GET. */
function apiGroups() {
  const { service } = synthService();
  return API_NAMES.flatMap((apiName) => {
    const restApi = service.apis[apiName].restApi;
    return restApi.groups.map((group) => ({
      group,
      stack: service.apis[apiName],
      fn: restApi.functionForGroup(group),
      readOnly: routes.filter((row) => row.group === group && servesApi(row, apiName)).every((row) => row.method === 'GET'),
    }));
  });
}

describe('GroupFunction', () => {
  it('applies the Lambda defaults to every function when synthesised', () => {
    // Prepare
    const { stacks, template } = synthService();

    // Act
    const functions = stacks.flatMap((stack) => Object.values(template(stack).findResources('AWS::Lambda::Function')));

    // Assess
    // One per group, queue and schedule, the consumer of SES's events (lib/constructs/email-sending.ts),
    // the table-stream consumer (lib/constructs/table-stream-consumer.ts) and the outbound-event
    // dispatcher on the same stream (lib/constructs/outbound-dispatch-consumer.ts), and the
    // auto-embedding consumer (lib/constructs/embed-recoveries-consumer.ts), and the session proxy's
    // WebSocket API (lib/constructs/websocket-proxy-api.ts).
    expect(functions).toHaveLength(apiGroups().length + queueDefinitions.length + scheduleDefinitions.length + 5);
    for (const { Properties: fn } of functions) {
      expect(fn).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        TracingConfig: { Mode: 'Active' },
        LoggingConfig: { LogFormat: 'JSON', LogGroup: { Ref: expect.any(String) } },
        MemorySize: expect.any(Number),
        Timeout: expect.any(Number),
        Environment: {
          Variables: expect.objectContaining({
            NODE_OPTIONS: '--enable-source-maps',
            STAGE: 'dev',
            SERVICE_VERSION: expect.any(String),
            TABLE_NAME: expect.anything(),
          }),
        },
      });
    }
  });

  it('gives every log group a retention period when synthesised', () => {
    // Prepare
    const { stacks, template } = synthService();

    // Act
    const logGroups = stacks.flatMap((stack) => Object.values(template(stack).findResources('AWS::Logs::LogGroup')));

    // Assess
    expect(logGroups.length).toBeGreaterThan(apiGroups().length);
    for (const logGroup of logGroups) expect(logGroup.Properties.RetentionInDays).toEqual(expect.any(Number));
  });

  it('grants no data write when a group serves only GET rows, beyond counting in rate-limit windows', () => {
    // Prepare
    const { template } = synthService();
    const readOnly = apiGroups().filter((entry) => entry.readOnly);
    const isRateLimitGrant = (statement: Record<string, unknown>): boolean =>
      JSON.stringify(statement.Action) === '"dynamodb:UpdateItem"' &&
      JSON.stringify(statement.Condition) === JSON.stringify({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RL#*'] } });

    // Act
    const granted = readOnly.map((entry) => ({ group: entry.group, statements: policyStatementsOfRole(template(entry.stack), roleLogicalIdOf(entry.fn)) }));

    // Assess
    expect(readOnly.filter((entry) => entry.group === 'health')).toHaveLength(API_NAMES.length);
    for (const { group, statements } of granted) {
      const writes = statements.filter((statement) => !isRateLimitGrant(statement)).flatMap((statement) => [statement.Action].flat() as string[]);
      expect({ group, writes: writes.filter((action) => WRITE_ACTIONS.includes(action)) }).toEqual({ group, writes: [] });
      expect(statements.flatMap((statement) => [statement.Action].flat())).toContain('dynamodb:GetItem');
      const keyed = routes.some((row) => row.group === group && (row.auth === 'api_key' || row.auth === 'optional_api_key'));
      expect({ group, countsRequests: statements.some(isRateLimitGrant) }).toEqual({ group, countsRequests: keyed });
    }
  });

  it('lets every API function read the cursor signing secret, and no other secret unless it serves a cron-secret route', () => {
    // Prepare
    const { template } = synthService();
    // Act
    const grants = apiGroups().map((entry) =>
      policyStatementsOfRole(template(entry.stack), roleLogicalIdOf(entry.fn)).filter((statement) =>
        JSON.stringify(statement.Action).includes('secretsmanager'),
      ),
    );
    // Assess
    for (const statements of grants) {
      expect(statements).toHaveLength(1);
      expect([statements[0]?.Action].flat().sort()).toEqual(['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue']);
      expect(JSON.stringify(statements[0]?.Resource)).toContain('CursorSigningSecret');
    }
  });

  it('grants data writes when a group serves a non-GET row', () => {
    // Prepare
    const { template } = synthService();
    const readWrite = apiGroups().filter((entry) => !entry.readOnly);

    // Act
    const granted = readWrite.map((entry) => actionsOfRole(template(entry.stack), roleLogicalIdOf(entry.fn)));

    // Assess
    expect(readWrite.length).toBeGreaterThan(0);
    for (const actions of granted) expect(actions).toEqual(expect.arrayContaining(WRITE_ACTIONS));
  });

  it('names each index and attaches no managed policy when synthesised', () => {
    // Prepare
    const { stacks, template } = synthService();

    // Act
    const roles = stacks.flatMap((stack) => Object.values(template(stack).findResources('AWS::IAM::Role')));
    const resources = stacks.flatMap((stack) =>
      Object.values(template(stack).findResources('AWS::IAM::Policy')).flatMap((policy) =>
        policy.Properties.PolicyDocument.Statement.flatMap((statement: { Resource: unknown }) => [statement.Resource].flat()),
      ),
    );

    // Assess
    for (const role of roles) expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    expect(JSON.stringify(resources)).not.toContain('/index/*');
    expect(JSON.stringify(resources)).toContain('/index/GSI1');
  });

  it('bundles a group handler with esbuild, offline, when bundling is on', () => {
    // Prepare
    const outdir = mkdtempSync(path.join(tmpdir(), 'bundling-probe-'));
    const app = new App({ outdir });
    const stack = new Stack(app, 'BundlingProbe');
    const table = new Table(stack, 'Table', { partitionKey: { name: 'PK', type: AttributeType.STRING } });
    const fn = new GroupFunction(stack, 'Health', { entry: 'functions/api/health/handler.ts', stage: 'dev' });
    fn.bindTable(table, 'RO');

    // Act
    const assembly = app.synth();

    // Assess
    const template = Template.fromStack(stack);
    const s3Key: string = Object.values(template.findResources('AWS::Lambda::Function'))[0]!.Properties.Code.S3Key;
    const bundlePath = path.join(assembly.directory, `asset.${s3Key.replace(/\.zip$/, '')}`, 'index.js');
    expect(statSync(bundlePath).size).toBeGreaterThan(1000);
    expect(existsSync(`${bundlePath}.map`)).toBe(true);
    // The SDK clients and our dependencies are inside the bundle, not left to the runtime (the
    // SDK's optional, try/catch-guarded require of @aws-sdk/signature-v4-crt may stay).
    const external = readFileSync(bundlePath, 'utf8').match(/require\("(@middy\/|zod|@aws-sdk\/(client|lib)-)[^"]*"\)/g);
    expect(external).toBeNull();
    expect(policyStatementsOfRole(template, roleLogicalIdOf(fn)).length).toBeGreaterThan(0);
    rmSync(outdir, { recursive: true, force: true });
  }, 120_000);
});
