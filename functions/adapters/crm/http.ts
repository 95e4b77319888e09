import { readSecret } from '#adapters/secrets';
import { type CrmName, CrmError, type CrmTokens, crmErrorOfStatus } from '#core/crm';
import { type Env, env } from '#shared/env';

/** Every CRM call gives up after this long (an `unavailable` CrmError). */
export const CRM_TIMEOUT_MS = 10_000;
/** Contacts per upsert request (HubSpot's batch limit is 100, Salesforce's composite sObject collection 200). */
export const CRM_BATCH_SIZE = 100;

type CrmVariable =
  | 'CRM_A_API_BASE_URL'
  | 'CRM_A_AUTHORIZE_BASE_URL'
  | 'CRM_A_CLIENT_ID'
  | 'CRM_A_REDIRECT_URI'
  | 'CRM_B_LOGIN_BASE_URL'
  | 'CRM_B_CLIENT_ID'
  | 'CRM_B_REDIRECT_URI';

/**
 * A CRM setting, read at call time: `process.env[variable]` when set (a test points the adapter
 * at a loopback fake started after the stack loaded), else what functions/shared/env.ts checked
 * at start. Unset with no default: the CRM is not configured (`unavailable`, never a 500).
 */
export function crmSetting(crm: CrmName, variable: CrmVariable): string {
  const configured = process.env[variable];
  const value = configured === undefined || configured === '' ? (env as Env)[variable] : configured;
  if (value === undefined || value === '') throw new CrmError(crm, 'unavailable', `not configured (${variable} is unset)`);
  // Origins lose a trailing slash; a redirect URI is kept exactly as registered with the CRM's app.
  return variable.endsWith('_BASE_URL') ? value.replace(/\/+$/, '') : value;
}

const CLIENT_SECRET_VARIABLE = { crm_a: 'CRM_A_CLIENT_SECRET', crm_b: 'CRM_B_CLIENT_SECRET' } as const satisfies Record<CrmName, keyof Env>;
const clientSecrets = new Map<CrmName, Promise<string>>();

/**
 * The OAuth client secret of `crm`: CRM_<X>_CLIENT_SECRET when set (locally; read at call time like
 * {@link crmSetting}), else the Secrets Manager secret CRM_<X>_CLIENT_SECRET_ARN names (AWS: read
 * once per container, again after a failed read). Neither, or a secret that cannot be read, is
 * `unavailable` (never a 500); the secret itself is never put in a message.
 */
export async function crmClientSecret(crm: CrmName): Promise<string> {
  const variable = CLIENT_SECRET_VARIABLE[crm];
  const plain = process.env[variable] || (env as Env)[variable];
  if (plain) return plain;
  const arn = (env as Env)[`${variable}_ARN`];
  if (arn === undefined) throw new CrmError(crm, 'unavailable', `not configured (${variable} and ${variable}_ARN are unset)`);
  let secret = clientSecrets.get(crm);
  if (secret === undefined) {
    secret = readSecret(arn);
    clientSecrets.set(crm, secret);
    secret.catch(() => clientSecrets.delete(crm));
  }
  try {
    return await secret;
  } catch (error) {
    throw new CrmError(crm, 'unavailable', `the client secret (${variable}_ARN) could not be read`, undefined, { cause: error });
  }
}

/**
 * A URL with `params` as its query, each value percent-encoded (spaces as `%20`, as HubSpot's and
 * Salesforce's authorize endpoints document their space-separated `scope`).
 */
export function urlWithQuery(base: string, params: Readonly<Record<string, string>>): string {
  const query = Object.entries(params)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('&');
  return `${base}?${query}`;
}

/** The JSON body of a CRM answer; non-2xx, network errors and timeouts become CrmErrors naming the status only. */
export async function crmRequest(crm: CrmName, url: string, init: { method: string; headers: Record<string, string>; body: string }): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(CRM_TIMEOUT_MS) });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new CrmError(crm, 'unavailable', timedOut ? `no answer within ${CRM_TIMEOUT_MS} ms` : 'request failed before an answer', undefined, { cause: error });
  }
  const text = await response.text();
  if (response.status < 200 || response.status > 299) throw crmErrorOfStatus(crm, response.status);
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new CrmError(crm, 'bad_response', 'answered a body that is not JSON', response.status);
  }
}

/** POST an OAuth token request (form-encoded, RFC 6749 §4.1.3 / §6) and read the token answer. */
export async function tokenRequest(crm: CrmName, url: string, form: Record<string, string>): Promise<Record<string, unknown>> {
  const body = await crmRequest(crm, url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(form).toString(),
  });
  if (typeof body !== 'object' || body === null || typeof (body as { access_token?: unknown }).access_token !== 'string')
    throw new CrmError(crm, 'bad_response', 'token answer without access_token');
  return body as Record<string, unknown>;
}

/** The CrmTokens of a token answer; `previous` supplies what a refresh answer leaves out (refresh token, instance URL). */
export function tokensOf(answer: Record<string, unknown>, now: Date, previous?: CrmTokens): CrmTokens {
  const expiresIn = typeof answer.expires_in === 'number' ? answer.expires_in : undefined;
  const refresh = typeof answer.refresh_token === 'string' ? answer.refresh_token : previous?.refresh_token;
  const instance = typeof answer.instance_url === 'string' ? answer.instance_url : previous?.instance_url;
  return {
    access_token: answer.access_token as string,
    ...(refresh === undefined ? {} : { refresh_token: refresh }),
    ...(expiresIn === undefined ? {} : { expires_at: new Date(now.getTime() + expiresIn * 1000).toISOString() }),
    ...(instance === undefined ? {} : { instance_url: instance }),
  };
}

/** Splits `items` into batches of `size`. */
export const batchesOf = <T>(items: readonly T[], size: number): T[][] => {
  const batches: T[][] = [];
  for (let i = 0; i < items.length; i += size) batches.push(items.slice(i, i + size));
  return batches;
};
