/**
 * The CRM apps on AWS (lib/config/crm-apps.ts, DataStack crmSecrets, GroupFunction.bindCrmApps):
 * the state key and both client secrets in Secrets Manager, read by the crm function alone through
 * CRM_*_ARN variables; the origins, client ids and redirect URIs as plain variables; no secret as
 * a plain environment value on any function.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { App, type CfnElement, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { apiGroup } from '#api/groups';
import { crmAppsFor } from '#lib/config/crm-apps';
import { addComplianceChecks, createRecoveryService } from '#lib/stacks/recovery-service';
import { apiGroupFunctions, policyStatementsOfRole, roleLogicalIdOf, synthService } from '#test/infra/synth-service';

const SECRET_IDS = ['CrmStateSigningSecret', 'CrmAClientSecret', 'CrmBClientSecret'] as const;
const CRM_APPS = {
  crm_a: { clientId: '7fff1e36-2d40-4ae1-bbb1-5266d59564fb', redirectUri: 'https://dashboard.example.com/crm/crm_a/installed' },
  crm_b: { clientId: '3MVG9consumerKey', redirectUri: 'https://dashboard.example.com/crm/crm_b/installed' },
};

/** The ids of the data stack's CRM secrets that a statement lets read, from its Resource (cross-stack imports name them). */
const crmSecretsReadBy = (statement: Record<string, unknown>): string[] =>
  JSON.stringify(statement.Action).includes('secretsmanager:GetSecretValue') ? SECRET_IDS.filter((id) => JSON.stringify(statement.Resource).includes(id)) : [];

/** Every Lambda function's environment variables, in every stack. */
const allVariables = (stacks: readonly Stack[]): Array<Record<string, unknown>> =>
  stacks.flatMap((stack) =>
    Object.values(Template.fromStack(stack).findResources('AWS::Lambda::Function')).map(
      (resource) => (resource.Properties?.Environment?.Variables ?? {}) as Record<string, unknown>,
    ),
  );

