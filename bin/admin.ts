/**
 * Operator CLI (DESIGN §3): merchants, API keys and providers' webhook secrets, written straight
 * to the table. JSON on stdout; a one-line error on stderr, exit 2 for bad arguments (including
 * an unknown merchant or key) and 1 for anything else.
 *
 *   npm run --silent admin -- merchants create --name "Acme" [--plan engine]
 *   npm run --silent admin -- merchants list
 *   npm run --silent admin -- keys create --merchant <id> --scopes read,write [--expires-in 3600] [--mode live|test]
 *   npm run --silent admin -- keys revoke <key id>
 *   npm run --silent admin -- keys list --merchant <id>
 *   npm run --silent admin -- providers set-secret --merchant <id> --psp stripe --secret whsec_...
 *   npm run --silent admin -- providers set-api-key --merchant <id> --psp mollie --key live_...
 *   npm run --silent admin -- gateways set --merchant <id> --psp stripe --gateway stripe|sandbox
 *
 * The table is TABLE_NAME (with DYNAMODB_ENDPOINT locally, the SDK's defaults on AWS); without
 * TABLE_NAME, the local stack's `.local/stack.json` gives the table and the endpoint.
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { API_KEY_MODES, type ApiKeyMode, parseScopes } from '../functions/core/api-keys';
import { AppError } from '../functions/core/errors';
import { NewMerchantSchema } from '../functions/core/merchants';
import { GATEWAY_NAMES, isGatewayName } from '../functions/core/payment-gateway';
import { isPsp, PSPS } from '../functions/core/providers';
import { useLocalStackEnvironment } from '../lib/local/stack-file';

class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

type Repositories = typeof import('../functions/data/merchant-repository') &
  typeof import('../functions/data/api-key-repository') &
  typeof import('../functions/data/provider-secret-repository') &
  typeof import('../functions/data/gateway-config-repository');
type Values = Record<string, string | undefined>;
/** Checks the arguments before anything touches the table, then returns the work to do. */
type Command = {
  readonly options: NonNullable<ParseArgsConfig['options']>;
  readonly positionals: readonly string[];
  readonly prepare: (values: Values, positionals: string[]) => (repos: Repositories) => Promise<unknown>;
};

const COMMAND_NAMES = 'merchants create | merchants list | keys create | keys revoke | keys list | providers set-secret | providers set-api-key | gateways set';
const USAGE = [
  'merchants create --name <name> [--plan engine|recovery|command|enterprise]',
  'merchants list',
  'keys create --merchant <id> --scopes <scope,...> [--expires-in <seconds>] [--mode live|test]',
  'keys revoke <key id>',
  'keys list --merchant <id>',
  `providers set-secret --merchant <id> --psp <${PSPS.join('|')}> --secret <secret>`,
  `providers set-api-key --merchant <id> --psp <${PSPS.join('|')}> --key <provider API key>`,
  `gateways set --merchant <id> --psp <${PSPS.join('|')}> --gateway <${GATEWAY_NAMES.join('|')}>`,
];

function required(values: Values, name: string): string {
  const value = values[name];
  if (value === undefined || value.trim() === '') throw new UsageError(`missing --${name}`);
  return value;
}

async function existingMerchant(repos: Repositories, merchantId: string): Promise<void> {
  if ((await repos.getMerchant(merchantId)) === undefined) throw new UsageError(`unknown merchant "${merchantId}"`);
}

