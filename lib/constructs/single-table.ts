import { AttributeType, BillingMode, type ITable, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { type KeyAttribute, type TableDefinition, tableDefinition } from '#data/table-definition';
import { keepsData, removalPolicyFor, type StageName } from '#lib/config/stages';

export interface SingleTableProps {
  /** @default - none; required */
  readonly stage: StageName;
  /** @default tableDefinition (functions/data/table-definition.ts), shared with DynamoDB Local */
  readonly definition?: TableDefinition;
}

const attribute = (key: KeyAttribute) => ({
  name: key.name,
  type: key.type === 'S' ? AttributeType.STRING : AttributeType.NUMBER,
});

/**
 * The single table (DESIGN §2), built from the same definition as the local table. Its construct
 * ids are fixed: a changed logical id would make CloudFormation replace the table and its data.
 */
export class SingleTable extends Construct {
  readonly table: ITable;

  constructor(scope: Construct, id: string, props: SingleTableProps) {
    super(scope, id);
    const definition = props.definition ?? tableDefinition;
    const table = new Table(this, 'Table', {
      partitionKey: attribute(definition.partitionKey),
      sortKey: attribute(definition.sortKey),
      billingMode: BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: definition.timeToLiveAttribute,
      // Read by the table-stream consumer (counters and analytics rollups).
      stream: StreamViewType[definition.streamViewType],
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: keepsData(props.stage),
      removalPolicy: removalPolicyFor(props.stage),
    });
    for (const index of definition.globalSecondaryIndexes) {
      table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: attribute(index.partitionKey),
        sortKey: attribute(index.sortKey),
      });
    }
    this.table = table;
  }
}