describe('CRM apps on AWS', () => {
  it('creates the state key and both client secrets in the data stack, generated, with their ARNs as outputs', () => {
    // Prepare
    const { service, template } = synthService();

    // Act
    const secrets = template(service.data).findResources('AWS::SecretsManager::Secret');
    const outputs = template(service.data).findOutputs('*');

    // Assess
    for (const id of SECRET_IDS) {
      const found = Object.entries(secrets).filter(([logicalId]) => logicalId.startsWith(id));
      expect(found).toHaveLength(1);
      expect(found[0]?.[1].Properties.GenerateSecretString).toMatchObject({ PasswordLength: 64 });
      expect(Object.keys(outputs).some((outputId) => outputId.startsWith(`${id}Arn`))).toBe(true);
    }
    expect(JSON.stringify(outputs)).toContain('put-secret-value');
  });

  it('lets the crm function alone read the three secrets, each named in its *_ARN variable', () => {
    // Prepare
    const groups = apiGroupFunctions();

    // Act
    const readers = groups
      .map((entry) => ({ group: entry.group, reads: policyStatementsOfRole(entry.template, roleLogicalIdOf(entry.fn)).flatMap(crmSecretsReadBy).sort() }))
      .filter((entry) => entry.reads.length > 0);
    const crm = groups.find((entry) => entry.group === 'crm');

    // Assess
    expect(apiGroup('crm').crmApps).toBe(true);
    expect(readers).toEqual([{ group: 'crm', reads: [...SECRET_IDS].sort() }]);
    expect(JSON.stringify(crm?.variables.CRM_STATE_SIGNING_SECRET_ARN)).toContain('CrmStateSigningSecret');
    expect(JSON.stringify(crm?.variables.CRM_A_CLIENT_SECRET_ARN)).toContain('CrmAClientSecret');
    expect(JSON.stringify(crm?.variables.CRM_B_CLIENT_SECRET_ARN)).toContain('CrmBClientSecret');
    for (const entry of groups.filter((other) => other.group !== 'crm'))
      expect(Object.keys(entry.variables).filter((name) => name.startsWith('CRM_'))).toEqual([]);
  });

  it('passes the stage’s origins, and no client until the crmApps context names one', () => {
    // Prepare
    const crm = apiGroupFunctions().find((entry) => entry.group === 'crm');

    // Act
    const variables = crm?.variables ?? {};

    // Assess
    expect(variables).toMatchObject({
      CRM_A_API_BASE_URL: 'https://api.hubapi.com',
      CRM_A_AUTHORIZE_BASE_URL: 'https://app.hubspot.com',
      CRM_B_LOGIN_BASE_URL: 'https://test.salesforce.com',
    });
    expect(variables).not.toHaveProperty('CRM_A_CLIENT_ID');
    expect(variables).not.toHaveProperty('CRM_B_REDIRECT_URI');
  });

  it('passes the client ids and redirect URIs of the crmApps context as plain variables, and never a secret as a plain value', () => {
    // Prepare
    const context = JSON.parse(readFileSync(path.join(__dirname, '../../../cdk.json'), 'utf8')).context as Record<string, unknown>;
    const app = new App({ context: { ...context, 'aws:cdk:bundling-stacks': [], crmApps: JSON.stringify(CRM_APPS) } });
    const service = createRecoveryService(app, { stage: 'prod' });
    const fn = service.apis.merchant.restApi.functionForGroup('crm');

    // Act
    const template = Template.fromStack(service.apis.merchant);
    const variables = template.findResources('AWS::Lambda::Function')[
      (fn.function.node.defaultChild as CfnElement).stack.getLogicalId(fn.function.node.defaultChild as CfnElement)
    ]?.Properties.Environment.Variables as Record<string, unknown>;
    const everyFunction = allVariables([service.data, ...Object.values(service.apis), service.jobs]);

    // Assess
    expect(variables).toMatchObject({
      CRM_A_CLIENT_ID: CRM_APPS.crm_a.clientId,
      CRM_A_REDIRECT_URI: CRM_APPS.crm_a.redirectUri,
      CRM_B_CLIENT_ID: CRM_APPS.crm_b.clientId,
      CRM_B_REDIRECT_URI: CRM_APPS.crm_b.redirectUri,
      CRM_B_LOGIN_BASE_URL: 'https://login.salesforce.com',
    });
    expect(everyFunction.length).toBeGreaterThan(20);
    for (const environment of everyFunction) {
      for (const name of ['CRM_A_CLIENT_SECRET', 'CRM_B_CLIENT_SECRET', 'CRM_STATE_SIGNING_SECRET']) expect(environment).not.toHaveProperty(name);
    }
  });

  it('synthesises with the cdk-nag plugins and a crmApps context', () => {
    // Prepare
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [], crmApps: CRM_APPS } });
    createRecoveryService(app, { stage: 'staging' });
    addComplianceChecks(app);

    // Act
    const synth = () => app.synth();

    // Assess
    expect(synth).not.toThrow();
  });
});

describe('crmAppsFor', () => {
  it('refuses a client without an id, a redirect URI that is not https, and unknown keys', () => {
    // Act
    const attempts = [
      () => crmAppsFor('prod', { crm_a: { redirectUri: 'https://x.example.com/cb' } }),
      () => crmAppsFor('prod', { crm_b: { clientId: 'id', redirectUri: 'http://x.example.com/cb' } }),
      () => crmAppsFor('prod', { crm_c: {} }),
      () => crmAppsFor('prod', 'null'),
    ];

    // Assess
    expect(attempts[0]).toThrow('crmApps.crm_a');
    expect(attempts[1]).toThrow('must be an https URL');
    expect(attempts[2]).toThrow('unknown keys: crm_c');
    expect(attempts[3]).toThrow('must be an object');
  });

  it('gives each stage its origins, with no client by default', () => {
    // Act
    const [dev, prod] = [crmAppsFor('dev', undefined), crmAppsFor('prod', undefined)];

    // Assess
    expect(dev).toEqual({
      crmAApiBaseUrl: 'https://api.hubapi.com',
      crmAAuthorizeBaseUrl: 'https://app.hubspot.com',
      crmBLoginBaseUrl: 'https://test.salesforce.com',
    });
    expect(prod.crmBLoginBaseUrl).toBe('https://login.salesforce.com');
  });
});
