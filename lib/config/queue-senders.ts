import type { QueueName } from '../../functions/consumers/queue-definitions';
import type { ScheduleName } from '../../functions/jobs/schedule-definitions';

/**
 * Who may send to which queue (least privilege). Only these get `grantSendMessages` and the
 * queue's URL variable; every other function cannot enqueue at all. Keys are route-table groups,
 * schedule names and consumer (queue) names.
 */
export const queueSenders = {
  api: {
    // Answers the provider fast and leaves normalising to the inbound consumer (DESIGN §2).
    'provider-webhooks': ['inbound-webhooks'],
    // Dunning messages and the resulting merchant webhook events.
    recoveries: ['notifications', 'outbound-deliveries'],
    ingest: ['notifications', 'outbound-deliveries'],
    // "Send a test event" goes through the normal signed delivery path.
    'webhook-endpoints': ['outbound-deliveries'],
  },
  jobs: {
    // flush-notifications and dispatch-messages enqueue; execute-due-retries emits events.
    'every-minute': ['notifications', 'outbound-deliveries'],
  },
  consumers: {
    // A normalised payment event starts dunning and is announced to the merchant.
    'inbound-webhooks': ['outbound-deliveries', 'notifications'],
  },
} as const satisfies {
  readonly api: Readonly<Record<string, readonly QueueName[]>>;
  readonly jobs: Partial<Readonly<Record<ScheduleName, readonly QueueName[]>>>;
  readonly consumers: Partial<Readonly<Record<QueueName, readonly QueueName[]>>>;
};

export type SenderKind = keyof typeof queueSenders;

/** The queues one API group, job or consumer may send to; none unless listed above. */
export function queuesSentToBy(kind: SenderKind, name: string): readonly QueueName[] {
  const byName: Readonly<Record<string, readonly QueueName[] | undefined>> = queueSenders[kind];
  return byName[name] ?? [];
}
