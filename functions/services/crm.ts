import { createHmac, randomBytes } from 'node:crypto';
import { crmAdapterFor } from '#adapters/crm/index';
import { openSecret, sealSecret } from '#adapters/secret-box';
import { readSecret } from '#adapters/secrets';
import { exposuresOf } from '#core/analytics/at-risk-customers';
import { CRM_STATE_TTL_SECONDS, type CrmContact, CrmError, type CrmName, type CrmStateProblem, type CrmTokens, signCrmState, verifyCrmState } from '#core/crm';
import { InvalidRequestError, StateConflictError } from '#core/errors';
import { timeOrderedId } from '#core/ids';
import { addAmount, type AmountsByCurrency } from '#core/money';
import { openPayments } from '#data/at-risk-queries';
import { customersByIds } from '#data/campaign-repository';
import {
  type CrmConnectionRecord,
  type CrmSyncLogRecord,
  type CrmSyncStatusRecord,
  getCrmConnection,
  putCrmConnection,
  recordCrmSync,
  spendCrmStateNonce,
  updateCrmTokens,
} from '#data/crm-repository';
import { env } from '#shared/env';
import { logger } from '#shared/logger';

/**
 * CRM use cases (issue 13): completing an installation (OAuth callback) and pushing recovery
 * data. Tokens are sealed with the secret box (context: merchant, purpose `crm_tokens`, CRM), so
 * sealed tokens copied to another merchant's record do not open there; they are never logged.
 */

let stateKey: Promise<Buffer> | undefined;

/** A key of its own derived from the list-cursor key (HMAC with a label), so one secret serves both without reuse. */
const derived = (secret: string): Buffer => createHmac('sha256', secret).update('recovery/crm-oauth-state-key/v1').digest();

/**
 * The state key: CRM_STATE_SIGNING_SECRET, or the secret CRM_STATE_SIGNING_SECRET_ARN names; else
 * derived from the list-cursor key (CURSOR_SIGNING_SECRET or its ARN); locally, with none set, a
 * key of this process (a state minted by a previous run is then refused). The plain variable is
 * read at first use, like the CRM settings (adapters/crm/http.ts): the local stack sets it once
 * it has started, and hands it to the operator CLI, whose installation URLs it must accept.
 */
function crmStateKey(): Promise<Buffer> {
  stateKey ??= (async () => {
    const plain = process.env.CRM_STATE_SIGNING_SECRET || env.CRM_STATE_SIGNING_SECRET;
    if (plain) return Buffer.from(plain, 'utf8');
    if (env.CRM_STATE_SIGNING_SECRET_ARN !== undefined) return Buffer.from(await readSecret(env.CRM_STATE_SIGNING_SECRET_ARN), 'utf8');
    if (env.CURSOR_SIGNING_SECRET !== undefined) return derived(env.CURSOR_SIGNING_SECRET);
    if (env.CURSOR_SIGNING_SECRET_ARN !== undefined) return derived(await readSecret(env.CURSOR_SIGNING_SECRET_ARN));
    return randomBytes(32);
  })();
  return stateKey;
}

/** The `state` for the CRM's authorize URL when `merchantId` starts an installation: valid {@link CRM_STATE_TTL_SECONDS}, once. */
export async function mintCrmState(merchantId: string, crm: CrmName, now: Date = new Date()): Promise<string> {
  return (await mint(merchantId, crm, now)).state;
}

async function mint(merchantId: string, crm: CrmName, now: Date): Promise<{ state: string; exp: number }> {
  const exp = Math.floor(now.getTime() / 1000) + CRM_STATE_TTL_SECONDS;
  return { state: signCrmState({ merchant_id: merchantId, crm, nonce: randomBytes(16).toString('base64url'), exp }, await crmStateKey()), exp };
}

/** Where a merchant starts connecting a CRM: its consent page, with a fresh state for this merchant. */
export interface CrmInstallationStart {
  readonly merchant_id: string;
  readonly crm: CrmName;
  readonly authorize_url: string;
  /** The state's expiry: the consent and the callback must both happen before it. */
  readonly state_expires_at: string;
}

