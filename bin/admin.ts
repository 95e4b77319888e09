/**
 * Operator CLI (DESIGN §3): merchants, API keys and providers' webhook secrets, written straight
 * to the table. JSON on stdout; a one-line error on stderr, exit 2 for bad arguments (including
 * an unknown merchant or key) and 1 for anything else.
 *
 *   npm run --silent admin -- merchants create --name "Acme" [--plan engine]
 *   npm run --silent admin -- merchants list
 *   npm run --silent admin -- merchants widget-secret --merchant <id>
 *   npm run --silent admin -- merchants branding --merchant <id> [--logo-url https://…] [--primary-color #rrggbb] [--merchant-name "Acme"]
 *   npm run --silent admin -- merchants update-payment-page --merchant <id> --url https://…
 *   npm run --silent admin -- keys create --merchant <id> --scopes read,write [--expires-in 3600] [--mode live|test]
 *   npm run --silent admin -- keys revoke <key id>
 *   npm run --silent admin -- keys list --merchant <id>
 *   npm run --silent admin -- providers set-secret --merchant <id> --psp stripe --secret whsec_...
 *   npm run --silent admin -- providers set-api-key --merchant <id> --psp mollie --key live_...
 *   npm run --silent admin -- gateways set --merchant <id> --psp stripe --gateway stripe|sandbox
 *   npm run --silent admin -- outbox list [--merchant <id>] [--to <email>] [--limit 20]
 *   npm run --silent admin -- messages list [--merchant <id>] [--channel sms|whatsapp] [--limit 20]
 *   npm run --silent admin -- sending status --merchant <id>
 *   npm run --silent admin -- sending resume --merchant <id>
 *   npm run --silent admin -- dlq list [--queue inbound-webhooks] [--limit 50] [--dlq-url <SQS URL>]
 *   npm run --silent admin -- dlq redrive [--queue inbound-webhooks] [--dlq-url <SQS URL>]
 *   npm run --silent admin -- dlq events --merchant <id> [--limit 50]
 *   npm run --silent admin -- erasure lift --merchant <id> [--email <email>] [--provider-customer-id <id>]
 *   npm run --silent admin -- rollups recompute --merchant <id> --day <YYYY-MM-DD>
 *   npm run --silent admin -- crm authorize-url --merchant <id> --crm crm_a|crm_b
 *   npm run --silent admin -- experiments start --merchant <id> --kind retry_timing --variants '<json>' [--min-sample N] [--name <name>]
 *   npm run --silent admin -- exports start --merchant <id>
 *   npm run --silent admin -- exports show --merchant <id> --job <exp_…>

 *   npm run --silent admin -- metering show --merchant <id> [--from YYYY-MM-DD --to YYYY-MM-DD]
 *
 * The table is TABLE_NAME (with DYNAMODB_ENDPOINT locally, the SDK's defaults on AWS); without
 * TABLE_NAME, the local stack's `.local/stack.json` gives the table and the endpoint.
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { API_KEY_MODES, type ApiKeyMode } from '#core/api-keys';
import { parseScopes } from '#core/scopes';
import { AppError } from '#core/errors';
import { newMerchantSchema } from '#core/merchants';
import { checkBranding, checkUpdatePaymentPageUrl } from '#core/hosted';
import { GATEWAY_NAMES, isGatewayName } from '#core/payment-gateway';
import type { DeadLetterQueues } from '#adapters/dead-letters/port';
import { type QueueName, queueDefinitions } from '#contracts/queues';
import { isPsp, PSPS } from '#core/providers';
import { CRMS, type CrmName } from '#core/crm';
import { EXPERIMENT_KINDS, EXPERIMENT_MINIMUM_SAMPLE, type ExperimentKind, newExperiment } from '#core/experiments/experiment';
import { useLocalStackEnvironment } from '#lib/local/stack-file';
import { type ExportJobRecord, exportDownloadPath } from '#core/exports';

import { daysBetween, isCalendarDay, MAX_METERING_RANGE_DAYS, meteringTotals } from '#core/metering';

class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

type Repositories = typeof import('#data/merchant-repository') &
  typeof import('#data/api-key-repository') &
  typeof import('#data/provider-secret-repository') &
  typeof import('#data/gateway-config-repository') &
  typeof import('#data/dead-letter-repository') &
  Pick<typeof import('#data/erasure-tombstones'), 'liftTombstones'> &
  Pick<typeof import('#adapters/email/outbox'), 'listRecentOutboxEmails'> &
  Pick<typeof import('#data/channel-repository'), 'listLocalMessages' | 'getSendingPause' | 'resumeSending' | 'sendingCounts'> &
  Pick<typeof import('#services/recompute-rollups'), 'recomputeMerchantRollups'> &
  Pick<typeof import('#services/crm'), 'startCrmInstallation'> &
  Pick<typeof import('#services/widget'), 'rotateWidgetSecret'> &
  Pick<typeof import('#data/hosted-settings-repository'), 'setBranding' | 'setUpdatePaymentPage'> &
  Pick<typeof import('#services/experiments'), 'startExperiment'> &
  Pick<typeof import('#services/export-merchant-data'), 'exportMerchantData'> &
  Pick<typeof import('#data/export-job-repository'), 'getExportJob'> &
  Pick<typeof import('#data/metering-repository'), 'listMetering'>;
/** Work on the table (the repositories, imported once the environment names the table), or work that needs none. */
type Work = ((repos: Repositories) => Promise<unknown>) | { readonly withoutTable: () => Promise<unknown> };
type Values = Record<string, string | undefined>;
/** Checks the arguments before anything touches the table, then returns the work to do. */
type Command = {
  readonly options: NonNullable<ParseArgsConfig['options']>;
  readonly positionals: readonly string[];
  readonly prepare: (values: Values, positionals: string[]) => Work;
};

