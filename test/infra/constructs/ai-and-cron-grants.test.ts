import { apiGroup } from '#api/groups';
import { routes } from '#api/routes';
import { bedrockModel } from '#lib/config/ai-model';
import { actionsOfRole, policyStatementsOfRole, roleLogicalIdOf, synthService, apiGroupFunctions } from '#test/infra/synth-service';

describe('RestApiFromRoutes: the AI model (lib/config/ai-model.ts)', () => {
  it.each(['scoring', 'ai'])('points the %s group at Bedrock with InvokeModel on its one foundation model only', (group) => {
    // Prepare
    const functions = apiGroupFunctions().filter((entry) => entry.group === group);
    // Act
    const statements = functions.flatMap((entry) =>
      policyStatementsOfRole(entry.template, roleLogicalIdOf(entry.fn)).filter((statement) => JSON.stringify(statement.Action).includes('bedrock')),
    );
    // Assess
    expect(functions).toHaveLength(1);
    expect(functions[0]?.variables).toMatchObject({ AI_PROVIDER: 'bedrock', BEDROCK_MODEL_ID: bedrockModel.modelId });
    expect(statements).toHaveLength(1);
    expect(statements[0]?.Action).toBe('bedrock:InvokeModel');
    const resource = JSON.stringify(statements[0]?.Resource);
    expect(resource).toContain(`:bedrock:`);
    expect(resource).toContain(`::foundation-model/${bedrockModel.modelId}`);
    expect(resource).not.toContain('*');
  });

  it('leaves every other group on the local adapter with no Bedrock permission', () => {
    // Prepare
    const others = apiGroupFunctions().filter((entry) => apiGroup(entry.group).ai !== true);
    // Act
    const granted = others.map((entry) => ({
      group: entry.group,
      bedrock: actionsOfRole(entry.template, roleLogicalIdOf(entry.fn)).filter((action) => action.startsWith('bedrock:')),
      provider: entry.variables.AI_PROVIDER,
    }));
    // Assess
    expect(others.length).toBeGreaterThan(10);
    for (const entry of granted) expect(entry).toEqual({ group: entry.group, bedrock: [], provider: undefined });
  });
});

describe('RestApiFromRoutes: the cron secret (DataStack CronSecret)', () => {
  const cronGroups = new Set(routes.filter((row) => row.auth === 'cron_secret').map((row) => row.group));

  it('creates one generated cron secret in the data stack', () => {
    // Prepare
    const { service, template } = synthService();
    // Act
    const secrets = template(service.data).findResources('AWS::SecretsManager::Secret');
    // Assess
    const cron = Object.entries(secrets).filter(([logicalId]) => logicalId.startsWith('CronSecret'));
    expect(cron).toHaveLength(1);
    expect(cron[0]?.[1].Properties.GenerateSecretString).toMatchObject({ PasswordLength: 64 });
  });

  it('lets exactly the groups serving a cron_secret row read the cron secret, named in CRON_SECRET_ARN', () => {
    // Prepare
    const groups = apiGroupFunctions();
    // Act
    const readers = groups.filter((entry) =>
      policyStatementsOfRole(entry.template, roleLogicalIdOf(entry.fn)).some(
        (statement) => JSON.stringify(statement.Action).includes('secretsmanager:GetSecretValue') && JSON.stringify(statement.Resource).includes('CronSecret'),
      ),
    );
    // Assess
    expect(cronGroups).toContain('edge-internal');
    expect(readers.map((entry) => entry.group).sort()).toEqual([...cronGroups].sort());
    for (const entry of groups)
      expect({ group: entry.group, arn: entry.variables.CRON_SECRET_ARN !== undefined }).toEqual({ group: entry.group, arn: cronGroups.has(entry.group) });
  });
});
