/**
 * The event types an automation hook may name, resolved to the fact they report: its canonical
 * name (the one subscriptions are stored under) and every name of it (A's and B's), which the poll
 * reads. STOPGAP until the webhooks event catalogue (functions/core/webhooks/events.ts) is merged:
 * the facts the service records today (functions/services/attempt-retry.ts).
 */
export interface EventTypeNames {
  readonly canonical: string;
  readonly names: readonly string[];
}

const FACTS: readonly (readonly string[])[] = [
  ['recovery.retry_attempted'],
  ['recovery.retry_scheduled'],
  ['payment.recovered', 'recovery.succeeded'],
  ['payment.terminal', 'recovery.failed'],
];

/** The fact a name (A or B) reports, or undefined for a name no fact has. */
export function resolveEventType(name: string): EventTypeNames | undefined {
  const names = FACTS.find((fact) => fact.includes(name));
  return names === undefined ? undefined : { canonical: names[0] as string, names };
}

export const isKnownEventType = (name: string): boolean => resolveEventType(name) !== undefined;
