import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { GroupHandler } from '#api/group-handler';
import { routes } from '#api/routes';
import { startDynamoLocal } from './dynamo-local';
import { ensureTable } from './dynamo-table';
import { startLocalHttpServer } from './http-server';
import type { LocalRuntime } from './local-runtime';
import { type StackFile, stackFilePath } from './stack-file';

export interface LocalStackOptions {
  /** HTTP port; 0 picks a free one. @default 3000 */
  readonly port?: number;
  /** @default '127.0.0.1' */
  readonly host?: string;
  /** Persist DynamoDB data and the demo credentials here; in memory when absent. */
  readonly dataDir?: string;
  /** Use an already running DynamoDB Local instead of starting one (the test suite's). */
  readonly dynamoEndpoint?: string;
  /** @default 'recovery-local' */
  readonly tableName?: string;
  /** Where to write the stack file; null writes none. @default '.local/stack.json' */
  readonly stackFile?: string | null;
  /** Run the queue pollers and the scheduler on real timers. @default true */
  readonly background?: boolean;
  /**
   * Start the embedded mail catcher (maildev) and send email over SMTP into it (EMAIL_DRIVER
   * `smtp`, unless the environment picks another driver). `true` uses MAIL_CATCHER_SMTP_PORT /
   * MAIL_CATCHER_WEB_PORT or 1025 / 1080; ports given here (0: free ones) win. @default true
   */
  readonly mailCatcher?: boolean | { readonly smtpPort: number; readonly webPort: number };
}

export type { StackFile };

export interface LocalStack extends StackFile {
  readonly runtime: LocalRuntime;
  /** The mail catcher's web UI and REST API (`GET /api/email`), when it runs. */
  readonly mail_catcher_url?: string;
  /** Where the stack file was written, if anywhere. */
  readonly stackFilePath: string | null;
  stop(): Promise<void>;
}

interface DemoCredentials {
  readonly merchant_id: string;
  readonly api_key: string;
}

const DEMO_FILE = 'demo-credentials.json';

/**
 * The local stack of DESIGN §3: DynamoDB Local, the table from the shared definition, a demo
 * merchant with an admin key, the HTTP server over the route table, in-process queues and the
 * scheduler. The handlers are the Lambda handlers, loaded after the environment points them here.
 */
