import type { ItemKey } from '../keys';

/**
 * One definition per item type of the single table (DESIGN §2: "entities"): which `entity` value
 * its items carry, how its primary key and its index keys are built from the record (key FORMATS
 * live in keys.ts; an entity only says which builders apply), and how a stored item is read back
 * into the record. Repositories write `entity.toItem(record)` and read `entity.fromItem(item)`
 * instead of mapping attributes by hand.
 *
 * Modelled on ElectroDB's entities (`model.entity`, `indexes`) and DynamoDB-Toolbox's, kept to
 * what this table needs: no query builder (repositories keep their commands, whose conditions and
 * transactions are the point of each repository), no attribute renaming (items are the records'
 * fields, as they always were, so items already stored read unchanged).
 */

/** The index attributes of the table (table-definition.ts): GSI1 ... GSI4, each a pair. */
export type IndexAttributes = Partial<Record<'GSI1PK' | 'GSI1SK' | 'GSI2PK' | 'GSI2SK' | 'GSI3PK' | 'GSI3SK' | 'GSI4PK' | 'GSI4SK', string>>;

type Item = Record<string, unknown>;

/** Attributes that belong to the item, not to the record: dropped by fromItem. */
const STORAGE_ATTRIBUTES = ['PK', 'SK', 'entity', 'GSI1PK', 'GSI1SK', 'GSI2PK', 'GSI2SK', 'GSI3PK', 'GSI3SK', 'GSI4PK', 'GSI4SK'] as const;

export interface EntityDefinition<R> {
  /** The `entity` attribute of every item of this type (keys.ts ENTITY). */
  readonly name: string;
  /** The item's primary key. */
  readonly key: (record: R) => ItemKey;
  /**
   * Its index attributes: the list patterns it is found by, and its erasure tag (GSI2, the
   * customer's data partition) when it belongs to a customer. Sparse indexes are left out when
   * the record is not in them.
   */
  readonly indexes?: (record: R) => IndexAttributes;
  /** Attributes of the record that are kept on the item only for conditions, and not read back. */
  readonly internal?: readonly string[];
  /** The record from the item's own attributes: defaults for fields added since older items were written. */
  readonly parse?: (attributes: Item) => R;
}

/** An item read as an entity it is not (a key built for one type that found another). */
export class EntityMismatchError extends Error {
  constructor(expected: string, found: unknown) {
    super(`Expected a ${expected} item, found ${typeof found === 'string' ? `a ${found}` : 'an item without entity'}`);
    this.name = 'EntityMismatchError';
  }
}

export interface Entity<R> {
  readonly name: string;
  readonly key: (record: R) => ItemKey;
  /** The item to write: key, entity, the record's fields, index attributes. */
  toItem(record: R): Item;
  /** The record of a stored item of this entity; EntityMismatchError for another entity's item. */
  fromItem(item: Item): R;
}

export function defineEntity<R extends object>(definition: EntityDefinition<R>): Entity<R> {
  const dropped = new Set<string>([...STORAGE_ATTRIBUTES, ...(definition.internal ?? [])]);
  return {
    name: definition.name,
    key: definition.key,
    toItem: (record) => ({ ...definition.key(record), entity: definition.name, ...record, ...definition.indexes?.(record) }),
    fromItem: (item) => {
      if (item.entity !== definition.name) throw new EntityMismatchError(definition.name, item.entity);
      const attributes: Item = {};
      for (const [name, value] of Object.entries(item)) if (!dropped.has(name)) attributes[name] = value;
      return definition.parse === undefined ? (attributes as R) : definition.parse(attributes);
    },
  };
}
