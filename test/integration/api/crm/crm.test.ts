/**
 * CRM A (HubSpot-shaped) and CRM B (Salesforce-shaped) over HTTP against loopback fakes of their
 * APIs (test/fakes/crm-apis.ts): installation callback with a signed single-use state, tokens
 * stored sealed, sync of the customers at risk (checked against a direct count over the seeded
 * payments and customer records), refresh on 401, the sync log and status, bad/expired/replayed
 * state, no connected CRM, another merchant, a failing CRM, scopes.
 */
import { CrmConnectionResponse, CrmSyncResponse } from '#api/crm/schemas';
import type { CrmName } from '#core/crm';
import { isOpen, type PaymentRecord } from '#core/payments';
import { getCrmConnection, getCrmSyncStatus, listCrmSyncLog, putCrmConnection } from '#data/crm-repository';
import { getCustomer } from '#data/customer-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { mintCrmState } from '#services/crm';
import type { FakeCrm } from '#test/fakes/crm-apis';
import { type CrmTestStack, startCrmTestStack } from '#test/fixtures/crm';
import { call } from '#test/fixtures/http';
import { moveThrough, seedPayment } from '#test/fixtures/payments';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

interface SyncData {
  sync_id: string;
  crm: string;
  status: 'succeeded' | 'failed';
  at_risk_customers: number;
  contacts_upserted: number;
  contacts_failed: number;
  truncated: boolean;
  at_risk_by_currency: Record<string, number>;
  recovered_by_currency: Record<string, number>;
  token_refreshed: boolean;
  error: string | null;
  last_synced_at: string | null;
}
interface Body<T> {
  data: T;
  meta: { merchant_id?: string };
  error?: { code: string; message: string; param?: string };
}

/** Two customers at risk (one also with a recovered payment), one whose only payment is terminal. */
async function seedBook(merchantId: string): Promise<PaymentRecord[]> {
  const ada = { email: `ada-${merchantId}@example.com`, name: 'Ada Lovelace' };
  const bo = { email: `bo-${merchantId}@example.com`, name: 'Bo' };
  const cy = { email: `cy-${merchantId}@example.com`, name: 'Cy Gone' };
  return [
    await seedPayment(merchantId, { customer: ada, amount: 4999, currency: 'usd' }),
    await moveThrough(merchantId, await seedPayment(merchantId, { customer: ada, amount: 1500, currency: 'usd' }), ['retry', 'recover']),
    await seedPayment(merchantId, { customer: bo, amount: 2000, currency: 'eur' }),
    await moveThrough(merchantId, await seedPayment(merchantId, { customer: cy, amount: 900, currency: 'usd' }), ['terminate']),
  ];
}

/** Direct count over the seeded payments: open amounts per currency, and customers with an open payment. */
function expectedAtRisk(payments: readonly PaymentRecord[]): { customers: Set<string>; amounts: Record<string, number> } {
  const customers = new Set<string>();
  const amounts: Record<string, number> = {};
  for (const payment of payments) {
    if (!isOpen(payment.status)) continue;
    customers.add(payment.customer_id);
    amounts[payment.currency] = (amounts[payment.currency] ?? 0) + payment.amount;
  }
  return { customers, amounts };
}

