import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { deleteTable, ensureTable } from '#lib/local/dynamo-table';

const client = new DynamoDBClient({
  endpoint: process.env.DYNAMODB_ENDPOINT,
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});
const tableName = process.env.TABLE_NAME as string;

beforeAll(async () => {
  await ensureTable(client, tableName);
});

afterAll(async () => {
  await deleteTable(client, tableName);
  client.destroy();
});
