import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, type NagPack, ServerlessChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import type { StageName } from '#lib/config/stages';
import { addComplianceChecks, createRecoveryService } from '#lib/stacks/recovery-service';
import { synthService } from '#test/infra/synth-service';

/** Unacknowledged findings of one pack, as `rule at construct path`, for a readable failure. */
function findings(pack: NagPack, scope: IConstruct): string[] {
  return pack
    .validateScope(scope)
    .violations.flatMap((violation) =>
      violation.violatingResources.map((resource) => `${violation.severity} ${violation.ruleName} at ${resource.constructPath}`),
    );
}

/** Every acknowledgment in the tree: rule id, reason and the construct it was made on. */
function acknowledgments(scope: IConstruct): Array<{ id: string; reason: string; path: string }> {
  return scope.node
    .findAll()
    .flatMap((construct) =>
      construct.node.metadata
        .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
        .flatMap((entry) => Object.entries(entry.data as Record<string, string>).map(([id, reason]) => ({ id, reason, path: construct.node.path }))),
    );
}

describe('createRecoveryService', () => {
  it.each(['dev', 'prod'] as StageName[])('keeps every stack below 450 resources when the stage is %s', (stage) => {
    // Prepare
    const { stacks, template } = synthService(stage);

    // Act
    const counts = Object.fromEntries(stacks.map((stack) => [stack.stackName, Object.keys(template(stack).toJSON().Resources).length]));

    // Assess
    expect(Object.keys(counts)).toHaveLength(5);
    for (const count of Object.values(counts)) expect(count).toBeLessThan(450);
  });

  it.each(['dev', 'prod'] as StageName[])('leaves no AwsSolutions or Serverless finding unacknowledged when the stage is %s', (stage) => {
    // Prepare
    const { app } = synthService(stage);
    const packs = [new AwsSolutionsChecks(undefined, { verbose: true }), new ServerlessChecks(undefined, { verbose: true })];

    // Act
    const unacknowledged = packs.flatMap((pack) => findings(pack, app));

    // Assess
    expect(unacknowledged).toEqual([]);
  });

  it('gives every acknowledged finding a reason when synthesised', () => {
    // Prepare
    const { app } = synthService();

    // Act
    const acknowledged = acknowledgments(app);

    // Assess
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const { id, reason } of acknowledged) {
      expect({ id, reason: reason.trim().length > 30 }).toEqual({ id, reason: true });
      // CloudFormation-Validate::W3010, ::F3002 and ::F3003 are CDK's own, made with their reasons by the relay's VPC (its availability
      // zones) and its flow log (aws-cdk-lib/aws-ec2).
      expect(id).toMatch(/^((Annotation::)?(AwsSolutions|Serverless)-[A-Za-z0-9]+(\[.+\])?|CloudFormation-Validate::(W3010|F3002|F3003))$/);
    }
  });

  it('synthesises with the cdk-nag plugins registered as bin/app.ts does', () => {
    // Prepare
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    createRecoveryService(app, { stage: 'dev' });
    addComplianceChecks(app);

    // Act
    const synth = () => app.synth();

    // Assess
    expect(synth).not.toThrow();
  });
});
