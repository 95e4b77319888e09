/**
 * /api/custom-hostname/{provision, verify, status/{id}, {id}} over HTTP, with DNS answered by a
 * server on loopback (DNS_SERVERS), so the real resolver code runs: provision (the CNAME and TXT
 * to create), pending → active once both are right (the local CA issues, the local CDN attaches),
 * active → moved, delete (claim released, CDN purged and detached), the claim across merchants
 * (409), every bad hostname (422 `param: hostname`), scopes, another merchant's ids (404), and a
 * `custom_hostname.updated` event for every state change.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { localCdnCalls } from '#adapters/cdn/local';
import { provisionCustomHostnameSchemas, getCustomHostnameStatusSchemas, verifyCustomHostnameSchemas } from '#api/custom-hostname/schemas';
import { MAX_CUSTOM_HOSTNAMES } from '#core/custom-hostnames';
import { createApiKey } from '#data/api-key-repository';
import { documentClient } from '#data/client';
import { customHostnameKeys } from '#data/keys';
import { listOutboundEvents } from '#data/outbound-event-repository';
import { useDnsStack } from '#test/fixtures/dns-stack';
import { call } from '#test/fixtures/http';
import { originOf } from '#test/fixtures/local-stack';
import { expectOtherMerchantGets404, newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

interface DnsRecord {
  type: 'CNAME' | 'TXT';
  name: string;
  expected: string;
  found: string[] | null;
  valid: boolean;
}
interface Hostname {
  id: string;
  hostname: string;
  status: string;
  cname_target: string;
  ownership_verification: { type: 'TXT'; name: string; value: string };
  dns_records: DnsRecord[];
  certificate: { status: string; validation_records: unknown[]; issued_at: string | null };
  verification_errors: string[];
  last_checked_at: string | null;
  next_check_at: string | null;
  activated_at: string | null;
  deleted_at: string | null;
  created_at: string;
}
interface Body {
  data: Hostname;
  error?: { code: string; message: string; param?: string };
}

/** The local stack's custom host (CUSTOM_HOST unset: `custom.<SERVICE_DOMAIN>`, SERVICE_DOMAIN `recovery.local`). */
const CUSTOM_HOST = 'custom.recovery.local';

let sequence = 0;
/** A hostname of its own for each test, so tests never share a claim. */
const uniqueHostname = (): string => `pay-${Date.now().toString(36)}-${(sequence += 1)}.merchant.example`;

