/**
 * The single table, described once. The CDK `Table` (lib/constructs/single-table.ts) and the
 * DynamoDB Local `CreateTable` (lib/local/dynamo-table.ts) are both built from this constant.
 * Pure data: no AWS SDK or CDK imports.
 */
export interface KeyAttribute {
  readonly name: string;
  readonly type: 'S' | 'N';
}

export interface IndexDefinition {
  readonly indexName: string;
  readonly partitionKey: KeyAttribute;
  readonly sortKey: KeyAttribute;
}

export interface TableDefinition {
  readonly partitionKey: KeyAttribute;
  readonly sortKey: KeyAttribute;
  /** Every index projects all attributes. */
  readonly globalSecondaryIndexes: readonly IndexDefinition[];
  /** Epoch seconds; DynamoDB deletes expired items (stored webhook payloads, idempotency records). */
  readonly timeToLiveAttribute: string;
  /** Attribute naming the entity of every item. */
  readonly entityTypeAttribute: string;
  /**
   * The table's stream: every change with both images, read by the table-stream consumer
   * (functions/consumers/table-stream.ts), which maintains counters and rollups from it.
   */
  readonly streamViewType: 'NEW_AND_OLD_IMAGES';
}

const s = (name: string): KeyAttribute => ({ name, type: 'S' });

export const tableDefinition: TableDefinition = {
  partitionKey: s('PK'),
  sortKey: s('SK'),
  globalSecondaryIndexes: [
    { indexName: 'GSI1', partitionKey: s('GSI1PK'), sortKey: s('GSI1SK') },
    { indexName: 'GSI2', partitionKey: s('GSI2PK'), sortKey: s('GSI2SK') },
    { indexName: 'GSI3', partitionKey: s('GSI3PK'), sortKey: s('GSI3SK') },
    { indexName: 'GSI4', partitionKey: s('GSI4PK'), sortKey: s('GSI4SK') },
  ],
  timeToLiveAttribute: 'expires_at',
  entityTypeAttribute: 'entity',
  streamViewType: 'NEW_AND_OLD_IMAGES',
};
