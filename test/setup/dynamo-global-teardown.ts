import type { DynamoLocal } from '#lib/local/dynamo-local';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __dynamoLocal?: DynamoLocal }).__dynamoLocal?.stop();
}
