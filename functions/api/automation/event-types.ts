import { catalogueEntry, isEventType, namesOf } from '#core/webhooks/events';

/**
 * The event types an automation hook may name (the webhooks event catalogue), resolved to the fact
 * they report: its canonical name (A's when A has one: the name subscriptions are stored under)
 * and every name of it (A's and B's), which the poll reads.
 */
export interface EventTypeNames {
  readonly canonical: string;
  readonly names: readonly string[];
}

/** The fact a name (A or B) reports, or undefined for a name outside the catalogue. */
export function resolveEventType(name: string): EventTypeNames | undefined {
  const entry = catalogueEntry(name);
  if (entry === undefined) return undefined;
  const names = namesOf(entry);
  return { canonical: names[0] as string, names };
}

export const isKnownEventType = isEventType;