const commands: Record<string, Command> = {
  'merchants create': {
    options: { name: { type: 'string' }, plan: { type: 'string' } },
    positionals: [],
    prepare: (values) => {
      const parsed = NewMerchantSchema.safeParse({ name: required(values, 'name'), plan_tier: values.plan });
      if (!parsed.success) {
        throw new UsageError(parsed.error.issues.map((issue) => `--${issue.path[0] === 'plan_tier' ? 'plan' : 'name'}: ${issue.message}`).join('; '));
      }
      return (repos) => repos.createMerchant(parsed.data);
    },
  },
  'merchants list': { options: {}, positionals: [], prepare: () => (repos) => repos.listMerchants() },
  'keys create': {
    options: { merchant: { type: 'string' }, scopes: { type: 'string' }, 'expires-in': { type: 'string' }, mode: { type: 'string' } },
    positionals: [],
    prepare: (values) => {
      const merchantId = required(values, 'merchant');
      const scopes = parseScopes(required(values, 'scopes'));
      const mode = values.mode ?? 'live';
      if (!(API_KEY_MODES as readonly string[]).includes(mode)) throw new UsageError(`--mode must be one of ${API_KEY_MODES.join(', ')}`);
      const expiresIn = values['expires-in'];
      if (expiresIn !== undefined && !(/^\d+$/.test(expiresIn) && Number.isSafeInteger(Number(expiresIn)) && Number(expiresIn) > 0)) {
        throw new UsageError('--expires-in must be a positive whole number of seconds');
      }
      return async (repos) => {
        const { record, key } = await repos.createApiKey({
          merchantId,
          scopes,
          mode: mode as ApiKeyMode,
          ...(expiresIn === undefined ? {} : { expiresInSeconds: Number(expiresIn) }),
        });
        const { id, ...rest } = record;
        return { id, key, ...rest };
      };
    },
  },
  'keys revoke': { options: {}, positionals: ['key id'], prepare: (_values, [keyId = '']) => (repos) => repos.revokeApiKey(keyId) },
  'keys list': {
    options: { merchant: { type: 'string' } },
    positionals: [],
    prepare: (values) => {
      const merchantId = required(values, 'merchant');
      return async (repos) => {
        await existingMerchant(repos, merchantId);
        return repos.listApiKeys(merchantId);
      };
    },
  },
  'providers set-secret': {
    options: { merchant: { type: 'string' }, psp: { type: 'string' }, secret: { type: 'string' } },
    positionals: [],
    prepare: (values) => {
      const merchantId = required(values, 'merchant');
      const psp = required(values, 'psp');
      if (!isPsp(psp)) throw new UsageError(`unknown --psp "${psp}"; one of ${PSPS.join(', ')}`);
      const secret = required(values, 'secret');
      return (repos) => repos.setProviderSecret(merchantId, psp, secret);
    },
  },
  /** The merchant's key for the provider's API (thin webhook events are fetched with it); never printed. */
  'providers set-api-key': {
    options: { merchant: { type: 'string' }, psp: { type: 'string' }, key: { type: 'string' } },
    positionals: [],
    prepare: (values) => {
      const merchantId = required(values, 'merchant');
      const psp = required(values, 'psp');
      if (!isPsp(psp)) throw new UsageError(`unknown --psp "${psp}"; one of ${PSPS.join(', ')}`);
      const key = required(values, 'key');
      return (repos) => repos.setProviderApiKey(merchantId, psp, key);
    },
  },
  /** The payment gateway the retry engine charges the merchant's payments of one provider through. */
  'gateways set': {
    options: { merchant: { type: 'string' }, psp: { type: 'string' }, gateway: { type: 'string' } },
    positionals: [],
    prepare: (values) => {
      const merchantId = required(values, 'merchant');
      const psp = required(values, 'psp');
      if (!isPsp(psp)) throw new UsageError(`unknown --psp "${psp}"; one of ${PSPS.join(', ')}`);
      const gateway = required(values, 'gateway');
      if (!isGatewayName(gateway)) throw new UsageError(`unknown --gateway "${gateway}"; one of ${GATEWAY_NAMES.join(', ')}`);
      return async (repos) => {
        await existingMerchant(repos, merchantId);
        return repos.setGateway(merchantId, psp, gateway);
      };
    },
  },
};

function prepare(argv: string[]): (repos: Repositories) => Promise<unknown> {
  const [group, action, ...rest] = argv;
  if (group === undefined) throw new UsageError(`missing command: ${COMMAND_NAMES}`);
  const name = `${group} ${action ?? ''}`.trim();
  const command = commands[name];
  if (command === undefined) throw new UsageError(`unknown command "${name}": ${COMMAND_NAMES}`);
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({ args: rest, options: command.options, strict: true, allowPositionals: true }) as typeof parsed;
  } catch (error) {
    throw new UsageError(`${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (parsed.positionals.length !== command.positionals.length) {
    const expected = command.positionals.map((positional) => `<${positional}>`).join(' ');
    throw new UsageError(`${name} takes ${expected === '' ? 'no arguments' : expected}, got ${parsed.positionals.length}`);
  }
  try {
    return command.prepare(parsed.values, parsed.positionals);
  } catch (error) {
    if (error instanceof UsageError || error instanceof AppError) throw new UsageError(`${name}: ${error.message}`);
    throw error;
  }
}

/** TABLE_NAME (and DYNAMODB_ENDPOINT) from the environment, else from the local stack's file. */
function configureTable(): void {
  useLocalStackEnvironment();
  if (process.env.TABLE_NAME === undefined) {
    throw new Error('no table: set TABLE_NAME (and DYNAMODB_ENDPOINT locally), or start the local stack to write .local/stack.json');
  }
}

const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ').trim();

async function main(argv: string[]): Promise<number> {
  if (argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    process.stdout.write(`${JSON.stringify({ usage: USAGE }, null, 2)}\n`);
    return 0;
  }
  try {
    const work = prepare(argv);
    configureTable();
    // stderr carries only this CLI's one-line errors; the SDK's notice that future releases will
    // need Node 22 (which Lambda already runs) is not one of them.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    // Imported only now: functions/shared/env.ts reads the environment once, on import.
    const [merchants, apiKeys, providerSecrets, gateways, client] = await Promise.all([
      import('../functions/data/merchant-repository'),
      import('../functions/data/api-key-repository'),
      import('../functions/data/provider-secret-repository'),
      import('../functions/data/gateway-config-repository'),
      import('../functions/data/client'),
    ]);
    try {
      const result = await work({ ...merchants, ...apiKeys, ...providerSecrets, ...gateways });
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      return 0;
    } finally {
      client.dynamo.destroy();
    }
  } catch (error) {
    const badArguments = error instanceof UsageError || (error instanceof AppError && error.expose);
    process.stderr.write(`admin: ${oneLine(error instanceof Error ? error.message : String(error))}\n`);
    return badArguments ? 2 : 1;
  }
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
