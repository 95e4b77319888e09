import { CreateTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { tableDefinition } from '#data/table-definition';
import { createTableInput, deleteTable, ensureTable } from '#lib/local/dynamo-table';

const client = new DynamoDBClient({
  endpoint: process.env.DYNAMODB_ENDPOINT,
  region: 'us-east-1',
  credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
});

afterAll(() => client.destroy());

describe('the per-file test table', () => {
  it('exists on DynamoDB Local with every index of the table definition and its stream', async () => {
    // Act
    const { Table } = await client.send(new DescribeTableCommand({ TableName: process.env.TABLE_NAME }));
    // Assess
    expect(Table?.TableStatus).toBe('ACTIVE');
    expect(Table?.GlobalSecondaryIndexes?.map((index) => index.IndexName).sort()).toEqual(
      tableDefinition.globalSecondaryIndexes.map((index) => index.indexName).sort(),
    );
    expect(Table?.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' });
    expect(Table?.LatestStreamArn).toBeDefined();
  });

  it('gains the stream when a table kept from before it (a persistent DATA_DIR) is ensured', async () => {
    // Prepare: the table as older definitions created it, without a stream.
    const tableName = `${process.env.TABLE_NAME}-old`;
    const { StreamSpecification: _stream, ...withoutStream } = createTableInput(tableName);
    await client.send(new CreateTableCommand(withoutStream));
    try {
      // Act
      const outcome = await ensureTable(client, tableName);
      // Assess
      const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
      expect(outcome).toBe('existing');
      expect(Table?.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' });
    } finally {
      await deleteTable(client, tableName);
    }
  });
});
