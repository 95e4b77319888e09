import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus, Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { ConfigurationSet, EmailSendingEvent, EventDestination } from 'aws-cdk-lib/aws-ses';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { SES_EVENT_DETAIL_TYPES } from '#contracts/email-events';
import type { StageName } from '#lib/config/stages';
import { DeadLetterQueue } from './dead-letter-queue';
import { GroupFunction } from './group-function';

export interface EmailSendingProps {
  /** @default - none; required */
  readonly stage: StageName;
  /** @default - none; required */
  readonly table: ITable;
  /** @default - none; required */
  readonly alarmTopic: ITopic;
  /** The sender address of every email (EMAIL_FROM); its domain is the SES identity sends are allowed from. @default - none; required */
  readonly fromAddress: string;
}

/**
 * Email on AWS (DESIGN §2c "Messaging"): an SES v2 configuration set whose event destination is
 * the account's default EventBridge bus (bounce, complaint, delivery, open, click, reject); a rule
 * on those events invokes `functions/consumers/email-events.ts`, which applies each as a delivery
 * callback, the same path the webhook callbacks take (message status, suppression list, bounce
 * and complaint counts). EventBridge retries a failed invocation, then dead-letters it (with an
 * alarm). `bindSender` lets a function send through it: `ses:SendEmail` on the sending identity
 * and this configuration set only.
 */
export class EmailSending extends Construct {
  readonly configurationSet: ConfigurationSet;
  readonly consumer: GroupFunction;
  readonly rule: Rule;
  readonly deadLetterQueue: DeadLetterQueue;
  readonly identityDomain: string;
  /** The configuration set's name (a plain string: the rule and the grant name it without a reference). */
  readonly configurationSetName: string;
  /** The sender address of every email (EMAIL_FROM). */
  readonly fromAddress: string;

  constructor(scope: Construct, id: string, props: EmailSendingProps) {
    super(scope, id);
    this.fromAddress = props.fromAddress;
    this.identityDomain = props.fromAddress.slice(props.fromAddress.lastIndexOf('@') + 1);
    this.configurationSetName = `recovery-${props.stage}-emails`;
    this.configurationSet = new ConfigurationSet(this, 'ConfigurationSet', { configurationSetName: this.configurationSetName });
    this.configurationSet.addEventDestination('ToEventBridge', {
      destination: EventDestination.eventBus(EventBus.fromEventBusName(this, 'DefaultBus', 'default')),
      events: [
        EmailSendingEvent.BOUNCE,
        EmailSendingEvent.COMPLAINT,
        EmailSendingEvent.DELIVERY,
        EmailSendingEvent.OPEN,
        EmailSendingEvent.CLICK,
        EmailSendingEvent.REJECT,
      ],
    });

    this.deadLetterQueue = new DeadLetterQueue(this, 'Dlq', { alarmTopic: props.alarmTopic, description: 'SES email events not applied' });
    this.consumer = new GroupFunction(this, 'EmailEvents', {
      entry: 'functions/consumers/email-events.ts',
      stage: props.stage,
      description: 'Consumer of the SES configuration set events (delivery status)',
      timeout: Duration.seconds(30),
      deadLetterQueue: this.deadLetterQueue.queue,
    });
    this.consumer.bindTable(props.table, 'RW');
    this.rule = new Rule(this, 'SesEvents', {
      description: 'SES events of the recovery configuration set to the delivery-status consumer',
      eventPattern: {
        source: ['aws.ses'],
        detailType: [...SES_EVENT_DETAIL_TYPES],
        detail: { mail: { tags: { 'ses:configuration-set': [this.configurationSetName] } } },
      },
      targets: [
        new LambdaFunction(this.consumer.function, {
          deadLetterQueue: this.deadLetterQueue.queue,
          retryAttempts: 185,
          maxEventAge: Duration.hours(24),
        }),
      ],
    });
  }

  /**
   * Lets `fn` send email through SES in this configuration set: EMAIL_DRIVER=ses and SendEmail on
   * the set and the account's identities: the service's own, and the merchants' verified sending
   * domains (docs/email-domains.md), which are named at run time, hence `identity/*`.
   */
  bindSender(fn: GroupFunction): void {
    const stack = Stack.of(this);
    fn.function.addEnvironment('EMAIL_DRIVER', 'ses');
    fn.function.addEnvironment('EMAIL_FROM', this.fromAddress);
    fn.function.addEnvironment('SES_CONFIGURATION_SET', this.configurationSetName);
    fn.function.addToRolePolicy(
      new PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [
          stack.formatArn({ service: 'ses', resource: 'identity', resourceName: '*' }),
          stack.formatArn({ service: 'ses', resource: 'configuration-set', resourceName: this.configurationSetName }),
        ],
      }),
    );
    if (fn.function.role !== undefined) {
      Validations.of(fn.function.role).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>:identity/*]',
        reason:
          "Campaign email goes from the merchant's verified sending domain, an SES identity named at run time (docs/email-domains.md); only ses:SendEmail is granted.",
      });
    }
  }
}