/**
 * Starts an installation of `crm` for `merchantId` (the operator CLI's `crm authorize-url`): the
 * CRM's authorize URL with the configured client, redirect URI and scopes, and a new signed state
 * (valid {@link CRM_STATE_TTL_SECONDS}, once). Nothing is stored: the state carries the merchant.
 * A CRM whose client or redirect URI is unset is a CrmError (`unavailable`).
 */
export async function startCrmInstallation(merchantId: string, crm: CrmName, now: Date = new Date()): Promise<CrmInstallationStart> {
  const { state, exp } = await mint(merchantId, crm, now);
  return { merchant_id: merchantId, crm, authorize_url: crmAdapterFor(crm).authorizeUrl(state), state_expires_at: new Date(exp * 1000).toISOString() };
}

const STATE_PROBLEMS: Record<CrmStateProblem, string> = {
  malformed: 'state is not a state this service issued',
  bad_signature: 'state is not a state this service issued',
  wrong_crm: 'state was issued for the other CRM',
  expired: `state has expired (valid ${CRM_STATE_TTL_SECONDS / 60} minutes): start the installation again`,
};

const tokenContext = (merchantId: string, crm: CrmName) => ({ merchant_id: merchantId, purpose: 'crm_tokens', id: crm });
const seal = (merchantId: string, crm: CrmName, tokens: CrmTokens): Promise<string> => sealSecret(JSON.stringify(tokens), tokenContext(merchantId, crm));
const open = async (connection: CrmConnectionRecord): Promise<CrmTokens> =>
  JSON.parse(await openSecret(connection.sealed_tokens, tokenContext(connection.merchant_id, connection.crm))) as CrmTokens;

/** What a CrmError says in logs and the sync log: the kind and status, never a token or body. */
const describe = (error: CrmError): string => `${error.kind}${error.status === undefined ? '' : ` (HTTP ${error.status})`}: ${error.message}`;

/**
 * Completes an installation: checks the state (signature, CRM, expiry), spends its nonce (a
 * replay is refused), exchanges the code and stores the tokens sealed for the state's merchant.
 * Refusals are 400 `invalid_request` with `param` `state` or `code`; a CRM that refuses the code
 * or cannot be reached is logged and answered 400 on `code` (the state is spent: the merchant
 * starts the installation again).
 */
export async function completeCrmInstallation(crm: CrmName, code: string, state: string, now: Date = new Date()): Promise<CrmConnectionRecord> {
  const claims = verifyCrmState(state, crm, await crmStateKey(), Math.floor(now.getTime() / 1000));
  if (typeof claims === 'string') throw new InvalidRequestError(STATE_PROBLEMS[claims], { param: 'state' });
  if (!(await spendCrmStateNonce(claims.merchant_id, claims.nonce, claims.exp, now)))
    throw new InvalidRequestError('state has been used already: start the installation again', { param: 'state' });
  let tokens: CrmTokens;
  try {
    tokens = await crmAdapterFor(crm).exchangeCode(code, now);
  } catch (error) {
    if (!(error instanceof CrmError)) throw error;
    logger.warn('crm code exchange failed', { merchant_id: claims.merchant_id, crm, kind: error.kind, status: error.status });
    const message =
      error.kind === 'unavailable' ? `${crm} could not be reached to exchange the code: start the installation again` : `${crm} refused the authorization code`;
    throw new InvalidRequestError(message, { param: 'code' });
  }
  return putCrmConnection(claims.merchant_id, crm, await seal(claims.merchant_id, crm, tokens), now);
}

/** Contacts pushed per sync at most (customers with the most recent open recoveries first); the rest wait for the next sync. */
export const MAX_CRM_SYNC_CONTACTS = 5_000;

export interface CrmSyncResult {
  readonly entry: CrmSyncLogRecord;
  readonly status: CrmSyncStatusRecord;
  readonly connection: CrmConnectionRecord;
  readonly truncated: boolean;
}

