import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { App, CfnElement, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { API_NAMES } from '#api/route-types';
import type { StageName } from '#lib/config/stages';
import type { DeadLetterQueue } from '#lib/constructs/dead-letter-queue';
import type { GroupFunction } from '#lib/constructs/group-function';
import type { TableStreamSourceSettings } from '#lib/constructs/table-stream-source';
import { createRecoveryService, type RecoveryService } from '#lib/stacks/recovery-service';

/** The feature flags `cdk synth` reads from cdk.json, so the tests see the same templates. */
const cdkJsonContext: Record<string, unknown> = JSON.parse(readFileSync(path.join(__dirname, '../../cdk.json'), 'utf8')).context;

export interface SynthesisedService {
  readonly app: App;
  readonly service: RecoveryService;
  readonly stacks: readonly Stack[];
  template(stack: Stack): Template;
}

const cache = new Map<StageName, SynthesisedService>();

/**
 * The whole service of one stage, synthesised in-process without bundling (the empty
 * `aws:cdk:bundling-stacks` list skips esbuild for every stack), once per test file and stage.
 */
export function synthService(stage: StageName = 'dev'): SynthesisedService {
  const cached = cache.get(stage);
  if (cached) return cached;
  const app = new App({ context: { ...cdkJsonContext, stage, 'aws:cdk:bundling-stacks': [] } });
  const service = createRecoveryService(app, { stage });
  const stacks = [service.data, ...Object.values(service.apis), service.jobs];
  const templates = new Map<Stack, Template>();
  const synthesised: SynthesisedService = {
    app,
    service,
    stacks,
    template(stack) {
      let template = templates.get(stack);
      if (!template) {
        template = Template.fromStack(stack);
        templates.set(stack, template);
      }
      return template;
    },
  };
  cache.set(stage, synthesised);
  return synthesised;
}

/** The CloudFormation logical id of a construct's underlying resource. */
export function logicalIdOf(element: CfnElement | GroupFunction): string {
  const cfn = element instanceof CfnElement ? element : (element.function.node.defaultChild as CfnElement);
  return cfn.stack.getLogicalId(cfn);
}

type Resources = Record<string, { Type: string; Properties?: Record<string, unknown> }>;

/** Statements of every IAM policy attached to a role, by the role's logical id. */
export function policyStatementsOfRole(template: Template, roleLogicalId: string): Array<Record<string, unknown>> {
  const policies = template.findResources('AWS::IAM::Policy') as Resources;
  return Object.values(policies)
    .filter((policy) => JSON.stringify(policy.Properties?.Roles).includes(`"${roleLogicalId}"`))
    .flatMap((policy) => (policy.Properties?.PolicyDocument as { Statement: Array<Record<string, unknown>> } | undefined)?.Statement ?? []);
}

/** The actions a role is allowed, flattened. */
export function actionsOfRole(template: Template, roleLogicalId: string): string[] {
  return policyStatementsOfRole(template, roleLogicalId).flatMap((statement) => [statement.Action].flat() as string[]);
}

/** The logical id of a GroupFunction's execution role. */
export function roleLogicalIdOf(fn: GroupFunction): string {
  const role = fn.function.role;
  if (role === undefined) throw new Error(`${fn.node.path} has no role`);
  return logicalIdOf(role.node.defaultChild as CfnElement);
}

/** One API group's function of the synthesised service, with its stack, template and environment. */
export interface ApiGroupFunction {
  readonly group: string;
  readonly fn: GroupFunction;
  readonly stack: Stack;
  readonly template: Template;
  readonly variables: Record<string, unknown>;
}

/** Every API group function of the dev stage (every REST API), with its stack, template and environment variables. */
export function apiGroupFunctions(): ApiGroupFunction[] {
  const { service, template } = synthService();
  return API_NAMES.flatMap((apiName) =>
    service.apis[apiName].restApi.groups.map((group) => {
      const fn = service.apis[apiName].restApi.functionForGroup(group);
      const resource = Object.values(template(service.apis[apiName]).findResources('AWS::Lambda::Function')).find((candidate) =>
        JSON.stringify(candidate.Properties.Role).includes(roleLogicalIdOf(fn)),
      );
      return {
        group,
        fn,
        stack: service.apis[apiName],
        template: template(service.apis[apiName]),
        variables: (resource?.Properties.Environment?.Variables ?? {}) as Record<string, unknown>,
      };
    }),
  );
}

/** A resource of a synthesised template, as `Template.findResources` gives it. */
type TemplateResource = ReturnType<Template['findResources']>[string];

/** The event source mappings of one function in a template. */
export function eventSourceMappingsOf(template: Template, fn: GroupFunction): TemplateResource[] {
  return Object.values(template.findResources('AWS::Lambda::EventSourceMapping')).filter(
    (mapping) => JSON.stringify(mapping.Properties.FunctionName) === JSON.stringify({ Ref: logicalIdOf(fn) }),
  );
}

/** The filter patterns of an event source mapping, parsed. */
export const filterPatternsOf = (mapping: TemplateResource | undefined): unknown[] =>
  ((mapping?.Properties.FilterCriteria.Filters ?? []) as { Pattern: string }[]).map((filter) => JSON.parse(filter.Pattern) as unknown);

/** What every table-stream consumer's mapping has (lib/constructs/table-stream-source.ts), for `toMatchObject`. */
export const streamMappingProperties = (settings: TableStreamSourceSettings, deadLetterQueue: DeadLetterQueue): Record<string, unknown> => ({
  EventSourceArn: { 'Fn::ImportValue': expect.stringMatching(/StreamArn/) },
  StartingPosition: 'TRIM_HORIZON',
  BatchSize: settings.batchSize,
  FunctionResponseTypes: ['ReportBatchItemFailures'],
  BisectBatchOnFunctionError: true,
  MaximumRetryAttempts: settings.retryAttempts,
  MaximumRecordAgeInSeconds: settings.maxRecordAgeHours * 3600,
  DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [logicalIdOf(deadLetterQueue.queue.node.defaultChild as CfnElement), 'Arn'] } } },
});
