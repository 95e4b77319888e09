import type { CounterContribution, Projection } from './projection';

/**
 * What one change of an item adds to counter items: the contributions of its new image minus
 * those of its old one (an insert has no old image, a removal no new one), summed per counter
 * item. Counters whose difference is zero are dropped, and so are counter items left with none:
 * a change that moves nothing (a timeline entry, a counter item's own update) costs no write.
 * The attributes of a counter item are those of the new image's contribution, else the old one's.
 */
export function incrementsOf(
  projections: readonly Projection[],
  oldImage: Readonly<Record<string, unknown>> | undefined,
  newImage: Readonly<Record<string, unknown>> | undefined,
): CounterContribution[] {
  const negated = (oldImage === undefined ? [] : projections.flatMap((projection) => projection(oldImage))).map((contribution) => ({
    ...contribution,
    counters: Object.fromEntries(Object.entries(contribution.counters).map(([name, value]) => [name, -value])),
  }));
  // The new image's contributions come last, so their attributes are the ones kept.
  return mergeIncrements([...negated, ...(newImage === undefined ? [] : projections.flatMap((projection) => projection(newImage)))]);
}

/**
 * Increments summed per counter item (a chunk of a transaction: one Update per item), zeros
 * dropped; each item keeps the attributes of its last increment that has some.
 */
export function mergeIncrements(increments: readonly CounterContribution[]): CounterContribution[] {
  const merged = new Map<string, { key: CounterContribution['key']; counters: Record<string, number>; attributes?: Readonly<Record<string, unknown>> }>();
  for (const increment of increments) {
    const id = `${increment.key.PK}\u0000${increment.key.SK}`;
    let entry = merged.get(id);
    if (entry === undefined) {
      entry = { key: increment.key, counters: {} };
      merged.set(id, entry);
    }
    if (increment.attributes !== undefined) entry.attributes = increment.attributes;
    for (const [name, value] of Object.entries(increment.counters)) entry.counters[name] = (entry.counters[name] ?? 0) + value;
  }
  const result: CounterContribution[] = [];
  for (const { key, counters, attributes } of merged.values()) {
    const nonZero = Object.fromEntries(Object.entries(counters).filter(([, value]) => value !== 0));
    if (Object.keys(nonZero).length === 0) continue;
    result.push(attributes === undefined ? { key, counters: nonZero } : { key, counters: nonZero, attributes });
  }
  return result;
}