const COMMAND_NAMES =
  'merchants create | merchants list | merchants widget-secret | merchants branding | merchants update-payment-page | keys create | keys revoke | keys list | providers set-secret | providers set-api-key | gateways set | outbox list | messages list | sending status | sending resume | dlq list | dlq redrive | dlq events | erasure lift | rollups recompute | crm authorize-url | experiments start | exports start | exports show | metering show';
const QUEUE_NAMES = queueDefinitions.map((definition) => definition.name);
const USAGE = [
  'merchants create --name <name> [--plan engine|recovery|command|enterprise]',
  'merchants list',
  'merchants widget-secret --merchant <id>',
  'merchants branding --merchant <id> [--logo-url <https URL>] [--primary-color <#rrggbb>] [--merchant-name <name>]',
  'merchants update-payment-page --merchant <id> --url <https URL of the provider page; {customer_id}, {provider_customer_id}, {payment_id} are filled in>',
  'keys create --merchant <id> --scopes <scope,...> [--expires-in <seconds>] [--mode live|test]',
  'keys revoke <key id>',
  'keys list --merchant <id>',
  `providers set-secret --merchant <id> --psp <${PSPS.join('|')}> --secret <secret>`,
  `providers set-api-key --merchant <id> --psp <${PSPS.join('|')}> --key <provider API key>`,
  `gateways set --merchant <id> --psp <${PSPS.join('|')}> --gateway <${GATEWAY_NAMES.join('|')}>`,
  'outbox list [--merchant <id>] [--to <email>] [--limit <n, default 20>]',
  'messages list [--merchant <id>] [--channel sms|whatsapp] [--limit <n, default 20>]',
  'sending status --merchant <id>',
  'sending resume --merchant <id>',
  `dlq list [--queue <${QUEUE_NAMES.join('|')}>] [--limit <n, default 50>] [--dlq-url <SQS URL of the DLQ, on AWS>]`,
  `dlq redrive [--queue <${QUEUE_NAMES.join('|')}>] [--dlq-url <SQS URL of the DLQ, on AWS>]`,
  'dlq events --merchant <id> [--limit <n, default 50>]',
  'erasure lift --merchant <id> [--email <email>] [--provider-customer-id <id>] (at least one of the two)',
  'rollups recompute --merchant <id> --day <YYYY-MM-DD>',
  `crm authorize-url --merchant <id> --crm <${CRMS.join('|')}>`,
  `experiments start --merchant <id> --kind <${EXPERIMENT_KINDS.join('|')}> --variants '<JSON array of settings, control first>' [--min-sample <n, default ${EXPERIMENT_MINIMUM_SAMPLE.default}>] [--name <name>]`,
  'exports start --merchant <id> (runs the merchant data export now)',
  'exports show --merchant <id> --job <export job id, exp_…>',

  `metering show --merchant <id> [--from <YYYY-MM-DD> --to <YYYY-MM-DD>] (default the last 30 days to yesterday, UTC; at most ${MAX_METERING_RANGE_DAYS} days)`,
];

