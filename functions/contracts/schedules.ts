import type { QueueName } from './queues';

/**
 * The EventBridge Scheduler schedules, described once for the CDK jobs stack and the local
 * scheduler. Each invokes the job handler `functions/jobs/<name>.ts`. Pure data.
 */
export interface ScheduleDefinition {
  readonly name: 'every-minute' | 'hourly' | 'daily';
  /** EventBridge Scheduler expression, evaluated in UTC. */
  readonly expression: string;
  /** The same cadence for the local scheduler. */
  readonly every: { readonly unit: 'minute' | 'hour' | 'day'; readonly atUtcHour?: number };
  /** The tasks the job runs, in order (spec: Scheduled processing). */
  readonly tasks: readonly string[];
  readonly memoryMb: number;
  /** The job's Lambda timeout. */
  readonly timeoutSeconds: number;
  /** The only queues the job may send to (least privilege: grant and URL variable). */
  readonly sendsTo: readonly QueueName[];
}

export const scheduleDefinitions: readonly ScheduleDefinition[] = [
  {
    name: 'every-minute',
    expression: 'rate(1 minute)',
    every: { unit: 'minute' },
    // flush-notifications releases the due scheduled messages of every channel (email, SMS,
    // WhatsApp: quiet hours, held while sending is paused, campaign steps) to `notifications`; it
    // was called dispatch-messages before the channels were folded into one queue.
    // dispatch-due-webhooks enqueues the webhook retries that wait longer than the queue's 15-minute delay.
    // check-custom-hostnames re-checks the DNS of pending (backoff, 7 days) and active (daily) custom hostnames.
    tasks: ['flush-notifications', 'execute-due-retries', 'dispatch-due-webhooks', 'check-custom-hostnames'],
    // Must finish before the next run starts.
    memoryMb: 1024,
    timeoutSeconds: 55,
    // flush-notifications enqueues; execute-due-retries emits events; dispatch-due-webhooks enqueues webhook retries.
    sendsTo: ['notifications', 'outbound-deliveries'],
  },
  {
    name: 'hourly',
    expression: 'cron(0 * * * ? *)',
    every: { unit: 'hour' },
    tasks: ['advance-campaign-steps', 'analytics-rollup'],
    memoryMb: 1024,
    timeoutSeconds: 5 * 60,
    // advance-campaign-steps enqueues its messages' send_message.
    sendsTo: ['notifications'],
  },
  {
    name: 'daily',
    expression: 'cron(0 8 * * ? *)',
    every: { unit: 'day', atUtcHour: 8 },
    tasks: [
      'card-expiry-checks',
      'pre-dunning-notifications',
      'pending-domain-provisioning',
      'domain-warm-up',
      'retention-cleanup',
      'billing-metering',
      // Cancel flows' save rate: saves re-checked 30 days after the session (docs/cancel-flows.md).
      'cancel-save-recheck',
    ],
    memoryMb: 1024,
    timeoutSeconds: 15 * 60,
    sendsTo: [],
  },
];

export type ScheduleName = ScheduleDefinition['name'];

/**
 * The payload every job receives. On AWS the schedule's Input fills the `<aws.scheduler.*>`
 * context attributes; the local scheduler fills the same fields itself.
 */
export interface ScheduledJobEvent {
  readonly schedule: ScheduleName;
  /** ISO 8601 time the run was scheduled for. */
  readonly scheduled_time: string;
  readonly execution_id: string;
  readonly attempt_number: number | string;
  readonly schedule_arn: string;
}

/** The Input template of the EventBridge Scheduler target for one schedule (a JSON string). */
export const scheduledJobInputTemplate = (schedule: ScheduleName): string =>
  `{"schedule":"${schedule}","scheduled_time":"<aws.scheduler.scheduled-time>","execution_id":"<aws.scheduler.execution-id>","attempt_number":<aws.scheduler.attempt-number>,"schedule_arn":"<aws.scheduler.schedule-arn>"}`;
