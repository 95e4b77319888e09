import type { Stack } from 'aws-cdk-lib';
import { type QueueName, queueDefinitions } from '#contracts/queues';
import { API_NAMES } from '#api/route-types';
import { queuesSentToBy, type SenderKind } from '#lib/config/queue-senders';
import type { GroupFunction } from '#lib/constructs/group-function';
import { logicalIdOf, policyStatementsOfRole, roleLogicalIdOf, synthService } from '#test/infra/synth-service';

interface Sender {
  readonly kind: SenderKind;
  readonly name: string;
  readonly stack: Stack;
  readonly fn: GroupFunction;
}

function everyFunction(): Sender[] {
  const { service } = synthService();
  return [
    ...API_NAMES.flatMap((apiName) =>
      service.apis[apiName].restApi.groups.map((name) => ({
        kind: 'api' as const,
        name,
        stack: service.apis[apiName],
        fn: service.apis[apiName].restApi.functionForGroup(name),
      })),
    ),
    ...[...service.jobs.jobs].map(([name, job]) => ({ kind: 'jobs' as const, name, stack: service.jobs, fn: job.fn })),
    ...[...service.jobs.consumers].map(([name, consumer]) => ({ kind: 'consumers' as const, name, stack: service.jobs, fn: consumer.fn })),
  ];
}

/** The data-stack queues a role may send to (a job's own DLQ lives in its stack and is left out). */
function queuesSentTo(sender: Sender): QueueName[] {
  const { template } = synthService();
  const statements = policyStatementsOfRole(template(sender.stack), roleLogicalIdOf(sender.fn));
  const resources = statements.filter((statement) => [statement.Action].flat().includes('sqs:SendMessage')).flatMap((statement) => [statement.Resource].flat());
  return queueDefinitions
    .filter((definition) => JSON.stringify(resources).includes(`Queue${definition.name.replace(/-/g, '')}Queue`))
    .map((definition) => definition.name)
    .sort();
}

describe('queueSenders', () => {
  it('lets exactly the mapped groups, jobs and consumers send to exactly their queues', () => {
    // Prepare
    const senders = everyFunction();

    // Act
    const granted = senders.map((sender) => ({ sender: `${sender.kind}:${sender.name}`, queues: queuesSentTo(sender) }));

    // Assess
    expect(granted).toEqual(
      senders.map((sender) => ({ sender: `${sender.kind}:${sender.name}`, queues: [...queuesSentToBy(sender.kind, sender.name)].sort() })),
    );
    expect(
      granted
        .filter((entry) => entry.queues.length > 0)
        .map((entry) => entry.sender)
        .sort(),
    ).toEqual([
      'api:ingest',
      'api:provider-webhooks',
      'api:recoveries',
      'api:webhook-endpoints',
      'api:win-back',
      'consumers:inbound-webhooks',
      // Its own delayed retries (webhook attempts waiting up to 15 min).
      'consumers:outbound-deliveries',
      'jobs:every-minute',
      'jobs:hourly',
    ]);
  });

  it('grants sqs:SendMessage to no API function outside the map', () => {
    // Prepare
    const { template } = synthService();
    const unmapped = everyFunction().filter((sender) => sender.kind !== 'jobs' && queuesSentToBy(sender.kind, sender.name).length === 0);

    // Act
    const actions = unmapped.flatMap((sender) =>
      policyStatementsOfRole(template(sender.stack), roleLogicalIdOf(sender.fn)).flatMap((statement) => [statement.Action].flat()),
    );

    // Assess
    expect(unmapped.length).toBeGreaterThan(25);
    expect(actions).not.toContain('sqs:SendMessage');
  });

  it('sets queue URL variables only for the queues a function may send to', () => {
    // Prepare
    const { template } = synthService();
    const senders = everyFunction();

    // Act
    const variables = senders.map((sender) => {
      const fn = template(sender.stack).findResources('AWS::Lambda::Function')[logicalIdOf(sender.fn)]!;
      return Object.keys(fn.Properties.Environment.Variables as Record<string, unknown>)
        .filter((name) => name.endsWith('_QUEUE_URL'))
        .sort();
    });

    // Assess
    expect(variables).toEqual(
      senders.map((sender) =>
        queuesSentToBy(sender.kind, sender.name)
          .map((name) => queueDefinitions.find((definition) => definition.name === name)!.urlEnv)
          .sort(),
      ),
    );
  });
});
