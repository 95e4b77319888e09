import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDynamoLocal } from '#lib/local/dynamo-local';

export const DYNAMO_STATE_FILE = join(__dirname, '..', '..', '.local', 'test-dynamo.json');

/** Starts DynamoDB Local once for the whole run; test files each get their own table. */
export default async function globalSetup(): Promise<void> {
  const dynamo = await startDynamoLocal();
  (globalThis as { __dynamoLocal?: typeof dynamo }).__dynamoLocal = dynamo;
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  mkdirSync(join(DYNAMO_STATE_FILE, '..'), { recursive: true });
  writeFileSync(DYNAMO_STATE_FILE, JSON.stringify({ endpoint: dynamo.endpoint }));
}