describe('/api/custom-hostname', () => {
  const running = useDnsStack();
  const url = (path: string) => `${originOf(running.stack)}/api/custom-hostname${path}`;
  const provision = (tenant: Tenant, body: unknown) => call<Body>(url('/provision'), { method: 'POST', key: tenant.key, body });
  const verify = (tenant: Tenant, body: unknown) => call<Body>(url('/verify'), { method: 'POST', key: tenant.key, body });
  const status = (tenant: Tenant, id: string) => call<Body>(url(`/status/${encodeURIComponent(id)}`), { key: tenant.key });
  const remove = (tenant: Tenant, id: string) => call<Body>(url(`/${encodeURIComponent(id)}`), { method: 'DELETE', key: tenant.key });

  /** Publishes the records a provisioned hostname asks for. */
  const publish = (hostname: Hostname) => {
    running.dns.setCname(hostname.hostname, hostname.cname_target);
    running.dns.setTxt(hostname.ownership_verification.name, [hostname.ownership_verification.value]);
  };

  /** A tenant with a hostname provisioned and made active through verify. */
  async function activeHostname(): Promise<{ tenant: Tenant; hostname: Hostname }> {
    const tenant = await newTenant(['admin'], UNLIMITED);
    const provisioned = (await provision(tenant, { hostname: uniqueHostname() })).body.data;
    publish(provisioned);
    const verified = await verify(tenant, { id: provisioned.id });
    expect(verified.body.data.status).toBe('active');
    return { tenant, hostname: verified.body.data };
  }

  describe('POST /provision', () => {
    it('answers 201 with a pending hostname, the CNAME to create and the ownership TXT record', async () => {
      // Prepare
      const tenant = await newTenant(['admin'], UNLIMITED);
      const name = uniqueHostname();

      // Act
      const response = await provision(tenant, { hostname: name.toUpperCase() });

      // Assess
      expect(response.status).toBe(201);
      expect(provisionCustomHostnameSchemas.responses[201].safeParse(response.body).success).toBe(true);
      const hostname = response.body.data;
      expect(hostname).toMatchObject({
        id: expect.stringMatching(/^chn_/),
        hostname: name,
        status: 'pending',
        cname_target: CUSTOM_HOST,
        ownership_verification: { type: 'TXT', name: `_recovery-challenge.${name}`, value: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/) },
        certificate: { status: 'pending_validation', validation_records: [], issued_at: null },
        verification_errors: [],
        last_checked_at: null,
        activated_at: null,
        deleted_at: null,
      });
      expect(hostname.dns_records).toEqual([
        { type: 'CNAME', name, expected: CUSTOM_HOST, found: null, valid: false },
        { type: 'TXT', name: `_recovery-challenge.${name}`, expected: hostname.ownership_verification.value, found: null, valid: false },
      ]);
      expect(Date.parse(hostname.next_check_at as string) - Date.parse(hostname.created_at)).toBe(60_000);
    });

    it('answers 409 when another merchant, or the same one, already holds the hostname, and writes nothing', async () => {
      // Prepare
      const owner = await newTenant(['admin'], UNLIMITED);
      const other = await newTenant(['admin'], UNLIMITED);
      const name = uniqueHostname();
      const first = await provision(owner, { hostname: name });

      // Act
      const stolen = await provision(other, { hostname: name });
      const again = await provision(owner, { hostname: `${name}.` });

      // Assess
      expect(first.status).toBe(201);
      for (const response of [stolen, again]) {
        expect(response.status).toBe(409);
        expect(response.body.error).toMatchObject({ code: 'state_conflict', param: 'hostname' });
      }
      const { Item } = await documentClient.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: customHostnameKeys.count(other.merchant.id) }));
      expect(Item?.hostname_count ?? 0).toBe(0);
    });

    it.each([
      ['an IPv4 address', '192.0.2.7'],
      ['an IPv6 address', '2001:db8::7'],
      ['a wildcard', '*.merchant.example'],
      ['the service domain', 'recovery.local'],
      ['a subdomain of the service domain', 'shop.recovery.local'],
      ['the custom host itself', CUSTOM_HOST],
      ['a name over 253 characters', `${'abcdefghi.'.repeat(25)}example`],
      ['a label over 63 characters', `${'a'.repeat(64)}.example`],
      ['bad characters', 'pay_now!.example'],
      ['a URL', 'https://pay.merchant.example/'],
      ['a single label', 'localhost'],
      ['10 KB', 'a'.repeat(10_240)],
      ['an empty string', ''],
    ])('refuses %s with 422 param hostname', async (_case, hostname) => {
      // Prepare
      const tenant = await newTenant(['admin'], UNLIMITED);
      // Act
      const response = await provision(tenant, { hostname });
      // Assess
      expect(response.status).toBe(422);
      expect(response.body.error).toMatchObject({ code: 'validation_error', param: 'hostname' });
    });

    it.each([
      ['no hostname', {}, 'hostname'],
      ['a number', { hostname: 42 }, 'hostname'],
      ['a __proto__ key', JSON.parse('{"__proto__": {"hostname": "pay.merchant.example"}}'), '__proto__'],
    ])('refuses a body with %s with a 4xx naming the field', async (_case, body, param) => {
      // Prepare
      const tenant = await newTenant(['admin'], UNLIMITED);
      // Act
      const response = await provision(tenant, body);
      // Assess
      expect([400, 422]).toContain(response.status);
      expect(response.body.error?.param).toBe(param);
    });

    it(`refuses a merchant's ${MAX_CUSTOM_HOSTNAMES + 1}th hostname with 422, and takes one again after a delete`, async () => {
      // Prepare
      const tenant = await newTenant(['admin'], UNLIMITED);
      const held = [];
      for (let i = 0; i < MAX_CUSTOM_HOSTNAMES; i += 1) held.push((await provision(tenant, { hostname: uniqueHostname() })).body.data);

      // Act
      const over = await provision(tenant, { hostname: uniqueHostname() });
      await remove(tenant, (held[0] as Hostname).id);
      const afterDelete = await provision(tenant, { hostname: uniqueHostname() });

      // Assess
      expect(over.status).toBe(422);
      expect(over.body.error).toMatchObject({ code: 'validation_error', param: 'hostname' });
      expect(afterDelete.status).toBe(201);
    }, 60_000);

    it.each([['read'], ['write']])('refuses a %s key with 403', async (scope) => {
      // Prepare
      const tenant = await newTenant([scope as 'read'], UNLIMITED);
      // Act
      const response = await provision(tenant, { hostname: uniqueHostname() });
      // Assess
      expect(response.status).toBe(403);
      expect(response.body.error?.code).toBe('insufficient_scope');
    });
  });

  describe('POST /verify', () => {
    it('goes pending → active once the CNAME and TXT are right: certificate issued, CDN attached, events recorded', async () => {
      // Prepare
      const tenant = await newTenant(['admin'], UNLIMITED);
      const provisioned = (await provision(tenant, { hostname: uniqueHostname() })).body.data;

      // Act
      const nothing = await verify(tenant, { id: provisioned.id });
      running.dns.setCname(provisioned.hostname, CUSTOM_HOST);
      const cnameOnly = await verify(tenant, { id: provisioned.id });
      running.dns.setTxt(provisioned.ownership_verification.name, ['unrelated', provisioned.ownership_verification.value]);
      const both = await verify(tenant, { hostname: provisioned.hostname });

      // Assess
      expect(nothing.status).toBe(200);
      expect(verifyCustomHostnameSchemas.responses[200].safeParse(nothing.body).success).toBe(true);
      expect(nothing.body.data).toMatchObject({ status: 'pending', certificate: { status: 'pending_validation' } });
      expect(nothing.body.data.dns_records.map((record) => [record.found, record.valid])).toEqual([
        [[], false],
        [[], false],
      ]);
      expect(nothing.body.data.verification_errors).toEqual([
        `No CNAME record at ${provisioned.hostname}: create one pointing at ${CUSTOM_HOST}`,
        `No TXT record at ${provisioned.ownership_verification.name} holds the ownership token`,
      ]);
      expect(cnameOnly.body.data.status).toBe('pending');
      expect(cnameOnly.body.data.dns_records.map((record) => record.valid)).toEqual([true, false]);
      expect(both.status).toBe(200);
      expect(both.body.data).toMatchObject({
        status: 'active',
        certificate: { status: 'active', issued_at: expect.any(String) },
        verification_errors: [],
        activated_at: expect.any(String),
      });
      expect(both.body.data.dns_records).toEqual([
        { type: 'CNAME', name: provisioned.hostname, expected: CUSTOM_HOST, found: [CUSTOM_HOST], valid: true },
        {
          type: 'TXT',
          name: provisioned.ownership_verification.name,
          expected: provisioned.ownership_verification.value,
          found: ['unrelated', provisioned.ownership_verification.value],
          valid: true,
        },
      ]);
      expect(Date.parse(both.body.data.next_check_at as string) - Date.parse(both.body.data.last_checked_at as string)).toBe(24 * 3600 * 1000);
      expect(localCdnCalls()).toContainEqual(
        expect.objectContaining({ action: 'attach', hostname: provisioned.hostname, certificateId: expect.stringMatching(/^local-ca:/) }),
      );
      const events = (await listOutboundEvents(tenant.merchant.id)).filter((event) => event.types.includes('custom_hostname.updated'));
      expect(events.map((event) => event.data.object)).toEqual([
        {
          hostname_id: provisioned.id,
          hostname: provisioned.hostname,
          status: 'active',
          previous_status: 'pending',
          certificate_status: 'active',
          previous_certificate_status: 'pending_validation',
          verification_errors: [],
          updated_at: both.body.data.last_checked_at,
        },
      ]);
    });

    it('marks an active hostname moved when its CNAME points elsewhere, and active again when it is back', async () => {
      // Prepare
      const { tenant, hostname } = await activeHostname();
      running.dns.setCname(hostname.hostname, 'elsewhere.cdn.example');
      // The ownership TXT may go once the hostname is active.
      running.dns.remove(hostname.ownership_verification.name);

      // Act
      const moved = await verify(tenant, { id: hostname.id });
      running.dns.setCname(hostname.hostname, CUSTOM_HOST);
      const back = await verify(tenant, { id: hostname.id });

      // Assess
      expect(moved.body.data).toMatchObject({ status: 'moved', next_check_at: null, certificate: { status: 'active' } });
      expect(moved.body.data.verification_errors).toEqual([`The CNAME of ${hostname.hostname} points at elsewhere.cdn.example, not ${CUSTOM_HOST}`]);
      expect(back.body.data.status).toBe('active');
      const changes = (await listOutboundEvents(tenant.merchant.id))
        .filter((event) => event.types.includes('custom_hostname.updated'))
        .map((event) => [event.data.object.previous_status, event.data.object.status]);
      expect(changes).toEqual([
        ['pending', 'active'],
        ['active', 'moved'],
        ['moved', 'active'],
      ]);
    });

    it("answers 404 for another merchant's hostname, by id or by name, and changes nothing", async () => {
      // Prepare
      const owner = await newTenant(['admin'], UNLIMITED);
      const provisioned = (await provision(owner, { hostname: uniqueHostname() })).body.data;
      const stranger = await newTenant(['admin'], UNLIMITED);

      // Act
      const byId = await verify(stranger, { id: provisioned.id });
      const byName = await verify(stranger, { hostname: provisioned.hostname });

      // Assess
      expect([byId.status, byId.body.error?.code]).toEqual([404, 'resource_not_found']);
      expect([byName.status, byName.body.error?.code]).toEqual([404, 'resource_not_found']);
      expect((await status(owner, provisioned.id)).body.data.last_checked_at).toBeNull();
    });

    it.each([
      ['neither id nor hostname', {}, 400, 'id'],
      ['an id and a hostname that disagree', 'disagree', 422, 'hostname'],
      ['a bad hostname', { hostname: '*.merchant.example' }, 422, 'hostname'],
      ['a 10 KB id', { id: 'x'.repeat(10_240) }, 422, 'id'],
      ['an id of no hostname', { id: 'chn_01JD8Z7C8D9E0F1G2H3J4K5M6N' }, 404, 'id'],
    ])('refuses %s', async (_case, body, expectedStatus, param) => {
      // Prepare
      const tenant = await newTenant(['admin'], UNLIMITED);
      const provisioned = (await provision(tenant, { hostname: uniqueHostname() })).body.data;
      const other = (await provision(tenant, { hostname: uniqueHostname() })).body.data;
      const sent = body === 'disagree' ? { id: provisioned.id, hostname: other.hostname } : body;
      // Act
      const response = await verify(tenant, sent);
      // Assess
      expect(response.status).toBe(expectedStatus);
      expect(response.body.error?.param).toBe(param);
    });

    it('refuses a read key with 403', async () => {
      const tenant = await newTenant(['read'], UNLIMITED);
      const response = await verify(tenant, { hostname: uniqueHostname() });
      expect([response.status, response.body.error?.code]).toEqual([403, 'insufficient_scope']);
    });
  });

  describe('GET /status/{id}', () => {
    it('answers a read key with both states, expected and found values, last and next check', async () => {
      // Prepare
      const { tenant, hostname } = await activeHostname();
      const { key } = await createApiKey({ merchantId: tenant.merchant.id, scopes: ['read'], mode: 'test' });

      // Act
      const response = await status({ merchant: tenant.merchant, key }, hostname.id);

      // Assess
      expect(response.status).toBe(200);
      expect(getCustomHostnameStatusSchemas.responses[200].safeParse(response.body).success).toBe(true);
      expect(response.body.data).toEqual(hostname);
    });

    it("answers 404 for another merchant's id, an unknown id and a 10 KB id", async () => {
      // Prepare
      const { tenant, hostname } = await activeHostname();
      // Act
      const unknown = await status(tenant, 'chn_01JD8Z7C8D9E0F1G2H3J4K5M6N');
      const huge = await status(tenant, 'x'.repeat(10_240));
      // Assess
      await expectOtherMerchantGets404(url(`/status/${hostname.id}`));
      expect(unknown.status).toBe(404);
      expect([404, 414, 431]).toContain(huge.status);
    });
  });

  describe('DELETE /{id}', () => {
    it('purges and detaches the CDN, releases the claim, records the event, and answers the deleted hostname', async () => {
      // Prepare
      const { tenant, hostname } = await activeHostname();
      const other = await newTenant(['admin'], UNLIMITED);

      // Act
      const response = await remove(tenant, hostname.id);
      const afterwards = await status(tenant, hostname.id);
      const again = await remove(tenant, hostname.id);
      const verifyDeleted = await verify(tenant, { id: hostname.id });
      const reclaimed = await provision(other, { hostname: hostname.hostname });

      // Assess
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ status: 'deleted', deleted_at: expect.any(String), next_check_at: null });
      expect(afterwards.body.data.status).toBe('deleted');
      expect([again.status, again.body.error?.code]).toEqual([409, 'state_conflict']);
      expect([verifyDeleted.status, verifyDeleted.body.error?.code]).toEqual([409, 'state_conflict']);
      expect(reclaimed.status).toBe(201);
      const tenantId = localCdnCalls().find((entry) => entry.action === 'attach' && entry.hostname === hostname.hostname);
      expect(tenantId).toBeDefined();
      const id = tenantId?.action === 'attach' ? tenantId.tenantId : '';
      expect(localCdnCalls()).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ action: 'purge', target: { kind: 'hostname', tenantId: id }, paths: ['/*'] }),
          { action: 'detach', tenantId: id },
        ]),
      );
      const last = (await listOutboundEvents(tenant.merchant.id)).filter((event) => event.types.includes('custom_hostname.updated')).at(-1);
      expect(last?.data.object).toMatchObject({ previous_status: 'active', status: 'deleted' });
    });

    it("answers 404 for another merchant's id and leaves it alone; refuses a read key with 403", async () => {
      // Prepare
      const tenant = await newTenant(['admin'], UNLIMITED);
      const provisioned = (await provision(tenant, { hostname: uniqueHostname() })).body.data;
      const reader = await newTenant(['read'], UNLIMITED);
      // Act
      await expectOtherMerchantGets404(url(`/${provisioned.id}`), { method: 'DELETE' });
      const refused = await remove(reader, provisioned.id);
      // Assess
      expect(refused.status).toBe(403);
      expect((await status(tenant, provisioned.id)).body.data.status).toBe('pending');
    });
  });
});
