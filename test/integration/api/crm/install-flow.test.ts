/**
 * A CRM installation from start to sync, as an operator and a merchant run it: the operator CLI
 * prints the CRM's consent URL (`npm run admin -- crm authorize-url`, a separate process sharing
 * the local stack's state key), the CRM's consent is the loopback fake issuing a code, the
 * redirect's `state` and `code` go to `POST /{crm}/oauth/callback`, and `POST /{crm}/sync` pushes
 * the customers at risk. The CLI's bad arguments exit 2 with one line on stderr.
 */
import type { CrmName } from '#core/crm';
import { getCrmConnection } from '#data/crm-repository';
import type { LocalStack } from '#lib/local/local-stack';
import type { FakeCrm } from '#test/fakes/crm-apis';
import { type CrmTestStack, startCrmTestStack } from '#test/fixtures/crm';
import { admin } from '#test/fixtures/admin-cli';
import { call } from '#test/fixtures/http';
import { seedPayment } from '#test/fixtures/payments';
import { newTenant, UNLIMITED } from '#test/fixtures/tenants';

interface Started {
  merchant_id: string;
  crm: string;
  authorize_url: string;
  state_expires_at: string;
}
interface Body<T> {
  data: T;
  meta: { merchant_id?: string };
  error?: { code: string; message: string; param?: string };
}

// The CLI runs a bundle it may build first: allow for that on a busy machine.
jest.setTimeout(60_000);

describe('CRM installation: admin crm authorize-url → consent → callback → sync', () => {
  let crms: CrmTestStack;
  let stack: LocalStack;
  const fakeOf = (crm: CrmName): FakeCrm => crms.fakes[crm];
  const authorizeUrl = (args: string[], env: NodeJS.ProcessEnv = {}) => admin(['crm', 'authorize-url', ...args], env);

  beforeAll(async () => {
    crms = await startCrmTestStack();
    ({ stack } = crms);
  });

  afterAll(() => crms.stop());

  it.each(['crm_a', 'crm_b'] as const)('connects %s with the URL the CLI prints and syncs the merchant’s customers at risk', async (crm) => {
    // Prepare
    const tenant = await newTenant(['write'], UNLIMITED);
    await seedPayment(tenant.merchant.id, {
      customer: { email: `ada-${tenant.merchant.id}@example.com`, name: 'Ada Lovelace' },
      amount: 4999,
      currency: 'usd',
    });
    const fake = fakeOf(crm);
    const before = Date.now();

    // Act: the operator prints the URL; the merchant consents (the CRM redirects with a code and the state); the dashboard posts both
    const cli = await authorizeUrl(['--merchant', tenant.merchant.id, '--crm', crm]);
    const started = JSON.parse(cli.stdout) as Started;
    const url = new URL(started.authorize_url);
    const callback = await call<Body<{ crm: string; connected: boolean }>>(`${stack.api_url}/${crm}/oauth/callback`, {
      method: 'POST',
      body: { code: fake.issueCode(), state: url.searchParams.get('state') },
    });
    const synced = await call<Body<{ status: string; contacts_upserted: number; error: string | null }>>(`${stack.api_url}/${crm}/sync`, {
      method: 'POST',
      key: tenant.key,
    });

    // Assess
    expect({ code: cli.code, stderr: cli.stderr }).toEqual({ code: 0, stderr: '' });
    expect(started).toEqual({ merchant_id: tenant.merchant.id, crm, authorize_url: expect.any(String), state_expires_at: expect.any(String) });
    expect(`${url.origin}${url.pathname}`).toBe(`${fake.url}${crm === 'crm_a' ? '/oauth/authorize' : '/services/oauth2/authorize'}`);
    expect(url.searchParams.get('client_id')).toBe(fake.clientId);
    expect(url.searchParams.get('redirect_uri')).toBe(fake.redirectUri);
    expect(Date.parse(started.state_expires_at) - before).toBeGreaterThan(9 * 60_000);
    expect(Date.parse(started.state_expires_at) - Date.now()).toBeLessThanOrEqual(10 * 60_000);
    expect(callback.status).toBe(200);
    expect(callback.body.data).toMatchObject({ crm, connected: true });
    expect(callback.body.meta.merchant_id).toBe(tenant.merchant.id);
    expect((await getCrmConnection(tenant.merchant.id, crm))?.merchant_id).toBe(tenant.merchant.id);
    expect(synced.status).toBe(200);
    expect(synced.body.data).toMatchObject({ status: 'succeeded', contacts_upserted: 1, error: null });
    expect(fake.upsertRequests().at(-1)?.headers.authorization).toBe(`Bearer ${fake.issuedAccessTokens.at(-1)}`);
  });

  it('refuses the URL’s state a second time: an installation URL completes once', async () => {
    // Prepare
    const tenant = await newTenant(['write'], UNLIMITED);
    const cli = await authorizeUrl(['--merchant', tenant.merchant.id, '--crm', 'crm_a']);
    const state = new URL((JSON.parse(cli.stdout) as Started).authorize_url).searchParams.get('state');
    const post = () => call<Body<unknown>>(`${stack.api_url}/crm_a/oauth/callback`, { method: 'POST', body: { code: fakeOf('crm_a').issueCode(), state } });

    // Act
    const first = await post();
    const replay = await post();

    // Assess
    expect(first.status).toBe(200);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toMatchObject({ code: 'invalid_request', param: 'state' });
  });

  it('exits 2 with one line on stderr for an unknown merchant and bad arguments, printing nothing', async () => {
    // Prepare
    const tenant = await newTenant(['write'], UNLIMITED);
    const cases: Array<[string[], RegExp]> = [
      [['--merchant', 'mer_does_not_exist', '--crm', 'crm_a'], /unknown merchant "mer_does_not_exist"/],
      [['--crm', 'crm_a'], /missing --merchant/],
      [['--merchant', tenant.merchant.id], /missing --crm/],
      [['--merchant', tenant.merchant.id, '--crm', 'hubspot'], /unknown --crm "hubspot"; one of crm_a, crm_b/],
      [['--merchant', tenant.merchant.id, '--crm', 'crm_a', '--scope', 'everything'], /Unknown option '--scope'/],
      [['--merchant', tenant.merchant.id, '--crm', 'crm_a', 'extra'], /takes no arguments, got 1/],
      [['--merchant', 'x'.repeat(10_000), '--crm', 'crm_a'], /unknown merchant/],
    ];

    // Act
    const runs = await Promise.all(cases.map(([args]) => authorizeUrl(args)));

    // Assess
    runs.forEach((run, index) => {
      expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 2, stdout: '' });
      expect(run.stderr).toMatch(cases[index]?.[1] as RegExp);
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    });
  });

  it('exits 1 naming the variable when the CRM’s OAuth client is not configured', async () => {
    // Prepare
    const tenant = await newTenant(['write'], UNLIMITED);

    // Act
    const run = await authorizeUrl(['--merchant', tenant.merchant.id, '--crm', 'crm_b'], { CRM_B_CLIENT_ID: undefined });

    // Assess
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 1, stdout: '' });
    expect(run.stderr).toMatch(/^admin: crm_b: not configured \(CRM_B_CLIENT_ID is unset\)\n$/);
  });
});
