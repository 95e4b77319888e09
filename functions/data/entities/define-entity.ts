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
 *
 * Items written only by UpdateItem expressions (settings, provider secrets, counters, rate-limit
 * windows, Idempotency-Key records, erasure tombstones) are not entities: no command writes or
 * reads them as a whole record, so there is no record to map.
 */

/** The index attributes of the table (table-definition.ts): GSI1 ... GSI4, each a pair. */
export type IndexAttributes = Partial<Record<'GSI1PK' | 'GSI1SK' | 'GSI2PK' | 'GSI2SK' | 'GSI3PK' | 'GSI3SK' | 'GSI4PK' | 'GSI4SK', string>>;

type Item = Record<string, unknown>;

/** Attributes that belong to the item, not to the record: dropped by fromItem. */
const STORAGE_ATTRIBUTES = ['PK', 'SK', 'entity', 'GSI1PK', 'GSI1SK', 'GSI2PK', 'GSI2SK', 'GSI3PK', 'GSI3SK', 'GSI4PK', 'GSI4SK'] as const;

/**
 * The definition of an entity over `R`, the record its items hold (every attribute the item is
 * written with besides key, `entity` and index attributes). `P`, its place, is what its key and
 * indexes name beyond the record's own fields (the key's hash, the merchant of an item that does not
 * store its merchant id): given to toItem, never stored as attributes. `Read` is the record fromItem
 * gives back: R without its `internal` attributes.
 */
export interface EntityDefinition<R extends object, P = void, Read extends object = R> {
  /** The `entity` attribute of every item of this type (keys.ts ENTITY). */
  readonly name: string;
  /** The item's primary key. */
  readonly key: (record: R, place: P) => ItemKey;
  /**
   * Its index attributes: the list patterns it is found by, and its erasure tag (GSI2, the
   * customer's data partition) when it belongs to a customer. Sparse indexes are left out when
   * the record is not in them.
   */
  readonly indexes?: (record: R, place: P) => IndexAttributes;
  /**
   * Attributes kept on the item and not read back: those other commands add for their conditions,
   * and those of R that only the table uses (the TTL attribute `expires_at`).
   */
  readonly internal?: readonly string[];
  /** The record from the item's own attributes: defaults for fields added since older items were written. */
  readonly parse?: (attributes: Item) => Read;
}

/** An item read as an entity it is not (a key built for one type that found another). */
export class EntityMismatchError extends Error {
  constructor(expected: string, found: unknown) {
    super(`Expected a ${expected} item, found ${typeof found === 'string' ? `a ${found}` : 'an item without entity'}`);
    this.name = 'EntityMismatchError';
  }
}

export interface Entity<R extends object, P = void, Read extends object = R> {
  readonly name: string;
  readonly key: (record: R, place: P) => ItemKey;
  /** The item to write: key, entity, the record's fields, index attributes. */
  toItem(record: R, place: P): Item;
  /** The record of a stored item of this entity; EntityMismatchError for another entity's item. */
  fromItem(item: Item): Read;
}

export function defineEntity<R extends object, P = void, Read extends object = R>(definition: EntityDefinition<R, P, Read>): Entity<R, P, Read> {
  const dropped = new Set<string>([...STORAGE_ATTRIBUTES, ...(definition.internal ?? [])]);
  return {
    name: definition.name,
    key: definition.key,
    toItem: (record, place) => ({ ...definition.key(record, place), entity: definition.name, ...record, ...definition.indexes?.(record, place) }),
    fromItem: (item) => {
      if (item.entity !== definition.name) throw new EntityMismatchError(definition.name, item.entity);
      const attributes: Item = {};
      for (const [name, value] of Object.entries(item)) if (!dropped.has(name)) attributes[name] = value;
      return definition.parse === undefined ? (attributes as Read) : definition.parse(attributes);
    },
  };
}