describe('/api/v1/crm_a and /api/v1/crm_b', () => {
  let crms: CrmTestStack;
  let stack: LocalStack;

  const fakeOf = (crm: CrmName): FakeCrm => crms.fakes[crm];
  const callback = (crm: CrmName, body: unknown) => call<Body<Record<string, unknown>>>(`${stack.api_url}/${crm}/oauth/callback`, { method: 'POST', body });
  const sync = (crm: CrmName, tenant: Tenant) => call<Body<SyncData>>(`${stack.api_url}/${crm}/sync`, { method: 'POST', key: tenant.key });
  const connect = async (crm: CrmName, tenant: Tenant): Promise<void> => {
    const response = await callback(crm, { code: fakeOf(crm).issueCode(), state: await mintCrmState(tenant.merchant.id, crm) });
    expect(response.status).toBe(200);
  };

  beforeAll(async () => {
    crms = await startCrmTestStack();
    ({ stack } = crms);
  });

  afterAll(() => crms.stop());

  describe.each(['crm_a', 'crm_b'] as const)('%s', (crm) => {
    it('connects with a signed state and pushes the customers at risk with their amounts per currency', async () => {
      // Prepare
      const tenant = await newTenant(['write'], UNLIMITED);
      const payments = await seedBook(tenant.merchant.id);
      const expected = expectedAtRisk(payments);
      const fake = fakeOf(crm);
      const upsertsBefore = fake.upsertRequests().length;

      // Act
      const connected = await callback(crm, { code: fake.issueCode(), state: await mintCrmState(tenant.merchant.id, crm) });
      const synced = await sync(crm, tenant);

      // Assess
      expect(connected.status).toBe(200);
      expect(CrmConnectionResponse.safeParse(connected.body).success).toBe(true);
      expect(connected.body.data).toMatchObject({ crm, connected: true });
      expect(connected.body.meta.merchant_id).toBe(tenant.merchant.id);
      expect(JSON.stringify(connected.body)).not.toContain(fake.issuedAccessTokens.at(-1));
      const connection = await getCrmConnection(tenant.merchant.id, crm);
      expect(connection?.sealed_tokens).toMatch(/^v1\.local\./);
      expect(connection?.sealed_tokens).not.toContain(fake.issuedAccessTokens.at(-1));

      expect(synced.status).toBe(200);
      expect(CrmSyncResponse.safeParse(synced.body).success).toBe(true);
      const recovered = await Promise.all([...expected.customers].map((id) => getCustomer(tenant.merchant.id, id)));
      const recoveredUsd = recovered.reduce((sum, customer) => sum + (customer?.total_recovered_by_currency.usd ?? 0), 0);
      expect(synced.body.data).toMatchObject({
        crm,
        status: 'succeeded',
        at_risk_customers: expected.customers.size,
        contacts_upserted: expected.customers.size,
        contacts_failed: 0,
        truncated: false,
        at_risk_by_currency: expected.amounts,
        recovered_by_currency: { usd: recoveredUsd },
        token_refreshed: false,
        error: null,
      });
      expect(recoveredUsd).toBe(1500);
      expect(synced.body.data.last_synced_at).not.toBeNull();

      const upserts = fake.upsertRequests().slice(upsertsBefore);
      expect(upserts).toHaveLength(1);
      expect(upserts[0]?.headers.authorization).toBe(`Bearer ${fake.issuedAccessTokens.at(-1)}`);
      const ada = payments[0] as PaymentRecord;
      const adaRecord = await getCustomer(tenant.merchant.id, ada.customer_id);
      const adaContact = crm === 'crm_a' ? fake.contacts.get(adaRecord?.email ?? '') : fake.contacts.get(ada.customer_id);
      if (crm === 'crm_a')
        expect(adaContact).toMatchObject({
          email: adaRecord?.email,
          firstname: 'Ada',
          lastname: 'Lovelace',
          recovery_customer_id: ada.customer_id,
          recovery_open_payments: '1',
          recovery_at_risk_by_currency: JSON.stringify({ usd: 4999 }),
          recovery_recovered_by_currency: JSON.stringify({ usd: 1500 }),
        });
      else
        expect(adaContact).toMatchObject({
          Email: adaRecord?.email,
          FirstName: 'Ada',
          LastName: 'Lovelace',
          Recovery_Customer_Id__c: ada.customer_id,
          Recovery_Open_Payments__c: 1,
          Recovery_At_Risk_By_Currency__c: JSON.stringify({ usd: 4999 }),
          Recovery_Recovered_By_Currency__c: JSON.stringify({ usd: 1500 }),
        });
      expect(fake.contacts.size).toBeGreaterThanOrEqual(expected.customers.size);

      const log = await listCrmSyncLog(tenant.merchant.id, crm);
      expect(log.map((entry) => [entry.sync_id, entry.outcome, entry.at_risk_customers])).toEqual([
        [synced.body.data.sync_id, 'succeeded', expected.customers.size],
      ]);
      expect(JSON.stringify(log)).not.toContain('@example.com');
      expect(await getCrmSyncStatus(tenant.merchant.id, crm)).toMatchObject({
        last_error: null,
        last_outcome: 'succeeded',
        last_synced_at: synced.body.data.last_synced_at,
      });
    });

    it('refreshes the access token once when the CRM answers 401, and keeps the new one', async () => {
      // Prepare
      const tenant = await newTenant(['write'], UNLIMITED);
      await seedBook(tenant.merchant.id);
      const fake = fakeOf(crm);
      await connect(crm, tenant);
      fake.expireAccessTokens();
      const tokenRequestsBefore = fake.tokenRequests().length;
      const upsertsBefore = fake.upsertRequests().length;

      // Act
      const first = await sync(crm, tenant);
      const second = await sync(crm, tenant);

      // Assess
      expect([first.status, first.body.data.status, first.body.data.token_refreshed]).toEqual([200, 'succeeded', true]);
      expect([second.status, second.body.data.status, second.body.data.token_refreshed]).toEqual([200, 'succeeded', false]);
      const refreshes = fake.tokenRequests().slice(tokenRequestsBefore);
      expect(refreshes.map((request) => new URLSearchParams(request.bodyText).get('grant_type'))).toEqual(['refresh_token']);
      const upserts = fake.upsertRequests().slice(upsertsBefore);
      expect(upserts.map((request) => request.headers.authorization)).toEqual([
        `Bearer ${fake.issuedAccessTokens.at(-2)}`,
        `Bearer ${fake.issuedAccessTokens.at(-1)}`,
        `Bearer ${fake.issuedAccessTokens.at(-1)}`,
      ]);
    });

    it('records and answers a CRM failure as a failed sync (no 500), and clears last_error on the next success', async () => {
      // Prepare
      const tenant = await newTenant(['write'], UNLIMITED);
      await seedBook(tenant.merchant.id);
      await connect(crm, tenant);
      fakeOf(crm).server.failNextWith(503);

      // Act
      const failed = await sync(crm, tenant);
      const statusAfterFailure = await getCrmSyncStatus(tenant.merchant.id, crm);
      const next = await sync(crm, tenant);

      // Assess
      expect(failed.status).toBe(200);
      expect(failed.body.data).toMatchObject({ status: 'failed', contacts_upserted: 0, contacts_failed: 2, last_synced_at: null });
      expect(failed.body.data.error).toContain('unavailable (HTTP 503)');
      expect(statusAfterFailure).toMatchObject({ last_outcome: 'failed', last_synced_at: null, last_error: failed.body.data.error });
      expect(next.body.data.status).toBe('succeeded');
      expect(await getCrmSyncStatus(tenant.merchant.id, crm)).toMatchObject({ last_outcome: 'succeeded', last_error: null });
      expect((await listCrmSyncLog(tenant.merchant.id, crm)).map((entry) => entry.outcome)).toEqual(['succeeded', 'failed']);
    });

    it('shows in integrations health: not connected, then healthy after a sync, then degraded with the failed sync among its errors', async () => {
      // Prepare
      const tenant = await newTenant(['write', 'read'], UNLIMITED);
      const health = () => call<Body<Record<string, unknown>>>(`${stack.api_url}/integrations/${crm}/health`, { key: tenant.key });
      const before = await health();
      await seedBook(tenant.merchant.id);
      await connect(crm, tenant);
      await sync(crm, tenant);
      const healthy = await health();
      fakeOf(crm).server.failNextWith(503);
      const failed = await sync(crm, tenant);

      // Act
      const degraded = await health();
      const errors = await call<Body<Array<Record<string, unknown>>>>(`${stack.api_url}/integrations/${crm}/errors`, { key: tenant.key });

      // Assess
      expect(before.body.data).toMatchObject({ type: 'crm', connected: false, status: 'not_connected', events_24h: 0, last_error: null });
      expect(healthy.body.data).toMatchObject({
        connected: true,
        status: 'healthy',
        events_24h: 1,
        last_event_received_at: expect.any(String),
        last_error: null,
      });
      expect(degraded.body.data).toMatchObject({
        connected: true,
        status: 'degraded',
        events_24h: 2,
        last_error: { type: 'sync_failed', code: failed.body.data.error },
      });
      expect(errors.body.data).toEqual([expect.objectContaining({ type: 'sync_failed', code: failed.body.data.error, id: failed.body.data.sync_id })]);
    });

    it('answers 409 when the merchant has not connected the CRM, and another merchant never syncs with this one’s tokens', async () => {
      // Prepare
      const owner = await newTenant(['write'], UNLIMITED);
      const stranger = await newTenant(['write'], UNLIMITED);
      await seedBook(stranger.merchant.id);
      await connect(crm, owner);
      const upsertsBefore = fakeOf(crm).upsertRequests().length;

      // Act
      const response = await sync(crm, stranger);

      // Assess
      expect([response.status, response.body.error?.code]).toEqual([409, 'state_conflict']);
      expect(fakeOf(crm).upsertRequests().length).toBe(upsertsBefore);
      expect(await listCrmSyncLog(stranger.merchant.id, crm)).toEqual([]);
    });

    it('does not open tokens copied onto another merchant’s connection: the sync fails, nothing is pushed', async () => {
      // Prepare
      const owner = await newTenant(['write'], UNLIMITED);
      const stranger = await newTenant(['write'], UNLIMITED);
      await seedBook(stranger.merchant.id);
      await connect(crm, owner);
      const stolen = (await getCrmConnection(owner.merchant.id, crm))?.sealed_tokens as string;
      await putCrmConnection(stranger.merchant.id, crm, stolen, new Date());
      const upsertsBefore = fakeOf(crm).upsertRequests().length;

      // Act
      const response = await sync(crm, stranger);

      // Assess
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ status: 'failed', contacts_upserted: 0, at_risk_customers: 2 });
      expect(response.body.data.error).toContain('could not be decrypted');
      expect(fakeOf(crm).upsertRequests().length).toBe(upsertsBefore);
      expect(await getCrmSyncStatus(stranger.merchant.id, crm)).toMatchObject({ last_outcome: 'failed', last_error: response.body.data.error });
    });

    it('refuses a tampered, expired, replayed or other-CRM state with 400 on state, and a refused code with 400 on code', async () => {
      // Prepare
      const tenant = await newTenant(['write'], UNLIMITED);
      const fake = fakeOf(crm);
      const other: CrmName = crm === 'crm_a' ? 'crm_b' : 'crm_a';
      const good = await mintCrmState(tenant.merchant.id, crm);
      const [payload, signature] = good.split('.') as [string, string];
      const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), merchant_id: 'm_someone_else' })).toString(
        'base64url',
      );
      const expired = await mintCrmState(tenant.merchant.id, crm, new Date(Date.now() - 11 * 60_000));

      // Act
      const results = {
        tampered: await callback(crm, { code: fake.issueCode(), state: `${forged}.${signature}` }),
        garbage: await callback(crm, { code: fake.issueCode(), state: 'not-a-state' }),
        expired: await callback(crm, { code: fake.issueCode(), state: expired }),
        otherCrm: await callback(crm, { code: fake.issueCode(), state: await mintCrmState(tenant.merchant.id, other) }),
        first: await callback(crm, { code: fake.issueCode(), state: good }),
        replay: await callback(crm, { code: fake.issueCode(), state: good }),
        badCode: await callback(crm, { code: 'code_never_issued', state: await mintCrmState(tenant.merchant.id, crm) }),
        missingCode: await callback(crm, { state: await mintCrmState(tenant.merchant.id, crm) }),
      };

      // Assess
      const summary = Object.fromEntries(Object.entries(results).map(([name, r]) => [name, [r.status, r.body.error?.param ?? null]]));
      expect(summary).toEqual({
        tampered: [400, 'state'],
        garbage: [400, 'state'],
        expired: [400, 'state'],
        otherCrm: [400, 'state'],
        first: [200, null],
        replay: [400, 'state'],
        badCode: [400, 'code'],
        missingCode: [400, 'code'],
      });
      expect(results.expired.body.error?.message).toContain('expired');
      expect(results.replay.body.error?.message).toContain('used already');
    });

    it('refuses a key without the write scope (403)', async () => {
      // Prepare
      const tenant = await newTenant(['read'], UNLIMITED);
      await connect(crm, tenant);
      const upsertsBefore = fakeOf(crm).upsertRequests().length;

      // Act
      const response = await sync(crm, tenant);

      // Assess
      expect([response.status, response.body.error?.code]).toEqual([403, 'insufficient_scope']);
      expect(fakeOf(crm).upsertRequests().length).toBe(upsertsBefore);
    });
  });
});
