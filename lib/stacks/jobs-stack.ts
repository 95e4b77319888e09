import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { type QueueName, queueDefinitions } from '#contracts/queues';
import { type ScheduleName, scheduleDefinitions } from '#contracts/schedules';
import { customHostnamesFor } from '#lib/config/custom-hostnames';
import { queuesSentToBy } from '#lib/config/queue-senders';
import type { StageName } from '#lib/config/stages';
import type { QueueHandle } from '#lib/constructs/group-function';
import { EmailSending } from '#lib/constructs/email-sending';
import { EmbedRecoveriesConsumer } from '#lib/constructs/embed-recoveries-consumer';
import { OutboundDispatchConsumer } from '#lib/constructs/outbound-dispatch-consumer';
import { QueueConsumer } from '#lib/constructs/queue-consumer';
import { ScheduledJob } from '#lib/constructs/scheduled-job';
import { bindEmailIdentities } from '#lib/constructs/email-identities';
import { defaultEmailFrom } from '#lib/config/email';
import { TableStreamConsumer } from '#lib/constructs/table-stream-consumer';
import type { VectorIndexHandle } from '#lib/constructs/vector-index';

export interface JobsStackProps extends StackProps {
  /** @default - none; required */
  readonly stage: StageName;
  /** @default - none; required */
  readonly table: ITable;
  /** @default - none; required */
  readonly queues: Readonly<Record<QueueName, QueueHandle>>;
  /** @default - none; required */
  readonly alarmTopic: ITopic;
  /**
   * The key unsubscribe tokens are derived from (the list-cursor key the edge API verifies them
   * with). @default - none: the notifications consumer makes a key per instance (links then fail)
   */
  readonly cursorSecret?: ISecret;
  /** The edge API's public origin (unsubscribe links). @default - none: the local default */
  readonly edgePublicBaseUrl?: string;
  /** The sender address of every email. @default `no-reply@<stage>.recovery.example.com` */
  readonly emailFrom?: string;
  /** SMS and WhatsApp through Twilio. @default - none: the local sender (messages kept as table items) */
  readonly twilio?: TwilioConfig;
  /** The key sealing secrets at rest: the outbound-deliveries consumer opens endpoints' signing secrets. @default - none: that consumer cannot sign */
  readonly secretsKey?: IKey;
  /** The S3 Vectors index the auto-embedding consumer writes to. @default - none: no auto-embedding consumer */
  readonly vectorIndex?: VectorIndexHandle;
}

/**
 * Twilio for SMS and WhatsApp (CDK context `twilio`): the account, the senders, and the name of the
 * Secrets Manager secret holding the auth token (created by the operator, never in the template).
 */
export interface TwilioConfig {
  readonly accountSid: string;
  readonly authTokenSecretName: string;
  readonly smsFrom?: string;
  readonly whatsappFrom?: string;
  /** The webhook API's public origin, for status callbacks (`/api/v1/messaging/status`). */
  readonly webhookPublicBaseUrl?: string;
}

/** The asynchronous side: one consumer per queue, the table-stream consumer, and one scheduled job per schedule. */
export class JobsStack extends Stack {
  readonly consumers: ReadonlyMap<QueueName, QueueConsumer>;
  readonly tableStream: TableStreamConsumer;
  readonly outboundDispatch: OutboundDispatchConsumer;
  readonly embedRecoveries: EmbedRecoveriesConsumer | undefined;
  readonly jobs: ReadonlyMap<ScheduleName, ScheduledJob>;
  readonly email: EmailSending;

