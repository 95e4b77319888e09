import type { ItemKey } from '../keys';

/**
 * What one item of the table contributes to one counter item: counters added (DynamoDB `ADD`)
 * and the attributes that describe the counter item (`SET`, the same on every contribution to
 * it: entity type, merchant, bucket, dimensions).
 */
export interface CounterContribution {
  readonly key: ItemKey;
  readonly counters: Readonly<Record<string, number>>;
  readonly attributes?: Readonly<Record<string, unknown>>;
}

/**
 * A projection maps an item image (as stored: plain attributes, unmarshalled) to what it
 * contributes to counter items, and to nothing for items it does not count. The stream consumer
 * applies, for each change, the contributions of the new image minus those of the old one (an
 * insert has no old image, a removal no new one), so a counter is always the sum of the
 * contributions of the items that exist; the hourly recompute sums the same contributions over the
 * source items and compares.
 *
 * A projection is pure: no reads, no clock. Everything it counts must be on the item.
 */
export type Projection = (item: Readonly<Record<string, unknown>>) => readonly CounterContribution[];
