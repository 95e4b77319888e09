import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// Runs before each integration test file's imports: point the runtime at DynamoDB Local and give
// the file a table of its own, so files never see each other's items.
const stateFile = join(__dirname, '..', '..', '.local', 'test-dynamo.json');
process.env.DYNAMODB_ENDPOINT ??= (JSON.parse(readFileSync(stateFile, 'utf8')) as { endpoint: string }).endpoint;
const endpoint = new URL(process.env.DYNAMODB_ENDPOINT);
if (!['127.0.0.1', 'localhost', '[::1]'].includes(endpoint.hostname)) {
  throw new Error(`Integration tests run only against DynamoDB Local on loopback, not ${endpoint.host}`);
}
process.env.TABLE_NAME = `test-${process.env.JEST_WORKER_ID ?? '0'}-${randomBytes(6).toString('hex')}`;
process.env.AWS_REGION = 'us-east-1';
process.env.QUEUE_DRIVER = 'local';
process.env.DEFAULT_PAYMENT_GATEWAY = 'sandbox';
// Tests apply the table's stream only when they drain it: the hourly recompute reports drift at once.
process.env.ROLLUP_DRIFT_CONFIRM_MS ??= '0';
process.env.LOG_LEVEL ??= 'silent';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