  constructor(scope: Construct, id: string, props: JobsStackProps) {
    super(scope, id, props);
    const sendersFor = (kind: 'jobs' | 'consumers', name: string) => queuesSentToBy(kind, name).map((queue) => props.queues[queue]);

    const consumers = new Map<QueueName, QueueConsumer>();
    for (const definition of queueDefinitions) {
      consumers.set(
        definition.name,
        new QueueConsumer(this, `Consumer-${definition.name}`, {
          source: props.queues[definition.name],
          stage: props.stage,
          table: props.table,
          sendsTo: sendersFor('consumers', definition.name),
        }),
      );
    }
    this.consumers = consumers;

    // Counters and analytics rollups, from the table's stream (DESIGN §2).
    this.tableStream = new TableStreamConsumer(this, 'TableStreamConsumer', { stage: props.stage, table: props.table, alarmTopic: props.alarmTopic });

    // Outbound webhooks (issue 13): the outbox's inserts fanned out to outbound-deliveries, whose
    // consumer signs with the endpoints' secrets (sealed by the secrets key). WEBHOOK_ALLOW_LOOPBACK
    // is never set here: on AWS only public receivers are reached.
    this.outboundDispatch = new OutboundDispatchConsumer(this, 'OutboundDispatch', {
      stage: props.stage,
      table: props.table,
      deliveries: props.queues['outbound-deliveries'],
      alarmTopic: props.alarmTopic,
    });
    // Auto-embedding (issue 15): recovered and terminal payments into the vector index.
    this.embedRecoveries =
      props.vectorIndex === undefined
        ? undefined
        : new EmbedRecoveriesConsumer(this, 'EmbedRecoveries', {
            stage: props.stage,
            table: props.table,
            vectorIndex: props.vectorIndex,
            alarmTopic: props.alarmTopic,
          });
    const deliveries = consumers.get('outbound-deliveries')?.fn;
    if (deliveries !== undefined && props.secretsKey !== undefined) deliveries.bindSecretsKey(props.secretsKey);

    // Email through SES v2, its events back to the delivery status; the notifications consumer sends.
    this.email = new EmailSending(this, 'EmailSending', {
      stage: props.stage,
      table: props.table,
      alarmTopic: props.alarmTopic,
      fromAddress: props.emailFrom ?? defaultEmailFrom(props.stage),
    });
    const notifications = consumers.get('notifications')?.fn;
    if (notifications !== undefined) {
      this.email.bindSender(notifications);
      if (props.cursorSecret !== undefined) notifications.bindCursorSecret(props.cursorSecret);
      if (props.edgePublicBaseUrl !== undefined) notifications.function.addEnvironment('EDGE_PUBLIC_BASE_URL', props.edgePublicBaseUrl);
      if (props.twilio !== undefined) {
        const token = Secret.fromSecretNameV2(this, 'TwilioAuthToken', props.twilio.authTokenSecretName);
        token.grantRead(notifications.function);
        notifications.function.addEnvironment('MESSAGING_DRIVER', 'twilio');
        notifications.function.addEnvironment('TWILIO_ACCOUNT_SID', props.twilio.accountSid);
        notifications.function.addEnvironment('TWILIO_AUTH_TOKEN_ARN', token.secretArn);
        if (props.twilio.smsFrom !== undefined) notifications.function.addEnvironment('TWILIO_SMS_FROM', props.twilio.smsFrom);
        if (props.twilio.whatsappFrom !== undefined) notifications.function.addEnvironment('TWILIO_WHATSAPP_FROM', props.twilio.whatsappFrom);
        if (props.twilio.webhookPublicBaseUrl !== undefined)
          notifications.function.addEnvironment('WEBHOOK_PUBLIC_BASE_URL', props.twilio.webhookPublicBaseUrl);
      }
    }

    const jobs = new Map<ScheduleName, ScheduledJob>();
    for (const definition of scheduleDefinitions) {
      jobs.set(
        definition.name,
        new ScheduledJob(this, `Job-${definition.name}`, {
          definition,
          stage: props.stage,
          table: props.table,
          alarmTopic: props.alarmTopic,
          size: { memorySize: definition.memoryMb, timeout: Duration.seconds(definition.timeoutSeconds) },
          sendsTo: sendersFor('jobs', definition.name),
        }),
      );
    }
    this.jobs = jobs;
    // The daily job re-checks pending sending domains: it reads their SES identities, nothing more.
    const daily = jobs.get('daily');
    if (daily !== undefined) bindEmailIdentities(daily.fn, this.email.fromAddress, ['ses:GetEmailIdentity']);
    // The every-minute job's check-custom-hostnames requests certificates and attaches active hostnames to the CDN.
    jobs.get('every-minute')?.fn.bindCustomHostnames(customHostnamesFor(props.stage, this.node), 'check');
  }
}
