/**
 * The SQS queues, described once for the CDK data stack and the local in-process queues.
 * Every queue has a dead-letter queue that receives a message after `maxReceiveCount` failed
 * receives. Pure data.
 */
export type QueueName = 'inbound-webhooks' | 'outbound-deliveries' | 'notifications';

export interface QueueDefinition {
  /** Logical name; also the consumer's file name under functions/consumers/. */
  readonly name: QueueName;
  /** The environment variable that carries the queue URL to producers. */
  readonly urlEnv: 'INBOUND_WEBHOOK_QUEUE_URL' | 'OUTBOUND_DELIVERY_QUEUE_URL' | 'NOTIFICATION_QUEUE_URL';
  readonly visibilityTimeoutSeconds: number;
  readonly maxReceiveCount: number;
  readonly batchSize: number;
  /** How long the DLQ keeps a message for inspection and redrive. */
  readonly dlqRetentionDays: number;
  readonly description: string;
  /** The only queues the consumer may send to (least privilege: grant and URL variable). */
  readonly consumerSendsTo: readonly QueueName[];
}

export const queueDefinitions: readonly QueueDefinition[] = [
  {
    name: 'inbound-webhooks',
    urlEnv: 'INBOUND_WEBHOOK_QUEUE_URL',
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
    batchSize: 10,
    dlqRetentionDays: 14,
    description: 'Verified provider webhooks waiting to be normalised into payment events',
    // A normalised payment event starts dunning and is announced to the merchant.
    consumerSendsTo: ['outbound-deliveries', 'notifications'],
  },
  {
    name: 'outbound-deliveries',
    urlEnv: 'OUTBOUND_DELIVERY_QUEUE_URL',
    // A receiver may take the whole 15 s the delivery client allows: the consumer needs 30 s (a sixth of this).
    visibilityTimeoutSeconds: 180,
    maxReceiveCount: 5,
    batchSize: 10,
    dlqRetentionDays: 14,
    description: 'Signed webhook deliveries to merchant endpoints and automation hooks, one message per event × target × attempt',
    // A failed attempt's retry (a wait up to 15 min) is this queue's own delayed message.
    consumerSendsTo: ['outbound-deliveries'],
  },
  {
    name: 'notifications',
    urlEnv: 'NOTIFICATION_QUEUE_URL',
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
    batchSize: 10,
    dlqRetentionDays: 14,
    description: 'Dunning emails, SMS and WhatsApp messages to send',
    consumerSendsTo: [],
  },
];