function limitOf(values: Values, fallback: number, max: number): number {
  const raw = values.limit;
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max) throw new UsageError(`--limit must be a whole number from 1 to ${max}`);
  return Number(raw);
}

function queueOf(values: Values): QueueName {
  const queue = values.queue ?? 'inbound-webhooks';
  const known = QUEUE_NAMES.find((name) => name === queue);
  if (known === undefined) throw new UsageError(`unknown --queue "${queue}"; one of ${QUEUE_NAMES.join(', ')}`);
  return known;
}

function dlqUrlOf(values: Values): string | undefined {
  const url = values['dlq-url'];
  if (url === undefined) return undefined;
  if (!/^https?:\/\/[^/]+\/.+/.test(url))
    throw new UsageError('--dlq-url must be the URL of an SQS queue (https://sqs.<region>.amazonaws.com/<account>/<name>)');
  return url;
}

/**
 * AWS: the DLQ through SQS's API with the ambient credentials. The queue URL's origin is the
 * endpoint (stated, so the SDK does not warn that it differs) and its region the region
 * (`sqs.<region>.amazonaws.com`), else AWS_REGION, else us-east-1.
 */
async function sqsDeadLetters(dlqUrl: string): Promise<DeadLetterQueues> {
  const [{ SQSClient }, { sqsDeadLetterQueues }] = await Promise.all([import('@aws-sdk/client-sqs'), import('#adapters/dead-letters/sqs')]);
  const url = new URL(dlqUrl);
  const region = /^sqs\.([a-z0-9-]+)\.amazonaws\.com/.exec(url.hostname)?.[1] ?? process.env.AWS_REGION ?? 'us-east-1';
  return sqsDeadLetterQueues(new SQSClient({ region, endpoint: url.origin }), () => dlqUrl);
}

/** Local: the stack's DLQs kept in the table; a redrive runs the stack's consumers in this process. */
async function localDeadLetters(): Promise<DeadLetterQueues> {
  const [{ localDeadLetterQueues }, { localRedeliver }, inbound, outbound, notifications] = await Promise.all([
    import('#adapters/dead-letters/local'),
    import('#lib/local/dead-letter-redrive'),
    import('#consumers/inbound-webhooks'),
    import('#consumers/outbound-deliveries'),
    import('#consumers/notifications'),
  ]);
  return localDeadLetterQueues(
    localRedeliver({ 'inbound-webhooks': inbound.handler, 'outbound-deliveries': outbound.handler, notifications: notifications.handler }),
  );
}

/** `dlq list` / `dlq redrive`: SQS with --dlq-url, else the local stack's. */
function onDeadLetters(values: Values, use: (queues: DeadLetterQueues) => Promise<unknown>): Work {
  const dlqUrl = dlqUrlOf(values);
  if (dlqUrl !== undefined) return { withoutTable: async () => use(await sqsDeadLetters(dlqUrl)) };
  return async () => use(await localDeadLetters());
}

