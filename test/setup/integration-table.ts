import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { deleteTable, ensureTable } from '#lib/local/dynamo-table';

const client = new DynamoDBClient({
  endpoint: process.env.DYNAMODB_ENDPOINT,
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});
const tableName = process.env.TABLE_NAME as string;

// A test's time limit guards against a hang; it is not a speed assertion (speed is measured in
// `npm run bench`). 30 s rather than jest's 5 s, which one-request tests overran on busy CI
// machines; tests with long loops still set their own.
jest.setTimeout(30_000);

beforeAll(async () => {
  await ensureTable(client, tableName);
});

afterAll(async () => {
  await deleteTable(client, tableName);
  client.destroy();
});
