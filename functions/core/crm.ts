import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AmountsByCurrency } from './money';

/**
 * CRM integrations (issue 13): the two CRMs a merchant can connect (`crm_a`, shaped like
 * HubSpot's API; `crm_b`, shaped like Salesforce's), the OAuth `state` that binds an installation
 * callback to a merchant, and what a sync pushes. Pure: no AWS, no HTTP.
 */
export const CRMS = ['crm_a', 'crm_b'] as const;
export type CrmName = (typeof CRMS)[number];

/** Tokens of one connection, as the CRM's token endpoint answered them (kept sealed at rest). */
export interface CrmTokens {
  readonly access_token: string;
  /** Absent when the CRM did not send one (then refresh is impossible). */
  readonly refresh_token?: string;
  /** ISO time the access token expires, when the CRM said. */
  readonly expires_at?: string;
  /** The API origin of the connected account (Salesforce's `instance_url`), when the CRM names one. */
  readonly instance_url?: string;
}

/** One customer at risk or recovered, as pushed to a CRM contact (upserted by email / our customer id). */
export interface CrmContact {
  readonly customer_id: string;
  readonly email: string;
  readonly name: string | null;
  readonly open_payments: number;
  readonly at_risk_by_currency: AmountsByCurrency;
  readonly recovered_by_currency: AmountsByCurrency;
}

/** Why a CRM call failed: `unauthorized` (401/403, a refresh may help), `unavailable` (network, 429, 5xx) or `bad_response`. */
export type CrmErrorKind = 'unauthorized' | 'unavailable' | 'bad_response';

/** A CRM call that failed. The message names the status or cause only: never tokens, bodies or contacts. */
export class CrmError extends Error {
  constructor(
    readonly crm: CrmName,
    readonly kind: CrmErrorKind,
    message: string,
    readonly status?: number,
    options?: ErrorOptions,
  ) {
    super(`${crm}: ${message}`, options);
    this.name = 'CrmError';
  }
}

/** The CrmError of a non-2xx answer. */
export function crmErrorOfStatus(crm: CrmName, status: number): CrmError {
  if (status === 401 || status === 403) return new CrmError(crm, 'unauthorized', `answered ${status} (token refused)`, status);
  if (status === 429 || status >= 500) return new CrmError(crm, 'unavailable', `answered ${status}`, status);
  return new CrmError(crm, 'bad_response', `answered ${status}`, status);
}

/** How long an OAuth state stays valid after it is minted. */
export const CRM_STATE_TTL_SECONDS = 600;

/** What a state names: the merchant and CRM of the installation, a single-use nonce, and its expiry (epoch seconds). */
export interface CrmStateClaims {
  readonly merchant_id: string;
  readonly crm: CrmName;
  readonly nonce: string;
  readonly exp: number;
}

const b64url = (value: Buffer | string): string => Buffer.from(value).toString('base64url');
const mac = (key: Buffer, payload: string): Buffer => createHmac('sha256', key).update(`crm-oauth-state/v1.${payload}`).digest();

/** `<base64url JSON claims>.<base64url HMAC-SHA256>`: the `state` to put in the CRM's authorize URL. */
export function signCrmState(claims: CrmStateClaims, key: Buffer): string {
  const payload = b64url(JSON.stringify(claims));
  return `${payload}.${b64url(mac(key, payload))}`;
}

export type CrmStateProblem = 'malformed' | 'bad_signature' | 'expired' | 'wrong_crm';

/**
 * The claims of a state this service signed for `crm`, still within its expiry; else why not. The
 * signature is compared in constant time before the payload is parsed. Single use is the
 * caller's: it spends the nonce (functions/data/crm-repository.ts).
 */
export function verifyCrmState(state: string, crm: CrmName, key: Buffer, nowSeconds: number): CrmStateClaims | CrmStateProblem {
  const parts = state.split('.');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return 'malformed';
  const [payload, signature] = parts as [string, string];
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(key, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'bad_signature';
  let claims: Partial<CrmStateClaims>;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<CrmStateClaims>;
  } catch {
    return 'malformed';
  }
  if (typeof claims.merchant_id !== 'string' || typeof claims.nonce !== 'string' || typeof claims.exp !== 'number' || !CRMS.includes(claims.crm as CrmName))
    return 'malformed';
  if (claims.crm !== crm) return 'wrong_crm';
  if (claims.exp <= nowSeconds) return 'expired';
  return claims as CrmStateClaims;
}
