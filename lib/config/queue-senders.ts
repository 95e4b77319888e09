import { apiGroup } from '#api/groups';
import { type QueueName, queueDefinitions } from '#contracts/queues';
import { scheduleDefinitions } from '#contracts/schedules';

export type SenderKind = 'api' | 'jobs' | 'consumers';

function named<T extends { readonly name: string }>(definitions: readonly T[], name: string): T {
  const definition = definitions.find((entry) => entry.name === name);
  if (definition === undefined) throw new Error(`No definition named "${name}"`);
  return definition;
}

/**
 * The queues one API group, job or consumer may send to (least privilege): only these get
 * `grantSendMessages` and the queue's URL variable. Each kind declares them where it is defined:
 * the group registry, the schedule definitions and the queue definitions.
 */
export function queuesSentToBy(kind: SenderKind, name: string): readonly QueueName[] {
  switch (kind) {
    case 'api':
      return apiGroup(name).sendsTo ?? [];
    case 'jobs':
      return named(scheduleDefinitions, name).sendsTo;
    case 'consumers':
      return named(queueDefinitions, name).consumerSendsTo;
  }
}
