import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { tableDefinition } from '#data/table-definition';

describe('the per-file test table', () => {
  it('exists on DynamoDB Local with every index of the table definition', async () => {
    // Prepare
    const client = new DynamoDBClient({
      endpoint: process.env.DYNAMODB_ENDPOINT,
      region: 'us-east-1',
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    });
    // Act
    const { Table } = await client.send(new DescribeTableCommand({ TableName: process.env.TABLE_NAME }));
    // Assess
    expect(Table?.TableStatus).toBe('ACTIVE');
    expect(Table?.GlobalSecondaryIndexes?.map((index) => index.IndexName).sort()).toEqual(
      tableDefinition.globalSecondaryIndexes.map((index) => index.indexName).sort(),
    );
    client.destroy();
  });
});
