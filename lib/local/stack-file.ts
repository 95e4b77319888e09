import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `.local/stack.json`, the contract between `npm start` and the scripts that work against the
 * running local stack (the operator CLI, `npm run job`): written by lib/local/local-stack.ts in
 * the folder the stack was started from (npm runs every script from the package root).
 */
export interface StackFile {
  readonly api_url: string;
  readonly dynamodb_endpoint: string;
  readonly merchant_id: string;
  readonly api_key: string;
  readonly table_name: string;
  /** The retry engine's default gateway the stack runs with (DEFAULT_PAYMENT_GATEWAY, `sandbox` unless set). */
  readonly default_payment_gateway: string;
  /** The embedded mail catcher's web UI, where sent emails are read (absent when it does not run). */
  readonly mail_catcher_url?: string;
  /** Its SMTP endpoint, where the stack's email goes (EMAIL_DRIVER smtp); absent with the catcher. */
  readonly smtp_url?: string;
  /** The edge API's origin (this server), which unsubscribe and update-payment links point at. */
  readonly edge_url?: string;
  /** The key of unsubscribe links, so that a script's emails carry links the stack accepts. */
  readonly unsubscribe_signing_secret?: string;
  /** The key of CRM OAuth states, so that the installation URLs of `admin crm authorize-url` are accepted by the stack's callbacks. */
  readonly crm_state_signing_secret?: string;
  /** The local secret box's key, so that what the CLI seals (a widget secret) opens in the stack. */
  readonly secret_box_key?: string;
}

/** Where the stack started in `cwd` writes its stack file. */
export const stackFilePath = (cwd: string = process.cwd()): string => join(cwd, '.local', 'stack.json');

/** The stack file's fields (only those that are strings), or {} when there is no file. */
export function readStackFile(path: string = stackFilePath()): Partial<StackFile> {
  if (!existsSync(path)) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw new Error(`${path} is not JSON`);
  }
  if (typeof parsed !== 'object' || parsed === null) return {};
  return Object.fromEntries(Object.entries(parsed).filter(([, value]) => typeof value === 'string')) as Partial<StackFile>;
}

/**
 * Points this process at the local stack, before anything imports functions/shared/env.ts (which
 * reads the environment once): TABLE_NAME and DYNAMODB_ENDPOINT from the environment, else from the
 * stack file; and, when the table is the stack's own, what the stack set for itself unless the
 * environment sets it: DEFAULT_PAYMENT_GATEWAY (a script that charges through the retry engine
 * uses the same default, not none), and the mail catcher's SMTP_URL (EMAIL_DRIVER smtp), the edge
 * origin and the unsubscribe key (a job run's emails land in the catcher with working links), and
 * the CRM state key (an installation URL the CLI prints completes on the stack's callback).
 *
 * @returns whether the table is the local stack's (false: the environment named another table).
 */
export function useLocalStackEnvironment(path: string = stackFilePath()): boolean {
  const stack = readStackFile(path);
  if (process.env.TABLE_NAME === undefined && stack.table_name !== undefined) {
    process.env.TABLE_NAME = stack.table_name;
    if (process.env.DYNAMODB_ENDPOINT === undefined && stack.dynamodb_endpoint !== undefined) process.env.DYNAMODB_ENDPOINT = stack.dynamodb_endpoint;
  }
  if (process.env.DYNAMODB_ENDPOINT === undefined && stack.dynamodb_endpoint !== undefined && process.env.TABLE_NAME === stack.table_name) {
    process.env.DYNAMODB_ENDPOINT = stack.dynamodb_endpoint;
  }
  const isStack = stack.table_name !== undefined && process.env.TABLE_NAME === stack.table_name && process.env.DYNAMODB_ENDPOINT === stack.dynamodb_endpoint;
  if (isStack) {
    // What the stack sets for itself, so that a script's work (a job run's emails above all) goes
    // where the stack's does: the same gateway, the mail catcher, links to this server.
    const fromStack: ReadonlyArray<readonly [string, string | undefined]> = [
      ['DEFAULT_PAYMENT_GATEWAY', stack.default_payment_gateway],
      ['SMTP_URL', stack.smtp_url],
      ['EMAIL_DRIVER', stack.smtp_url === undefined ? undefined : 'smtp'],
      ['EDGE_PUBLIC_BASE_URL', stack.edge_url],
      ['UNSUBSCRIBE_SIGNING_SECRET', stack.unsubscribe_signing_secret],
      ['CRM_STATE_SIGNING_SECRET', stack.crm_state_signing_secret],
      ['SECRET_BOX_DRIVER', stack.secret_box_key === undefined ? undefined : 'local'],
      ['SECRET_BOX_KEY', stack.secret_box_key],
    ];
    for (const [name, value] of fromStack) if (process.env[name] === undefined && value !== undefined) process.env[name] = value;
  }
  return isStack;
}