export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const tableName = options.tableName ?? 'recovery-local';
  const dynamo =
    options.dynamoEndpoint === undefined
      ? await startDynamoLocal(options.dataDir === undefined ? {} : { dataDir: join(options.dataDir, 'dynamodb') })
      : { endpoint: options.dynamoEndpoint, stop: async () => undefined };
  const stops: Array<() => Promise<void>> = [() => dynamo.stop()];
  const stop = async (): Promise<void> => {
    for (const step of stops.splice(0).reverse()) await step().catch(() => undefined);
  };
  try {
    process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
    process.env.TABLE_NAME = tableName;
    process.env.QUEUE_DRIVER = 'local';
    const defaultGateway = (process.env.DEFAULT_PAYMENT_GATEWAY ??= 'sandbox');
    process.env.AWS_REGION ??= 'us-east-1';

    const admin = new DynamoDBClient({
      endpoint: dynamo.endpoint,
      region: process.env.AWS_REGION,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    await ensureTable(admin, tableName);
    admin.destroy();

    // Unsubscribe links outlive a restart when the data does: their key is kept beside it. Without
    // a data folder, one key per start; the stack file hands it to the CLI (`npm run job`), whose
    // emails must carry links this server accepts.
    process.env.UNSUBSCRIBE_SIGNING_SECRET ??= options.dataDir === undefined ? randomBytes(32).toString('hex') : unsubscribeKey(options.dataDir);
    // Secrets at rest: AES-256-GCM under a key kept beside the data (like the unsubscribe key), so
    // sealed webhook secrets and CRM tokens still open after a restart. Loopback webhook receivers
    // are admitted here only (never on AWS).
    process.env.SECRET_BOX_DRIVER ??= 'local';
    process.env.SECRET_BOX_KEY ??= options.dataDir === undefined ? randomBytes(32).toString('base64') : keptKey(options.dataDir, SECRET_BOX_KEY_FILE, 'base64');
    process.env.WEBHOOK_ALLOW_LOOPBACK ??= 'true';
    // CRM OAuth states: one key for the stack and the operator CLI (the stack file hands it over),
    // kept beside the data so that an installation started before a restart still completes.
    process.env.CRM_STATE_SIGNING_SECRET ??=
      options.dataDir === undefined ? randomBytes(32).toString('hex') : keptKey(options.dataDir, CRM_STATE_KEY_FILE, 'hex');
    let mailCatcherUrl: string | undefined;
    const catcherOption = options.mailCatcher ?? true;
    if (catcherOption !== false) {
      const { startMailCatcher } = await import('./mail-catcher');
      const catcher = await startMailCatcher(catcherOption === true ? {} : catcherOption);
      stops.push(() => catcher.stop());
      process.env.EMAIL_DRIVER ??= 'smtp';
      process.env.SMTP_URL = catcher.smtpUrl;
      mailCatcherUrl = catcher.webUrl;
    }

    const demo = await demoCredentials(options.dataDir);
    // Imported only now: the runtime's modules read the environment set above.
    const { startLocalRuntime } = await import('./local-runtime');
    const runtime = await startLocalRuntime({ background: options.background ?? true });
    stops.push(() => runtime.stop());

    const handlers = new Map<string, Promise<GroupHandler>>();
    const loadHandler = (group: string): Promise<GroupHandler> => {
      let handler = handlers.get(group);
      if (handler === undefined) {
        handler = import(`../../functions/api/${group}/handler`).then((module: { handler: GroupHandler }) => module.handler);
        handlers.set(group, handler);
      }
      return handler;
    };
    const http = await startLocalHttpServer({ routes, loadHandler, port: options.port ?? 3000, ...(options.host ? { host: options.host } : {}) });
    stops.push(() => http.close());
    // Unsubscribe links point at the edge API, which this server serves too.
    process.env.EDGE_PUBLIC_BASE_URL ??= http.url;

    const stackFile: StackFile = {
      api_url: `${http.url}/api/v1`,
      dynamodb_endpoint: dynamo.endpoint,
      merchant_id: demo.merchant_id,
      api_key: demo.api_key,
      table_name: tableName,
      default_payment_gateway: defaultGateway,
      ...(mailCatcherUrl === undefined ? {} : { mail_catcher_url: mailCatcherUrl, smtp_url: process.env.SMTP_URL }),
      edge_url: process.env.EDGE_PUBLIC_BASE_URL,
      unsubscribe_signing_secret: process.env.UNSUBSCRIBE_SIGNING_SECRET,
      crm_state_signing_secret: process.env.CRM_STATE_SIGNING_SECRET,
      ...(process.env.SECRET_BOX_DRIVER === 'local' ? { secret_box_key: process.env.SECRET_BOX_KEY } : {}),
    };
    const stackPath = options.stackFile === undefined ? stackFilePath() : options.stackFile;
    if (stackPath !== null) writePrivate(stackPath, stackFile);
    return { ...stackFile, runtime, stackFilePath: stackPath, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

const UNSUBSCRIBE_KEY_FILE = 'unsubscribe-signing-key';

/** The unsubscribe tokens' key of a persistent local stack, made once and kept (mode 0600). */
function unsubscribeKey(dataDir: string): string {
  const file = join(dataDir, UNSUBSCRIBE_KEY_FILE);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const key = randomBytes(32).toString('hex');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}

const SECRET_BOX_KEY_FILE = 'secret-box-key';
const CRM_STATE_KEY_FILE = 'crm-state-signing-key';

/** A key of a persistent local stack, made once and kept (mode 0600). */
function keptKey(dataDir: string, name: string, encoding: 'hex' | 'base64'): string {
  const file = join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const key = randomBytes(32).toString(encoding);
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}

function writePrivate(path: string, content: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
}

/**
 * The demo merchant and its admin key. With a data folder they are kept across restarts: the
 * key's plaintext is kept beside the data (mode 0600) only because a local operator needs to see
 * it again; the table still holds only its hash.
 */
async function demoCredentials(dataDir: string | undefined): Promise<DemoCredentials> {
  const { createMerchant } = await import('#data/merchant-repository');
  const { createApiKey, findApiKeyByHash, isUsable } = await import('#data/api-key-repository');
  const { hashApiKey } = await import('#core/api-keys');
  const file = dataDir === undefined ? undefined : join(dataDir, DEMO_FILE);
  if (file !== undefined && existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as DemoCredentials;
    const record = await findApiKeyByHash(hashApiKey(saved.api_key));
    if (record !== undefined && isUsable(record, new Date()) && record.merchant_id === saved.merchant_id) return saved;
  }
  const merchant = await createMerchant({ name: 'Demo Merchant' });
  const { key } = await createApiKey({ merchantId: merchant.id, scopes: ['admin'], mode: 'test' });
  const demo = { merchant_id: merchant.id, api_key: key };
  if (file !== undefined) writePrivate(file, demo);
  return demo;
}
