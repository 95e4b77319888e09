/**
 * Starting a CRM installation (functions/services/crm.ts startCrmInstallation, with the adapters'
 * authorize URLs): each parameter of HubSpot's and Salesforce's consent URL, the state that
 * verifies for the merchant and the CRM, and a CRM left unconfigured.
 */
import { CRM_STATE_TTL_SECONDS, type CrmName, CrmError, verifyCrmState } from '#core/crm';
import { startCrmInstallation } from '#services/crm';

const STATE_KEY = 'unit-test-crm-state-key-0123456789abcdef';
const SETTINGS = {
  CRM_STATE_SIGNING_SECRET: STATE_KEY,
  CRM_A_AUTHORIZE_BASE_URL: 'https://app-eu1.hubspot.com/',
  CRM_A_CLIENT_ID: '7fff1e36-2d40-4ae1-bbb1-5266d59564fb',
  CRM_A_REDIRECT_URI: 'https://dashboard.example.com/crm/hubspot/installed?from=recovery',
  CRM_B_LOGIN_BASE_URL: 'https://test.salesforce.com',
  CRM_B_CLIENT_ID: '3MVG9_consumer.key',
  CRM_B_REDIRECT_URI: 'https://dashboard.example.com/crm/salesforce/installed/',
} as const;

describe('startCrmInstallation', () => {
  const saved: Record<string, string | undefined> = {};
  const now = new Date('2026-11-25T12:00:00.000Z');

  beforeAll(() => {
    for (const [name, value] of Object.entries(SETTINGS)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
  });

  afterAll(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  const stateOf = (url: URL, crm: CrmName) =>
    verifyCrmState(url.searchParams.get('state') ?? '', crm, Buffer.from(STATE_KEY), Math.floor(now.getTime() / 1000));

  it('builds HubSpot’s consent URL with the client, the exact redirect URI, the scopes and a state for the merchant', async () => {
    // Prepare
    const merchantId = 'mer_unit_a';

    // Act
    const started = await startCrmInstallation(merchantId, 'crm_a', now);

    // Assess
    const url = new URL(started.authorize_url);
    expect(`${url.origin}${url.pathname}`).toBe('https://app-eu1.hubspot.com/oauth/authorize');
    expect([...url.searchParams.keys()].sort()).toEqual(['client_id', 'redirect_uri', 'scope', 'state']);
    expect(url.searchParams.get('client_id')).toBe(SETTINGS.CRM_A_CLIENT_ID);
    expect(url.searchParams.get('redirect_uri')).toBe(SETTINGS.CRM_A_REDIRECT_URI);
    expect(url.searchParams.get('scope')).toBe('oauth crm.objects.contacts.write');
    // HubSpot documents the scope list separated by %20, not "+".
    expect(started.authorize_url).toContain('scope=oauth%20crm.objects.contacts.write');
    expect(stateOf(url, 'crm_a')).toEqual({
      merchant_id: merchantId,
      crm: 'crm_a',
      nonce: expect.any(String),
      exp: now.getTime() / 1000 + CRM_STATE_TTL_SECONDS,
    });
    expect(started).toEqual({
      merchant_id: merchantId,
      crm: 'crm_a',
      authorize_url: started.authorize_url,
      state_expires_at: new Date(now.getTime() + CRM_STATE_TTL_SECONDS * 1000).toISOString(),
    });
  });

  it('builds Salesforce’s web server flow URL on the login origin, with response_type=code, the scopes and a state for the merchant', async () => {
    // Prepare
    const merchantId = 'mer_unit_b';

    // Act
    const started = await startCrmInstallation(merchantId, 'crm_b', now);

    // Assess
    const url = new URL(started.authorize_url);
    expect(`${url.origin}${url.pathname}`).toBe('https://test.salesforce.com/services/oauth2/authorize');
    expect([...url.searchParams.keys()].sort()).toEqual(['client_id', 'redirect_uri', 'response_type', 'scope', 'state']);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('client_id')).toBe(SETTINGS.CRM_B_CLIENT_ID);
    // Kept exactly as registered (trailing slash included): the token exchange sends the same one.
    expect(url.searchParams.get('redirect_uri')).toBe(SETTINGS.CRM_B_REDIRECT_URI);
    expect(url.searchParams.get('scope')).toBe('api refresh_token');
    expect(stateOf(url, 'crm_b')).toMatchObject({ merchant_id: merchantId, crm: 'crm_b' });
    expect(stateOf(url, 'crm_a')).toBe('wrong_crm');
    expect(started.state_expires_at).toBe('2026-11-25T12:10:00.000Z');
  });

  it('issues a new single-use state each time', async () => {
    // Act
    const [first, second] = [await startCrmInstallation('mer_unit_a', 'crm_a', now), await startCrmInstallation('mer_unit_a', 'crm_a', now)];

    // Assess
    const nonceOf = (started: { authorize_url: string }) => (stateOf(new URL(started.authorize_url), 'crm_a') as { nonce: string }).nonce;
    expect(nonceOf(first)).not.toBe(nonceOf(second));
  });

  it('refuses a CRM whose client is not configured, naming the variable', async () => {
    // Prepare
    delete process.env.CRM_B_CLIENT_ID;

    // Act
    const outcome = startCrmInstallation('mer_unit_b', 'crm_b', now);

    // Assess
    await expect(outcome).rejects.toThrow(CrmError);
    await expect(outcome).rejects.toMatchObject({ kind: 'unavailable', message: expect.stringContaining('CRM_B_CLIENT_ID') });
    process.env.CRM_B_CLIENT_ID = SETTINGS.CRM_B_CLIENT_ID;
  });
});
