import { randomBytes } from 'node:crypto';
import { type JsonApiServer, type ReceivedRequest, startJsonApiServer } from './json-api-server';

/**
 * The two CRMs on loopback, speaking the shapes our adapters use (functions/adapters/crm):
 * - CRM A like HubSpot: `POST /oauth/v1/token` (form; authorization_code and refresh_token
 *   grants; errors `{ status: 'BAD_AUTH_CODE' | 'BAD_REFRESH_TOKEN' | 'BAD_CLIENT_ID', message }`)
 *   and `POST /crm/v3/objects/contacts/batch/upsert` (`{ inputs: [{ idProperty, id, properties }] }`
 *   → `{ status: 'COMPLETE', results }`, 401 `{ status: 'error', category: 'EXPIRED_AUTHENTICATION' }`);
 * - CRM B like Salesforce: `POST /services/oauth2/token` (form; answers `instance_url`, its own
 *   origin; a refresh answer has no refresh_token; errors `{ error, error_description }`) and
 *   `PATCH /services/data/v60.0/composite/sobjects/Contact/Recovery_Customer_Id__c`
 *   (→ `[{ id, success, created, errors }]`, 401 `[{ errorCode: 'INVALID_SESSION_ID', message }]`).
 * A test issues codes (`issueCode`), expires access tokens (`expireAccessTokens`, so the next
 * upsert gets 401 and the adapter refreshes), and reads the contacts the CRM holds.
 */
export interface FakeCrm {
  readonly server: JsonApiServer;
  readonly url: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly redirectUri: string;
  /** Contacts by their upsert key (email for CRM A, our customer id for CRM B), with the fields last written. */
  readonly contacts: Map<string, Record<string, unknown>>;
  /** Access tokens issued so far, in order. */
  readonly issuedAccessTokens: string[];
  /** A single-use authorization code, as the CRM's installation redirect carries it. */
  issueCode(): string;
  /** Every access token issued so far stops working (the next upsert answers 401). */
  expireAccessTokens(): void;
  /** Token requests and upserts received. */
  tokenRequests(): ReceivedRequest[];
  upsertRequests(): ReceivedRequest[];
  stop(): Promise<void>;
}

interface Tokens {
  readonly codes: Set<string>;
  readonly access: Set<string>;
  readonly refresh: Set<string>;
  readonly issued: string[];
}

const newToken = (prefix: string): string => `${prefix}${randomBytes(12).toString('hex')}`;
const bearerOf = (request: ReceivedRequest): string | undefined => /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1];

type Answer = { status?: number; body: unknown };

function tokenAnswer(
  tokens: Tokens,
  form: URLSearchParams,
  client: { id: string; secret: string; redirectUri: string },
  shape: {
    error: (kind: 'client' | 'code' | 'refresh') => Answer;
    issued: (access: string, refresh: string | undefined) => Record<string, unknown>;
    refreshKeepsToken: boolean;
  },
): Answer {
  if (form.get('client_id') !== client.id || form.get('client_secret') !== client.secret) return shape.error('client');
  const grant = form.get('grant_type');
  if (grant === 'authorization_code') {
    const code = form.get('code') ?? '';
    if (!tokens.codes.delete(code) || form.get('redirect_uri') !== client.redirectUri) return shape.error('code');
    const access = newToken('at_');
    const refresh = newToken('rt_');
    tokens.access.add(access);
    tokens.refresh.add(refresh);
    tokens.issued.push(access);
    return { body: shape.issued(access, refresh) };
  }
  if (grant === 'refresh_token') {
    if (!tokens.refresh.has(form.get('refresh_token') ?? '')) return shape.error('refresh');
    const access = newToken('at_');
    tokens.access.add(access);
    tokens.issued.push(access);
    return { body: shape.issued(access, shape.refreshKeepsToken ? undefined : (form.get('refresh_token') ?? undefined)) };
  }
  return shape.error('code');
}

async function startFakeCrm(
  name: 'crm_a' | 'crm_b',
  route: (path: string, request: ReceivedRequest, tokens: Tokens, contacts: Map<string, Record<string, unknown>>, self: () => FakeCrm) => Answer | undefined,
  tokenPath: string,
  upsertPath: string,
): Promise<FakeCrm> {
  const tokens: Tokens = { codes: new Set(), access: new Set(), refresh: new Set(), issued: [] };
  const contacts = new Map<string, Record<string, unknown>>();
  let fake: FakeCrm | undefined;
  const server = await startJsonApiServer({
    methods: ['POST', 'PATCH'],
    authorised: () => true,
    route: (path, request) => route(path, request, tokens, contacts, () => fake as FakeCrm),
  });
  fake = {
    server,
    url: server.url,
    clientId: `${name}-client`,
    clientSecret: `${name}-secret-${randomBytes(6).toString('hex')}`,
    redirectUri: `https://app.example.com/${name}/installed`,
    contacts,
    issuedAccessTokens: tokens.issued,
    issueCode: () => {
      const code = newToken('code_');
      tokens.codes.add(code);
      return code;
    },
    expireAccessTokens: () => tokens.access.clear(),
    tokenRequests: () => server.requests.filter((request) => request.path === tokenPath),
    upsertRequests: () => server.requests.filter((request) => request.path === upsertPath),
    stop: () => server.stop(),
  };
  return fake;
}