/** Customers with an open recovery, newest first, as CRM contacts (at risk and recovered amounts per currency). */
async function atRiskContacts(merchantId: string): Promise<{ contacts: CrmContact[]; truncated: boolean }> {
  const exposures = exposuresOf(await openPayments(merchantId));
  const slice = exposures.slice(0, MAX_CRM_SYNC_CONTACTS);
  const customers = await customersByIds(
    merchantId,
    slice.map((exposure) => exposure.customer_id),
  );
  const contacts = slice.flatMap((exposure): CrmContact[] => {
    const customer = customers.get(exposure.customer_id);
    if (customer === undefined) return [];
    return [
      {
        customer_id: customer.id,
        email: customer.email,
        name: customer.name,
        open_payments: exposure.open_payment_ids.length,
        at_risk_by_currency: exposure.at_risk_by_currency,
        recovered_by_currency: customer.total_recovered_by_currency,
      },
    ];
  });
  return { contacts, truncated: exposures.length > slice.length };
}

const sumByCurrency = (maps: readonly AmountsByCurrency[]): AmountsByCurrency =>
  maps.reduce<AmountsByCurrency>((total, map) => Object.entries(map).reduce((acc, [currency, amount]) => addAmount(acc, currency, amount), total), {});

/**
 * Pushes the merchant's customers at risk to `crm` with the connection's tokens: refreshes them
 * first when they have expired, and once more when the CRM refuses them (401/403), storing the new
 * tokens sealed. A CRM failure is logged and recorded (outcome `failed`, `error`), never thrown.
 * 409 when the merchant has not connected the CRM.
 */
export async function syncCrm(merchantId: string, crm: CrmName, now: () => Date = () => new Date()): Promise<CrmSyncResult> {
  let connection = await getCrmConnection(merchantId, crm);
  if (connection === undefined) throw new StateConflictError(`${crm} is not connected: complete its installation (OAuth) first`);
  const startedAt = now();
  const syncId = `crmsync_${timeOrderedId(startedAt)}`;
  const adapter = crmAdapterFor(crm);
  const log = logger.child({ merchant_id: merchantId, crm, sync_id: syncId });
  const { contacts, truncated } = await atRiskContacts(merchantId);
  let tokens: CrmTokens;
  try {
    tokens = await open(connection);
  } catch (caught) {
    // A key rotated away or a record that was tampered with: the merchant reconnects; never a 500.
    log.error('crm tokens could not be opened', { error: caught instanceof Error ? caught.name : 'unknown' });
    tokens = { access_token: '' };
  }
  let tokenRefreshed = false;
  const refresh = async (): Promise<void> => {
    tokens = await adapter.refresh(tokens, now());
    connection = await updateCrmTokens(connection as CrmConnectionRecord, await seal(merchantId, crm, tokens), now());
    tokenRefreshed = true;
  };
  let upserted = 0;
  let failed = 0;
  let error: string | null = null;
  try {
    if (tokens.access_token === '') throw new CrmError(crm, 'unauthorized', 'the stored tokens could not be decrypted: connect the CRM again');
    if (tokens.expires_at !== undefined && Date.parse(tokens.expires_at) <= startedAt.getTime() + 60_000) await refresh();
    let result: { upserted: number; failed: number };
    try {
      result = await adapter.upsertContacts(tokens, contacts);
    } catch (first) {
      if (!(first instanceof CrmError) || first.kind !== 'unauthorized' || tokenRefreshed) throw first;
      await refresh();
      result = await adapter.upsertContacts(tokens, contacts);
    }
    upserted = result.upserted;
    failed = result.failed;
  } catch (caught) {
    if (!(caught instanceof CrmError)) throw caught;
    error = describe(caught);
    failed = contacts.length - upserted;
    log.warn('crm sync failed', { kind: caught.kind, status: caught.status, contacts: contacts.length });
  }
  const entry: CrmSyncLogRecord = {
    sync_id: syncId,
    crm,
    started_at: startedAt.toISOString(),
    finished_at: now().toISOString(),
    outcome: error === null ? 'succeeded' : 'failed',
    at_risk_customers: contacts.length,
    contacts_upserted: upserted,
    contacts_failed: failed,
    at_risk_by_currency: sumByCurrency(contacts.map((contact) => contact.at_risk_by_currency)),
    recovered_by_currency: sumByCurrency(contacts.map((contact) => contact.recovered_by_currency)),
    token_refreshed: tokenRefreshed,
    error,
  };
  const status = await recordCrmSync(merchantId, entry);
  if (error === null) log.info('crm sync succeeded', { contacts: contacts.length, upserted, token_refreshed: tokenRefreshed });
  return { entry, status, connection, truncated };
}
