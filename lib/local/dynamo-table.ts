import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceNotFoundException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { tableDefinition } from '#data/table-definition';

/** The local table, created from the same definition as the CDK table. */
export function createTableInput(tableName: string) {
  const def = tableDefinition;
  const attributes = new Map<string, 'S' | 'N'>();
  for (const key of [def.partitionKey, def.sortKey, ...def.globalSecondaryIndexes.flatMap((i) => [i.partitionKey, i.sortKey])]) {
    attributes.set(key.name, key.type);
  }
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: [...attributes].map(([AttributeName, AttributeType]) => ({ AttributeName, AttributeType })),
    KeySchema: [
      { AttributeName: def.partitionKey.name, KeyType: 'HASH' as const },
      { AttributeName: def.sortKey.name, KeyType: 'RANGE' as const },
    ],
    StreamSpecification: { StreamEnabled: true, StreamViewType: def.streamViewType },
    GlobalSecondaryIndexes: def.globalSecondaryIndexes.map((index) => ({
      IndexName: index.indexName,
      KeySchema: [
        { AttributeName: index.partitionKey.name, KeyType: 'HASH' as const },
        { AttributeName: index.sortKey.name, KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: 'ALL' as const },
    })),
  };
}

/** Creates the table unless it exists (a persistent DATA_DIR keeps it across restarts). */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<'created' | 'existing'> {
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    await addMissingIndexes(client, tableName, new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName)));
    if (Table?.StreamSpecification?.StreamEnabled !== true) await enableStream(client, tableName);
    return 'existing';
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  await client.send(new CreateTableCommand(createTableInput(tableName)));
  await waitUntilTableExists({ client, maxWaitTime: 30 }, { TableName: tableName });
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: tableDefinition.timeToLiveAttribute, Enabled: true },
    }),
  );
  return 'created';
}

/** A table kept in DATA_DIR from an older definition gains the indexes added since, one at a time as DynamoDB requires. */
async function addMissingIndexes(client: DynamoDBClient, tableName: string, existing: ReadonlySet<string | undefined>): Promise<void> {
  const input = createTableInput(tableName);
  for (const index of input.GlobalSecondaryIndexes) {
    if (existing.has(index.IndexName)) continue;
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: input.AttributeDefinitions,
        GlobalSecondaryIndexUpdates: [{ Create: index }],
      }),
    );
    await waitUntilTableExists({ client, maxWaitTime: 30 }, { TableName: tableName });
  }
}

/** A table kept in DATA_DIR from before the stream existed gains it (the consumer reads from its start). */
async function enableStream(client: DynamoDBClient, tableName: string): Promise<void> {
  await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: createTableInput(tableName).StreamSpecification }));
  await waitUntilTableExists({ client, maxWaitTime: 30 }, { TableName: tableName });
}

export async function deleteTable(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    await client.send(new DeleteTableCommand({ TableName: tableName }));
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
}