export const CRM_A_UPSERT_PATH = '/crm/v3/objects/contacts/batch/upsert';
export const CRM_B_UPSERT_PATH = '/services/data/v60.0/composite/sobjects/Contact/Recovery_Customer_Id__c';

/** CRM A (HubSpot-shaped) on loopback. */
export function startFakeCrmA(): Promise<FakeCrm> {
  return startFakeCrm(
    'crm_a',
    (path, request, tokens, contacts, self) => {
      const fake = self();
      if (path === '/oauth/v1/token' && request.method === 'POST')
        return tokenAnswer(
          tokens,
          new URLSearchParams(request.bodyText),
          { id: fake.clientId, secret: fake.clientSecret, redirectUri: fake.redirectUri },
          {
            error: (kind) => ({
              status: 400,
              body: { status: kind === 'client' ? 'BAD_CLIENT_ID' : kind === 'code' ? 'BAD_AUTH_CODE' : 'BAD_REFRESH_TOKEN', message: 'refused' },
            }),
            issued: (access, refresh) => ({ token_type: 'bearer', access_token: access, refresh_token: refresh, expires_in: 1800 }),
            refreshKeepsToken: false,
          },
        );
      if (path === CRM_A_UPSERT_PATH && request.method === 'POST') {
        if (!tokens.access.has(bearerOf(request) ?? ''))
          return { status: 401, body: { status: 'error', message: 'The OAuth token used to make this call expired.', category: 'EXPIRED_AUTHENTICATION' } };
        const { inputs } = JSON.parse(request.bodyText) as { inputs: { idProperty: string; id: string; properties: Record<string, string> }[] };
        const results = inputs.map((input) => {
          const created = !contacts.has(input.id);
          contacts.set(input.id, { ...contacts.get(input.id), ...input.properties });
          return { id: String(contacts.size), properties: input.properties, new: created };
        });
        return { body: { status: 'COMPLETE', results, startedAt: new Date().toISOString(), completedAt: new Date().toISOString() } };
      }
      return undefined;
    },
    '/oauth/v1/token',
    CRM_A_UPSERT_PATH,
  );
}

/** CRM B (Salesforce-shaped) on loopback: its token answers name its own origin as `instance_url`. */
export function startFakeCrmB(): Promise<FakeCrm> {
  return startFakeCrm(
    'crm_b',
    (path, request, tokens, contacts, self) => {
      const fake = self();
      if (path === '/services/oauth2/token' && request.method === 'POST')
        return tokenAnswer(
          tokens,
          new URLSearchParams(request.bodyText),
          { id: fake.clientId, secret: fake.clientSecret, redirectUri: fake.redirectUri },
          {
            error: (kind) => ({ status: 400, body: { error: kind === 'client' ? 'invalid_client_id' : 'invalid_grant', error_description: 'refused' } }),
            issued: (access, refresh) => ({
              access_token: access,
              ...(refresh === undefined ? {} : { refresh_token: refresh }),
              instance_url: fake.url,
              id: `${fake.url}/id/00D000000000001/005000000000001`,
              token_type: 'Bearer',
              issued_at: String(Date.now()),
            }),
            refreshKeepsToken: true,
          },
        );
      if (path === CRM_B_UPSERT_PATH && request.method === 'PATCH') {
        if (!tokens.access.has(bearerOf(request) ?? ''))
          return { status: 401, body: [{ message: 'Session expired or invalid', errorCode: 'INVALID_SESSION_ID' }] };
        const { records } = JSON.parse(request.bodyText) as { allOrNone: boolean; records: Record<string, unknown>[] };
        return {
          body: records.map((record) => {
            const key = String(record.Recovery_Customer_Id__c);
            if (typeof record.LastName !== 'string' || record.LastName === '')
              return {
                success: false,
                errors: [{ statusCode: 'REQUIRED_FIELD_MISSING', message: 'Required fields are missing: [LastName]', fields: ['LastName'] }],
              };
            const created = !contacts.has(key);
            contacts.set(key, { ...contacts.get(key), ...record });
            return { id: `003${String(contacts.size).padStart(15, '0')}`, success: true, created, errors: [] };
          }),
        };
      }
      return undefined;
    },
    '/services/oauth2/token',
    CRM_B_UPSERT_PATH,
  );
}

/**
 * Points the CRM adapters (which read their settings at call time) and the operator CLI (which
 * inherits the environment) at the two fakes: their origins, OAuth clients and redirect URIs.
 * Returns what puts the environment back as it was.
 */
export function useFakeCrms(crmA: FakeCrm, crmB: FakeCrm): () => void {
  const settings: Record<string, string> = {
    CRM_A_API_BASE_URL: crmA.url,
    CRM_A_AUTHORIZE_BASE_URL: crmA.url,
    CRM_A_CLIENT_ID: crmA.clientId,
    CRM_A_CLIENT_SECRET: crmA.clientSecret,
    CRM_A_REDIRECT_URI: crmA.redirectUri,
    CRM_B_LOGIN_BASE_URL: crmB.url,
    CRM_B_CLIENT_ID: crmB.clientId,
    CRM_B_CLIENT_SECRET: crmB.clientSecret,
    CRM_B_REDIRECT_URI: crmB.redirectUri,
  };
  const saved = Object.fromEntries(Object.keys(settings).map((name) => [name, process.env[name]]));
  Object.assign(process.env, settings);
  return () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}
