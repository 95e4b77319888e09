import { Duration, Stack, TimeZone } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyDocument, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { type ISchedule, type IScheduleTarget, Schedule, ScheduleExpression, ScheduleTargetInput } from 'aws-cdk-lib/aws-scheduler';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { type ScheduleDefinition, scheduledJobInputTemplate } from '#contracts/schedules';
import type { FunctionSize } from '#lib/config/function-sizes';
import type { StageName } from '#lib/config/stages';
import { DeadLetterQueue } from './dead-letter-queue';
import { GroupFunction, type QueueHandle } from './group-function';

export interface ScheduledJobProps {
  /** @default - none; required */
  readonly definition: ScheduleDefinition;
  /** @default - none; required */
  readonly stage: StageName;
  /** @default - none; required */
  readonly table: ITable;
  /** Receives the alarm of the job's dead-letter queue. @default - none; required */
  readonly alarmTopic: ITopic;
  /** @default - GroupFunction's defaults */
  readonly size?: FunctionSize;
  /** @default - none */
  readonly sendsTo?: readonly QueueHandle[];
}

/**
 * The job `functions/jobs/<name>.ts` on an EventBridge Scheduler schedule (UTC). Scheduler invokes
 * Lambda asynchronously, so a run that fails for good (delivery retries used up, or the function's
 * own async retries) lands in one dead-letter queue per job, which alarms.
 */
export class ScheduledJob extends Construct {
  readonly fn: GroupFunction;
  readonly schedule: Schedule;
  readonly deadLetterQueue: DeadLetterQueue;

  constructor(scope: Construct, id: string, props: ScheduledJobProps) {
    super(scope, id);
    const { definition } = props;
    this.deadLetterQueue = new DeadLetterQueue(this, 'Dlq', {
      alarmTopic: props.alarmTopic,
      description: `Scheduled job ${definition.name}`,
    });
    this.fn = new GroupFunction(this, 'Job', {
      entry: `functions/jobs/${definition.name}.ts`,
      stage: props.stage,
      description: `Scheduled job ${definition.name} (${definition.expression})`,
      ...(props.size ?? {}),
      deadLetterQueue: this.deadLetterQueue.queue,
      sendsTo: props.sendsTo,
    });
    this.fn.bindTable(props.table, 'RW');

    const target = this.invokeTarget(definition);
    this.schedule = new Schedule(this, 'Schedule', {
      schedule: ScheduleExpression.expression(definition.expression, TimeZone.ETC_UTC),
      description: `Runs the ${definition.name} job: ${definition.tasks.join(', ')}`,
      target,
    });
  }

  /**
   * A target with its own execution role, allowed to invoke this job's function (unqualified ARN
   * only) and to dead-letter an undeliverable run, nothing else.
   */
  private invokeTarget(definition: ScheduleDefinition): IScheduleTarget {
    const functionArn = this.fn.function.functionArn;
    const dlqArn = this.deadLetterQueue.queue.queueArn;
    const stack = Stack.of(this);
    const role = new Role(this, 'SchedulerRole', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': stack.account } },
      }),
      inlinePolicies: {
        InvokeJob: new PolicyDocument({
          statements: [
            new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [functionArn] }),
            // Scheduler sends an undeliverable run to the DLQ with the execution role's rights.
            new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [dlqArn] }),
          ],
        }),
      },
    });
    return {
      bind: (_schedule: ISchedule) => ({
        arn: functionArn,
        role,
        input: ScheduleTargetInput.fromText(scheduledJobInputTemplate(definition.name)),
        // A run is only worth retrying while it is still close to its slot; later runs catch up.
        retryPolicy: { maximumRetryAttempts: 3, maximumEventAgeInSeconds: Duration.minutes(15).toSeconds() },
        deadLetterConfig: { arn: dlqArn },
      }),
    };
  }
}
