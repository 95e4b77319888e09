import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { startDynamoLocal } from '#lib/local/dynamo-local';
import { ensureTable } from '#lib/local/dynamo-table';

export interface BenchStack {
  readonly endpoint: string;
  readonly tableName: string;
  stop(): Promise<void>;
}

/**
 * The bench's own DynamoDB Local (in memory, a free port) and table, with the environment the
 * functions read at import. Nothing from functions/ may be imported before this has returned.
 */
export async function startBenchStack(): Promise<BenchStack> {
  const local = await startDynamoLocal();
  try {
    const tableName = 'recovery-bench';
    Object.assign(process.env, {
      DYNAMODB_ENDPOINT: local.endpoint,
      TABLE_NAME: tableName,
      QUEUE_DRIVER: 'local',
      DEFAULT_PAYMENT_GATEWAY: 'sandbox',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    });
    process.env.AWS_REGION ??= 'us-east-1';
    const admin = new DynamoDBClient({
      endpoint: local.endpoint,
      region: process.env.AWS_REGION,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    try {
      await ensureTable(admin, tableName);
    } finally {
      admin.destroy();
    }
    return { endpoint: local.endpoint, tableName, stop: () => local.stop() };
  } catch (error) {
    await local.stop();
    throw error;
  }
}