function required(values: Values, name: string): string {
  const value = values[name];
  if (value === undefined || value.trim() === '') throw new UsageError(`missing --${name}`);
  return value;
}

/** Longer than any merchant id (`merch_` and 22 base62 characters), and far below DynamoDB's 2 KB key limit. */
const MAX_MERCHANT_ID_LENGTH = 128;

async function existingMerchant(repos: Repositories, merchantId: string): Promise<void> {
  // An id no merchant can have is unknown without a read, which DynamoDB would refuse past 2 KB.
  if (merchantId.length > MAX_MERCHANT_ID_LENGTH) throw new UsageError(`unknown merchant "${merchantId.slice(0, 32)}…"`);
  if ((await repos.getMerchant(merchantId)) === undefined) throw new UsageError(`unknown merchant "${merchantId}"`);
}

/** Work on one existing merchant (--merchant, required; an unknown merchant is a usage error). */
function onMerchant(values: Values, work: (repos: Repositories, merchantId: string) => Promise<unknown>): Work {
  const merchantId = required(values, 'merchant');
  return async (repos) => {
    await existingMerchant(repos, merchantId);
    return work(repos, merchantId);
  };
}

/**
 * What a listing command prints: one merchant's items (an unknown merchant is a usage error), or,
 * without --merchant, every merchant's, newest first, `limit` in all.
 */
async function newestFirst<T extends { readonly created_at: string; readonly id: string }>(
  repos: Repositories,
  merchantId: string | undefined,
  limit: number,
  listOf: (merchantId: string) => Promise<readonly T[]>,
): Promise<readonly T[]> {
  if (merchantId !== undefined) {
    await existingMerchant(repos, merchantId);
    return listOf(merchantId);
  }
  const merchants = await repos.listMerchants();
  const items = (await Promise.all(merchants.map((merchant) => listOf(merchant.id)))).flat();
  return items.sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id)).slice(0, limit);
}

