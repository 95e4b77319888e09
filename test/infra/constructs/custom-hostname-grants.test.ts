import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { apiGroup } from '#api/groups';
import { ACM_ACTIONS, CLOUDFRONT_ACTIONS } from '#lib/config/custom-hostnames';
import type { GroupFunction } from '#lib/constructs/group-function';
import { addComplianceChecks, createRecoveryService } from '#lib/stacks/recovery-service';
import { actionsOfRole, apiGroupFunctions, policyStatementsOfRole, roleLogicalIdOf, synthService } from '#test/infra/synth-service';

const cdkJsonContext: Record<string, unknown> = JSON.parse(readFileSync(path.join(__dirname, '../../../cdk.json'), 'utf8')).context;
const DISTRIBUTION = 'EDFDVBD6EXAMPLE';
const portActions = (actions: readonly string[]) =>
  [...new Set(actions.filter((action) => action.startsWith('acm:') || action.startsWith('cloudfront:')))].sort();

/** The service synthesised with a multi-tenant distribution configured (context `customHostnameDistributionId`). */
function withDistribution() {
  const app = new App({ context: { ...cdkJsonContext, stage: 'dev', 'aws:cdk:bundling-stacks': [], customHostnameDistributionId: DISTRIBUTION } });
  const service = createRecoveryService(app, { stage: 'dev' });
  const edge = Template.fromStack(service.apis.edge);
  const jobs = Template.fromStack(service.jobs);
  const group = (name: string) => service.apis.edge.restApi.functionForGroup(name);
  const everyMinute = service.jobs.jobs.get('every-minute')?.fn as GroupFunction;
  return { edge, jobs, group, everyMinute };
}

describe('custom hostnames: grants of the certificate and CDN ports', () => {
  const synthesised = withDistribution();

  it('grants the custom-hostname group exactly the ACM and CloudFront actions its adapters call, on certificates and tenants only', () => {
    // Prepare
    const role = roleLogicalIdOf(synthesised.group('custom-hostname'));
    // Act
    const statements = policyStatementsOfRole(synthesised.edge, role).filter((statement) => /acm:|cloudfront:/.test(JSON.stringify(statement.Action)));
    // Assess
    expect(portActions(actionsOfRole(synthesised.edge, role))).toEqual([...ACM_ACTIONS.manage, ...CLOUDFRONT_ACTIONS.manage].sort());
    const resources = statements.map((statement) => JSON.stringify(statement.Resource));
    expect(resources.find((resource) => resource === '"*"')).toBeDefined();
    const onEverything = statements.filter((statement) => statement.Resource === '*').flatMap((statement) => [statement.Action].flat() as string[]);
    expect(portActions(onEverything)).toEqual(['acm:RequestCertificate']);
    expect(resources.some((resource) => resource.includes(':acm:us-east-1:') && resource.includes(':certificate/*'))).toBe(true);
    expect(resources.some((resource) => resource.includes(`:distribution/${DISTRIBUTION}`))).toBe(true);
    expect(resources.some((resource) => resource.includes(':distribution-tenant/*'))).toBe(true);
  });

  it('grants edge-internal only the invalidations, and the every-minute job only request, describe and attach', () => {
    // Act
    const purge = portActions(actionsOfRole(synthesised.edge, roleLogicalIdOf(synthesised.group('edge-internal'))));
    const check = portActions(actionsOfRole(synthesised.jobs, roleLogicalIdOf(synthesised.everyMinute)));
    // Assess
    expect(purge).toEqual([...CLOUDFRONT_ACTIONS.purge].sort());
    expect(check).toEqual([...ACM_ACTIONS.check, ...CLOUDFRONT_ACTIONS.check].sort());
  });

  it('points those functions at ACM and the distribution, with the service domain and custom host', () => {
    // Act
    const variables = Object.values(synthesised.edge.findResources('AWS::Lambda::Function'))
      .map((fn) => fn.Properties.Environment?.Variables as Record<string, unknown>)
      .filter((vars) => vars?.CDN_DRIVER !== undefined);
    // Assess
    expect(variables).toHaveLength(2);
    for (const vars of variables) {
      expect(vars).toMatchObject({
        CDN_DRIVER: 'cloudfront',
        CLOUDFRONT_DISTRIBUTION_ID: DISTRIBUTION,
        SERVICE_DOMAIN: 'dev.recovery.example.com',
        CUSTOM_HOST: 'custom.dev.recovery.example.com',
      });
    }
  });

  it('gives no other API group any ACM or CloudFront permission', () => {
    // Act
    const others = apiGroupFunctions().filter((entry) => apiGroup(entry.group).customHostnames === undefined);
    // Assess
    expect(others.length).toBeGreaterThan(10);
    for (const entry of others)
      expect({ group: entry.group, actions: portActions(actionsOfRole(entry.template, roleLogicalIdOf(entry.fn))) }).toEqual({
        group: entry.group,
        actions: [],
      });
  });

  it('without a distribution configured, grants ACM only and leaves the CDN port in-process', () => {
    // Prepare
    const { service, template } = synthService();
    const fn = service.apis.edge.restApi.functionForGroup('custom-hostname');
    // Act
    const actions = portActions(actionsOfRole(template(service.apis.edge), roleLogicalIdOf(fn)));
    const purge = portActions(actionsOfRole(template(service.apis.edge), roleLogicalIdOf(service.apis.edge.restApi.functionForGroup('edge-internal'))));
    // Assess
    expect(actions).toEqual([...ACM_ACTIONS.manage].sort());
    expect(purge).toEqual([]);
  });

  it('passes the cdk-nag checks with the distribution configured (the run-time ARN patterns acknowledged with reasons)', () => {
    // Prepare
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [], customHostnameDistributionId: DISTRIBUTION } });
    createRecoveryService(app, { stage: 'dev' });
    addComplianceChecks(app);
    // Act
    const synth = () => app.synth();
    // Assess
    expect(synth).not.toThrow();
  }, 180_000);
});
