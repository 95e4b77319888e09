import type { StageName } from './stages';

/**
 * The CRMs' OAuth apps on AWS (functions/adapters/crm, docs/integrations.md): what the crm
 * function receives as plain variables. Nothing here is secret: each app's client secret and the
 * state key live in Secrets Manager (DataStack `crmSecrets`), and only their ARNs are passed.
 *
 * The API origins are per stage (Salesforce sandboxes log in at test.salesforce.com). Each app's
 * client id and redirect URI come from the CDK context `crmApps`, once the app is registered with
 * the CRM for that stage:
 *
 *   cdk deploy -c stage=prod -c crmApps='{"crm_a":{"clientId":"…","redirectUri":"https://…"},"crm_b":{…}}'
 *
 * A CRM left out has no client: its installations and syncs answer `unavailable`.
 */
export interface CrmAppClient {
  /** The app's client id (HubSpot) or consumer key (Salesforce). */
  readonly clientId: string;
  /** The page the CRM redirects the merchant to after consent, registered with the app; HTTPS. */
  readonly redirectUri: string;
}

export interface CrmApps {
  /** CRM A's API and token origin (CRM_A_API_BASE_URL). */
  readonly crmAApiBaseUrl: string;
  /** CRM A's consent page origin (CRM_A_AUTHORIZE_BASE_URL), used by the operator CLI. */
  readonly crmAAuthorizeBaseUrl: string;
  /** CRM B's login origin: consent and tokens (CRM_B_LOGIN_BASE_URL). */
  readonly crmBLoginBaseUrl: string;
  readonly crm_a?: CrmAppClient;
  readonly crm_b?: CrmAppClient;
}

const HUBSPOT = { crmAApiBaseUrl: 'https://api.hubapi.com', crmAAuthorizeBaseUrl: 'https://app.hubspot.com' } as const;

/** The origins of each stage; dev and staging install into Salesforce sandboxes. */
export const crmOriginsByStage: Readonly<Record<StageName, Pick<CrmApps, 'crmAApiBaseUrl' | 'crmAAuthorizeBaseUrl' | 'crmBLoginBaseUrl'>>> = {
  dev: { ...HUBSPOT, crmBLoginBaseUrl: 'https://test.salesforce.com' },
  staging: { ...HUBSPOT, crmBLoginBaseUrl: 'https://test.salesforce.com' },
  prod: { ...HUBSPOT, crmBLoginBaseUrl: 'https://login.salesforce.com' },
};

function clientOf(name: string, raw: unknown): CrmAppClient | undefined {
  if (raw === undefined) return undefined;
  const client = raw as Partial<CrmAppClient> | null;
  if (client === null || typeof client !== 'object' || typeof client.clientId !== 'string' || client.clientId.trim() === '') {
    throw new Error(`Context "crmApps.${name}" needs a clientId`);
  }
  if (typeof client.redirectUri !== 'string' || !URL.canParse(client.redirectUri) || new URL(client.redirectUri).protocol !== 'https:') {
    throw new Error(`Context "crmApps.${name}.redirectUri" must be an https URL (the page registered with the CRM's app)`);
  }
  return { clientId: client.clientId, redirectUri: client.redirectUri };
}

/** The CRM apps of a stage: its origins, and the clients the `crmApps` context value (object or JSON string) names, checked. */
export function crmAppsFor(stage: StageName, context: unknown): CrmApps {
  const value = typeof context === 'string' ? (JSON.parse(context) as unknown) : (context ?? {});
  if (value === null || typeof value !== 'object') throw new Error('Context "crmApps" must be an object with crm_a and/or crm_b');
  const unknownKeys = Object.keys(value).filter((key) => key !== 'crm_a' && key !== 'crm_b');
  if (unknownKeys.length > 0) throw new Error(`Context "crmApps" has unknown keys: ${unknownKeys.join(', ')} (crm_a, crm_b)`);
  const crmA = clientOf('crm_a', (value as Record<string, unknown>).crm_a);
  const crmB = clientOf('crm_b', (value as Record<string, unknown>).crm_b);
  return { ...crmOriginsByStage[stage], ...(crmA === undefined ? {} : { crm_a: crmA }), ...(crmB === undefined ? {} : { crm_b: crmB }) };
}