const commands: Record<string, Command> = {
  'merchants create': {
    options: { name: { type: 'string' }, plan: { type: 'string' } },
    positionals: [],
    prepare: (values) => {
      const parsed = newMerchantSchema().safeParse({ name: required(values, 'name'), plan_tier: values.plan });
      if (!parsed.success) {
        throw new UsageError(parsed.error.issues.map((issue) => `--${issue.path[0] === 'plan_tier' ? 'plan' : 'name'}: ${issue.message}`).join('; '));
      }
      return (repos) => repos.createMerchant(parsed.data);
    },
  },
  'merchants list': { options: {}, positionals: [], prepare: () => (repos) => repos.listMerchants() },
  /** Makes or rotates the widget secret (stored sealed; printed once, here): the one before stops verifying at once. */
  'merchants widget-secret': {
    options: { merchant: { type: 'string' } },
    positionals: [],
    prepare: (values) => onMerchant(values, (repos, merchantId) => repos.rotateWidgetSecret(merchantId)),
  },
  /** Sets the branding fields given (the others kept): hosted pages and the widget show them. */
  'merchants branding': {
    options: { merchant: { type: 'string' }, 'logo-url': { type: 'string' }, 'primary-color': { type: 'string' }, 'merchant-name': { type: 'string' } },
    positionals: [],
    prepare: (values) => {
      const given = { logo_url: values['logo-url'], primary_color: values['primary-color'], merchant_name: values['merchant-name'] };
      const change = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
      if (Object.keys(change).length === 0) throw new UsageError('give --logo-url, --primary-color or --merchant-name');
      const checked = checkBranding(change);
      return onMerchant(values, async (repos, merchantId) => ({ merchant_id: merchantId, branding: (await repos.setBranding(merchantId, checked)).branding }));
    },
  },
  /** Where the update-payment page sends customers: the payment provider's hosted payment-method page. */
  'merchants update-payment-page': {
    options: { merchant: { type: 'string' }, url: { type: 'string' } },
    positionals: [],
    prepare: (values) => {
      const url = checkUpdatePaymentPageUrl(required(values, 'url'));
      return onMerchant(values, async (repos, merchantId) => ({
        merchant_id: merchantId,
        update_payment_page_url: (await repos.setUpdatePaymentPage(merchantId, url)).update_payment_page_url,
      }));
    },
  },
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
  'keys revoke': {
    options: {},
    positionals: ['key id'],
    prepare:
      (_values, [keyId = '']) =>
      (repos) =>
        repos.revokeApiKey(keyId),
  },
  'keys list': {
    options: { merchant: { type: 'string' } },
    positionals: [],
    prepare: (values) => onMerchant(values, (repos, merchantId) => repos.listApiKeys(merchantId)),
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
  /** Sent emails of the local outbox (the only EmailSender so far), newest first. */
  'outbox list': {
    options: { merchant: { type: 'string' }, to: { type: 'string' }, limit: { type: 'string' } },
    positionals: [],
    prepare: (values) => {
      const limit = limitOf(values, 20, 1000);
      const merchantId = values.merchant;
      if (merchantId !== undefined && merchantId.trim() === '') throw new UsageError('missing --merchant value');
      const to = values.to;
      if (to !== undefined && !to.includes('@')) throw new UsageError('--to must be an email address');
      const query = { limit, ...(to === undefined ? {} : { to }) };
      return (repos) => newestFirst(repos, merchantId, limit, (merchant) => repos.listRecentOutboxEmails(merchant, query));
    },
  },
  /** SMS and WhatsApp of the local messaging sender (MESSAGING_DRIVER=local), newest first. */
  'messages list': {
    options: { merchant: { type: 'string' }, channel: { type: 'string' }, limit: { type: 'string' } },
    positionals: [],
    prepare: (values) => {
      const limit = limitOf(values, 20, 1000);
      const merchantId = values.merchant;
      if (merchantId !== undefined && merchantId.trim() === '') throw new UsageError('missing --merchant value');
      const channel = values.channel;
      if (channel !== undefined && channel !== 'sms' && channel !== 'whatsapp') throw new UsageError(`unknown --channel "${channel}"; one of sms, whatsapp`);
      const query: { limit: number; channel?: 'sms' | 'whatsapp' } = { limit, ...(channel === undefined ? {} : { channel }) };
      return (repos) => newestFirst(repos, merchantId, limit, (merchant) => repos.listLocalMessages(merchant, query));
    },
  },
  /** The merchant's sending pause (if any) and its counts over the last 30 days. */
  'sending status': {
    options: { merchant: { type: 'string' } },
    positionals: [],
    prepare: (values) => {
      const merchantId = required(values, 'merchant');
      return async (repos) => {
        await existingMerchant(repos, merchantId);
        const [pause, counts] = await Promise.all([repos.getSendingPause(merchantId), repos.sendingCounts(merchantId)]);
        return { merchant_id: merchantId, sending_paused: pause !== undefined, pause: pause ?? null, last_30_days: counts };
      };
    },
  },
  /** Lifts the merchant's automatic sending pause: held messages go out at their next release. */
  'sending resume': {
    options: { merchant: { type: 'string' } },
    positionals: [],
    prepare: (values) => {
      const merchantId = required(values, 'merchant');
      return async (repos) => {
        await existingMerchant(repos, merchantId);
        const lifted = await repos.resumeSending(merchantId);
        return { merchant_id: merchantId, resumed: lifted !== undefined, lifted: lifted ?? null };
      };
    },
  },
  /** Messages in a queue's DLQ, left there (oldest first). */
  'dlq list': {
    options: { queue: { type: 'string' }, limit: { type: 'string' }, 'dlq-url': { type: 'string' } },
    positionals: [],
    prepare: (values) => {
      const queue = queueOf(values);
      const limit = limitOf(values, 50, 1000);
      return onDeadLetters(values, (queues) => queues.list(queue, limit));
    },
  },
  /** Every message of a queue's DLQ back to the queue. */
  'dlq redrive': {
    options: { queue: { type: 'string' }, 'dlq-url': { type: 'string' } },
    positionals: [],
    prepare: (values) => {
      const queue = queueOf(values);
      return onDeadLetters(values, (queues) => queues.redrive(queue));
    },
  },
  /** What a merchant will see of its dropped deliveries: the dead-lettered inbound events recorded under it, newest first. */
  'dlq events': {
    options: { merchant: { type: 'string' }, limit: { type: 'string' } },
    positionals: [],
    prepare: (values) => {
      const merchantId = required(values, 'merchant');
      const limit = limitOf(values, 50, 1000);
      return async (repos) => {
        await existingMerchant(repos, merchantId);
        return repos.listDeadLetteredEvents(merchantId, limit);
      };
    },
  },
  /**
   * Lifts an erased customer's tombstones, by email and/or provider customer id: events for them
   * are accepted again from now on (nothing erased comes back).
   */
  'erasure lift': {
    options: { merchant: { type: 'string' }, email: { type: 'string' }, 'provider-customer-id': { type: 'string' } },
    positionals: [],
    prepare: (values) => {
      const merchantId = required(values, 'merchant');
      const email = values.email;
      const providerCustomerId = values['provider-customer-id'];
      if (email === undefined && providerCustomerId === undefined) throw new UsageError('give --email, --provider-customer-id or both');
      if (email !== undefined && !email.includes('@')) throw new UsageError('--email must be an email address');
      if (providerCustomerId !== undefined && providerCustomerId.trim() === '') throw new UsageError('missing --provider-customer-id value');
      return async (repos) => {
        await existingMerchant(repos, merchantId);
        return { merchant_id: merchantId, tombstones: await repos.liftTombstones(merchantId, { email, providerCustomerId }) };
      };
    },
  },
  /**
   * The hourly job's drift check for one merchant and one UTC day, shown (never written): the
   * rollup items its source items add up to against the stored ones, each differing counter with
   * its delta (docs/analytics.md, Rollups and the hourly recompute).
   */
  'rollups recompute': {
    options: { merchant: { type: 'string' }, day: { type: 'string' } },
    positionals: [],
    prepare: (values) => {
      const merchantId = required(values, 'merchant');
      const day = required(values, 'day');
      const at = new Date(`${day}T00:00:00.000Z`);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== day) {
        throw new UsageError('--day must be a day, YYYY-MM-DD');
      }
      return async (repos) => {
        await existingMerchant(repos, merchantId);
        return repos.recomputeMerchantRollups(merchantId, day);
      };
    },
  },
  /**
   * Where a merchant starts connecting a CRM: the CRM's consent page (the configured OAuth client,
   * redirect URI and scopes) with a fresh signed state naming the merchant, valid 10 minutes and
   * once (docs/integrations.md). Nothing is written.
   */
  'crm authorize-url': {
    options: { merchant: { type: 'string' }, crm: { type: 'string' } },
    positionals: [],
    prepare: (values) => {
      const merchantId = required(values, 'merchant');
      const crm = required(values, 'crm');
      if (!(CRMS as readonly string[]).includes(crm)) throw new UsageError(`unknown --crm "${crm}"; one of ${CRMS.join(', ')}`);
      return async (repos) => {
        await existingMerchant(repos, merchantId);
        return repos.startCrmInstallation(merchantId, crm as CrmName);
      };
    },
  },
  /**
   * Starts a recovery experiment (the API has no create route): the variants' settings as a JSON
   * array, the control first (docs/experiments.md). Checked before the table is touched; 409
   * (exit 2) while one of the same kind runs.
   */
  'experiments start': {
    options: {
      merchant: { type: 'string' },
      kind: { type: 'string' },
      variants: { type: 'string' },
      'min-sample': { type: 'string' },
      name: { type: 'string' },
    },
    positionals: [],
    prepare: (values) => {
      const merchantId = required(values, 'merchant');
      const kind = required(values, 'kind');
      if (!(EXPERIMENT_KINDS as readonly string[]).includes(kind)) throw new UsageError(`unknown --kind "${kind}"; one of ${EXPERIMENT_KINDS.join(', ')}`);
      let settings: unknown;
      try {
        settings = JSON.parse(required(values, 'variants'));
      } catch {
        throw new UsageError('--variants must be a JSON array of settings');
      }
      if (!Array.isArray(settings)) throw new UsageError('--variants must be a JSON array of settings, the control first');
      const minimum = values['min-sample'];
      if (minimum !== undefined && !/^\d+$/.test(minimum)) throw new UsageError('--min-sample must be a whole number');
      const input = {
        merchantId,
        name: values.name ?? `${kind} experiment`,
        kind: kind as ExperimentKind,
        settings,
        minimumSample: minimum === undefined ? undefined : Number(minimum),
        source: { type: 'cli' as const, id: null },
      };
      newExperiment(input, new Date());
      return async (repos) => {
        await existingMerchant(repos, merchantId);
        return repos.startExperiment(input);
      };
    },
  },
  /**
   * A merchant's billing metering (the daily `billing-metering` task, docs/daily-jobs.md): one
   * entry per UTC day metered, the totals of the range (amounts per currency, never summed across
   * currencies), and the days of the range not metered (yet). Nothing is written.
   */
  'metering show': {
    options: { merchant: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } },
    positionals: [],
    prepare: (values) => {
      const merchantId = required(values, 'merchant');
      const to = values.to ?? new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      if (!isCalendarDay(to)) throw new UsageError('--to must be a day, YYYY-MM-DD');
      const from = values.from ?? new Date(Date.parse(`${to}T00:00:00.000Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
      if (!isCalendarDay(from)) throw new UsageError('--from must be a day, YYYY-MM-DD');
      if (from > to) throw new UsageError('--from must not be after --to');
      if (Date.parse(to) - Date.parse(from) >= MAX_METERING_RANGE_DAYS * 86_400_000) {
        throw new UsageError(`--from to --to spans at most ${MAX_METERING_RANGE_DAYS} days`);
      }
      const days = daysBetween(from, to);
      return async (repos) => {
        await existingMerchant(repos, merchantId);
        const metered = await repos.listMetering(merchantId, from, to);
        const found = new Set(metered.map((record) => record.day));
        return { merchant_id: merchantId, from, to, totals: meteringTotals(metered), days: metered, not_metered: days.filter((day) => !found.has(day)) };
      };
    },
  },
};

/** An export job as `exports start` and `exports show` print it (docs/data-exports.md). */
const exportJobView = (job: ExportJobRecord) => ({
  job_id: job.id,
  merchant_id: job.merchant_id,
  state: job.state,
  content_type: job.content_type,
  counts: job.counts,
  size: job.size,
  location: job.location,
  download_path: job.state === 'succeeded' ? exportDownloadPath(job.merchant_id, job.id) : null,
  error: job.error,
  created_at: job.created_at,
  finished_at: job.finished_at,
});

/** Merchant data exports (docs/data-exports.md): JSON lines of the merchant's customers, payments and recoveries through the exports port. */
const exportCommands: Record<string, Command> = {
  /** Runs the export in this process and prints the job; a failed export prints its reason on stderr and exits 1. */
  'exports start': {
    options: { merchant: { type: 'string' } },
    positionals: [],
    prepare: (values) =>
      onMerchant(values, async (repos, merchantId) => {
        const job = await repos.exportMerchantData(merchantId);
        if (job.state === 'failed') throw new Error(`export ${job.id} failed: ${job.error ?? 'unknown reason'}`);
        return exportJobView(job);
      }),
  },
  'exports show': {
    options: { merchant: { type: 'string' }, job: { type: 'string' } },
    positionals: [],
    prepare: (values) => {
      const jobId = required(values, 'job');
      if (!/^exp_[0-9A-HJKMNP-TV-Z]{26}$/.test(jobId))
        throw new UsageError(`--job must be an export job id (exp_ and 26 characters), got "${jobId.slice(0, 40)}"`);
      return onMerchant(values, async (repos, merchantId) => {
        const job = await repos.getExportJob(merchantId, jobId);
        if (job === undefined) throw new UsageError(`unknown export job "${jobId}" of merchant "${merchantId}"`);
        return exportJobView(job);
      });
    },
  },
};

function prepare(argv: string[]): Work {
  const [group, action, ...rest] = argv;
  if (group === undefined) throw new UsageError(`missing command: ${COMMAND_NAMES}`);
  const name = `${group} ${action ?? ''}`.trim();
  const command = commands[name] ?? exportCommands[name];
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
  // Against DynamoDB Local, what a consumer enqueues (a local redrive) goes to the in-process queues.
  if (process.env.DYNAMODB_ENDPOINT !== undefined) process.env.QUEUE_DRIVER ??= 'local';
}

const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ').trim();

async function main(argv: string[]): Promise<number> {
  if (argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    process.stdout.write(`${JSON.stringify({ usage: USAGE }, null, 2)}\n`);
    return 0;
  }
  try {
    const work = prepare(argv);
    // stderr carries only this CLI's one-line errors; the SDK's notice that future releases will
    // need Node 22 (which Lambda already runs) is not one of them.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    if (typeof work !== 'function') {
      process.stdout.write(`${JSON.stringify(await work.withoutTable(), null, 2)}\n`);
      return 0;
    }
    configureTable();
    // Imported only now: functions/shared/env.ts reads the environment once, on import.
    const [
      merchants,
      apiKeys,
      providerSecrets,
      gateways,
      deadLetters,
      tombstones,
      outbox,
      channels,
      rollups,
      crm,
      widget,
      hosted,
      experiments,
      exportJobs,
      exportJobRecords,

      metering,
      client,
    ] = await Promise.all([
      import('#data/merchant-repository'),
      import('#data/api-key-repository'),
      import('#data/provider-secret-repository'),
      import('#data/gateway-config-repository'),
      import('#data/dead-letter-repository'),
      import('#data/erasure-tombstones'),
      import('#adapters/email/outbox'),
      import('#data/channel-repository'),
      import('#services/recompute-rollups'),
      import('#services/crm'),
      import('#services/widget'),
      import('#data/hosted-settings-repository'),
      import('#services/experiments'),
      import('#services/export-merchant-data'),
      import('#data/export-job-repository'),

      import('#data/metering-repository'),
      import('#data/client'),
    ]);
    try {
      const result = await work({
        ...merchants,
        ...apiKeys,
        ...providerSecrets,
        ...gateways,
        ...deadLetters,
        liftTombstones: tombstones.liftTombstones,
        listRecentOutboxEmails: outbox.listRecentOutboxEmails,
        listLocalMessages: channels.listLocalMessages,
        getSendingPause: channels.getSendingPause,
        resumeSending: channels.resumeSending,
        sendingCounts: channels.sendingCounts,
        recomputeMerchantRollups: rollups.recomputeMerchantRollups,
        startCrmInstallation: crm.startCrmInstallation,
        rotateWidgetSecret: widget.rotateWidgetSecret,
        setBranding: hosted.setBranding,
        setUpdatePaymentPage: hosted.setUpdatePaymentPage,
        startExperiment: experiments.startExperiment,
        exportMerchantData: exportJobs.exportMerchantData,
        getExportJob: exportJobRecords.getExportJob,

        listMetering: metering.listMetering,
      });
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
