/**
 * The email-domain operations over HTTP (edge host paths), with DNS answered by a server on
 * loopback (DNS_SERVERS) so that the real records resolver runs: auto-provision, custom setup
 * (the records to create; claims), verify and status (per record expected vs found, SES's words),
 * delete (the claim released), scopes, another merchant's ids and bad input.
 */
import { EmailDomain } from '#api/email-domain/schemas';
import { localDkimTokens } from '#adapters/email-identity/local';
import { createApiKey } from '#data/api-key-repository';
import { emailDomainClaimHolder, getEmailDomainOfKind } from '#data/email-domain-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { startDnsServer, type TestDnsServer } from '#test/fixtures/dns-server';
import { call } from '#test/fixtures/http';
import { originOf, startTestStack } from '#test/fixtures/local-stack';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

jest.setTimeout(30_000);

interface DnsRecordView {
  purpose: string;
  type: string;
  name: string;
  value: string;
  priority: number | null;
  required: boolean;
  status: string;
  found: string[];
}
interface DomainView {
  id: string;
  domain: string;
  kind: string;
  status: string;
  from_address: string;
  dkim_status: string;
  mail_from_domain: string | null;
  mail_from_status: string | null;
  dns_records: DnsRecordView[];
  warm_up: { capped: boolean; day: number | null; daily_cap: number | null; sent_today: number; schedule: number[] };
  verified_at: string | null;
}
interface Body {
  data: DomainView;
  meta: { merchant_id?: string };
  error?: { code: string; message: string; param?: string };
}

let stack: LocalStack;
let dns: TestDnsServer;
let origin: string;
const saved = { dns: process.env.DNS_SERVERS, sending: process.env.SENDING_DOMAIN };

beforeAll(async () => {
  dns = await startDnsServer();
  process.env.DNS_SERVERS = dns.address;
  process.env.SENDING_DOMAIN = 'send.recovery.test';
  stack = await startTestStack();
  origin = originOf(stack);
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  await dns?.close();
  for (const [name, value] of [
    ['DNS_SERVERS', saved.dns],
    ['SENDING_DOMAIN', saved.sending],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const post = (tenant: Tenant | string, path: string, body?: unknown) =>
  call<Body>(`${origin}/api/email-domain/${path}`, {
    method: 'POST',
    key: typeof tenant === 'string' ? tenant : tenant.key,
    ...(body === undefined ? {} : { body }),
  });
const status = (tenant: Tenant | string, id: string) =>
  call<Body>(`${origin}/api/email-domain/status/${encodeURIComponent(id)}`, { key: typeof tenant === 'string' ? tenant : tenant.key });
const remove = (tenant: Tenant | string, id: string) =>
  call<Body>(`${origin}/api/email-domain/${encodeURIComponent(id)}`, { method: 'DELETE', key: typeof tenant === 'string' ? tenant : tenant.key });

let sequence = 0;
const uniqueDomain = (): string => `mail${Date.now().toString(36)}${(sequence++).toString(36)}.example.com`;

/** Publishes the domain's records at the DNS server: the 3 DKIM CNAMEs, and with `all` the MAIL FROM MX and SPF and a DMARC record. */
function publish(domain: string, all = true): void {
  for (const token of localDkimTokens(domain)) dns.setCname(`${token}._domainkey.${domain}`, `${token}.dkim.amazonses.com`);
  if (!all) return;
  dns.setMx(`bounce.${domain}`, [{ priority: 10, exchange: 'feedback-smtp.us-east-1.amazonses.com' }]);
  dns.setTxt(`bounce.${domain}`, ['v=spf1 include:amazonses.com ~all']);
  dns.setTxt(`_dmarc.${domain}`, ['v=DMARC1; p=none;']);
}

describe('POST /api/email-domain/auto-provision', () => {
  it('provisions a verified subdomain of the sending domain at once, and answers the same one again', async () => {
    // Prepare
    const tenant = await newTenant(['admin'], UNLIMITED);
    // Act
    const first = await post(tenant, 'auto-provision');
    const again = await post(tenant, 'auto-provision');
    // Assess
    expect(first.status).toBe(201);
    expect(EmailDomain.safeParse(first.body.data).success).toBe(true);
    expect(first.body.data).toMatchObject({ kind: 'managed', status: 'verified', dkim_status: 'SUCCESS', dns_records: [], mail_from_domain: null });
    expect(first.body.data.domain).toMatch(/^tenant-[a-z0-9]+-[0-9a-f]{6}\.send\.recovery\.test$/);
    expect(first.body.data.from_address).toBe(`no-reply@${first.body.data.domain}`);
    expect(first.body.data.warm_up).toMatchObject({ capped: false, daily_cap: null });
    expect(first.body.meta.merchant_id).toBe(tenant.merchant.id);
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(await emailDomainClaimHolder(first.body.data.domain)).toBe(tenant.merchant.id);
  });

  it('gives two merchants of the same name different subdomains', async () => {
    // Prepare
    const [a, b] = [await newTenant(['admin']), await newTenant(['admin'])];
    // Act
    const [first, second] = [await post(a, 'auto-provision'), await post(b, 'auto-provision')];
    // Assess
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(first.body.data.domain).not.toBe(second.body.data.domain);
  });
});

describe('POST /api/email-domain/custom-setup', () => {
  it('answers the DKIM CNAMEs, MAIL FROM MX and SPF and a DMARC suggestion, each with what DNS answers now', async () => {
    // Prepare
    const tenant = await newTenant(['admin'], UNLIMITED);
    const domain = uniqueDomain();
    // Act
    const response = await post(tenant, 'custom-setup', { domain: `  ${domain.toUpperCase()}. ` });
    // Assess
    expect(response.status).toBe(201);
    expect(EmailDomain.safeParse(response.body.data).success).toBe(true);
    const data = response.body.data;
    expect(data).toMatchObject({
      domain,
      kind: 'custom',
      status: 'pending',
      dkim_status: 'PENDING',
      mail_from_domain: `bounce.${domain}`,
      mail_from_status: 'PENDING',
    });
    const tokens = localDkimTokens(domain);
    expect(data.dns_records).toEqual([
      ...tokens.map((token) => ({
        purpose: 'dkim',
        type: 'CNAME',
        name: `${token}._domainkey.${domain}`,
        value: `${token}.dkim.amazonses.com`,
        priority: null,
        required: true,
        status: 'missing',
        found: [],
      })),
      {
        purpose: 'mail_from_mx',
        type: 'MX',
        name: `bounce.${domain}`,
        value: 'feedback-smtp.us-east-1.amazonses.com',
        priority: 10,
        required: false,
        status: 'missing',
        found: [],
      },
      {
        purpose: 'mail_from_spf',
        type: 'TXT',
        name: `bounce.${domain}`,
        value: 'v=spf1 include:amazonses.com ~all',
        priority: null,
        required: false,
        status: 'missing',
        found: [],
      },
      {
        purpose: 'dmarc',
        type: 'TXT',
        name: `_dmarc.${domain}`,
        value: expect.stringMatching(/^v=DMARC1; p=none;/),
        priority: null,
        required: false,
        status: 'missing',
        found: [],
      },
    ]);
    expect(await emailDomainClaimHolder(domain)).toBe(tenant.merchant.id);
  });

  it('answers the same setup again with 200, and another domain while one exists with 409', async () => {
    // Prepare
    const tenant = await newTenant(['admin'], UNLIMITED);
    const domain = uniqueDomain();
    const first = await post(tenant, 'custom-setup', { domain });
    // Act
    const again = await post(tenant, 'custom-setup', { domain });
    const other = await post(tenant, 'custom-setup', { domain: uniqueDomain() });
    // Assess
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(other.status).toBe(409);
    expect(other.body.error).toMatchObject({ code: 'state_conflict', param: 'domain' });
  });

  it('refuses a domain another merchant claimed with 409, and writes nothing for the second merchant', async () => {
    // Prepare
    const [owner, rival] = [await newTenant(['admin'], UNLIMITED), await newTenant(['admin'], UNLIMITED)];
    const domain = uniqueDomain();
    await post(owner, 'custom-setup', { domain });
    // Act
    const response = await post(rival, 'custom-setup', { domain });
    // Assess
    expect(response.status).toBe(409);
    expect(response.body.error).toMatchObject({ code: 'state_conflict', param: 'domain' });
    expect(await getEmailDomainOfKind(rival.merchant.id, 'custom')).toBeUndefined();
    expect(await emailDomainClaimHolder(domain)).toBe(owner.merchant.id);
  });

  it.each([
    ['an IPv4 address', '192.0.2.10'],
    ['an IPv6 address', '[2001:db8::1]'],
    ['a wildcard', '*.example.com'],
    ["the service's own sending domain", 'send.recovery.test'],
    ["a subdomain of the service's sending domain", 'acme.send.recovery.test'],
    ['a name over 253 characters', `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.example.com`],
    ['a 10 KB name', 'a'.repeat(10_240)],
    ['a label over 63 characters', `${'x'.repeat(64)}.example.com`],
    ['a label with an underscore', 'mail_out.example.com'],
    ['a label starting with a hyphen', '-mail.example.com'],
    ['a single label', 'localhost'],
    ['an empty name', ''],
    ['a numeric top-level label', 'mail.example.123'],
  ])('refuses %s with 422 param domain', async (_what, domain) => {
    // Prepare
    const tenant = await newTenant(['admin'], UNLIMITED);
    // Act
    const response = await post(tenant, 'custom-setup', { domain });
    // Assess
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: 'validation_error', param: 'domain' });
    expect(await getEmailDomainOfKind(tenant.merchant.id, 'custom')).toBeUndefined();
  });

  it.each([
    ['no domain', {}, 'domain'],
    ['a number', { domain: 42 }, 'domain'],
    ['a __proto__ key', JSON.parse('{"__proto__": {"domain": "x.example.com"}}'), '__proto__'],
  ])('answers a body with %s with 400 or 422 naming the field, never a 500', async (_what, body, param) => {
    // Prepare
    const tenant = await newTenant(['admin'], UNLIMITED);
    // Act
    const response = await post(tenant, 'custom-setup', body);
    // Assess
    expect([400, 422]).toContain(response.status);
    expect(response.body.error?.param).toBe(param);
    expect(await getEmailDomainOfKind(tenant.merchant.id, 'custom')).toBeUndefined();
  });
});

describe('POST /api/email-domain/verify and GET /api/email-domain/status/{id}', () => {
  it('stays pending with each record missing, then verifies once DNS has the records, with SES statuses in its words', async () => {
    // Prepare
    const tenant = await newTenant(['admin'], UNLIMITED);
    const domain = uniqueDomain();
    const setup = await post(tenant, 'custom-setup', { domain });
    const id = setup.body.data.id;
    // Act: nothing published yet
    const early = await post(tenant, 'verify', { id });
    // Assess
    expect(early.status).toBe(200);
    expect(early.body.data).toMatchObject({ status: 'pending', dkim_status: 'PENDING' });
    // Act: only DKIM, with a wrong SPF
    publish(domain, false);
    dns.setTxt(`bounce.${domain}`, ['v=spf1 include:_spf.example.net ~all']);
    const dkimOnly = await post(tenant, 'verify', { domain });
    // Assess
    expect(dkimOnly.body.data).toMatchObject({ status: 'verified', dkim_status: 'SUCCESS', mail_from_status: 'PENDING' });
    const byPurpose = (view: DomainView, purpose: string) => view.dns_records.filter((record) => record.purpose === purpose).map((record) => record.status);
    expect(byPurpose(dkimOnly.body.data, 'dkim')).toEqual(['found', 'found', 'found']);
    expect(dkimOnly.body.data.dns_records.find((record) => record.purpose === 'mail_from_spf')).toMatchObject({
      status: 'mismatch',
      found: ['v=spf1 include:_spf.example.net ~all'],
    });
    expect(dkimOnly.body.data.warm_up).toMatchObject({ capped: true, day: 0, daily_cap: 50, sent_today: 0 });
    expect(dkimOnly.body.data.verified_at).not.toBeNull();
    // Act: the rest published; status reads it with a read-only key
    publish(domain);
    const { key: readKey } = await createApiKey({ merchantId: tenant.merchant.id, scopes: ['read'], mode: 'test' });
    const view = await status(readKey, id);
    // Assess
    expect(view.status).toBe(200);
    expect(EmailDomain.safeParse(view.body.data).success).toBe(true);
    expect(view.body.data).toMatchObject({ status: 'verified', dkim_status: 'SUCCESS', mail_from_status: 'SUCCESS' });
    expect(view.body.data.dns_records.map((record) => record.status)).toEqual(['found', 'found', 'found', 'found', 'found', 'found']);
    expect(view.body.data.dns_records.find((record) => record.purpose === 'mail_from_mx')?.found).toEqual(['10 feedback-smtp.us-east-1.amazonses.com']);
  });

  it('answers a DNS failure as lookup_failed records and TEMPORARY_FAILURE, keeping the domain pending, never a 500', async () => {
    // Prepare
    const tenant = await newTenant(['admin'], UNLIMITED);
    const id = (await post(tenant, 'custom-setup', { domain: uniqueDomain() })).body.data.id;
    // Act: no DNS server answers on this port
    process.env.DNS_SERVERS = '127.0.0.1:9';
    let response: Awaited<ReturnType<typeof post>>;
    try {
      response = await post(tenant, 'verify', { id });
    } finally {
      process.env.DNS_SERVERS = dns.address;
    }
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ status: 'pending', dkim_status: 'TEMPORARY_FAILURE' });
    expect(new Set(response.body.data.dns_records.map((record) => record.status))).toEqual(new Set(['lookup_failed']));
  });

  it("verifies the merchant's custom domain when the body names none, and answers 404 when there is none", async () => {
    // Prepare
    const [tenant, empty] = [await newTenant(['admin'], UNLIMITED), await newTenant(['admin'], UNLIMITED)];
    const domain = uniqueDomain();
    await post(tenant, 'custom-setup', { domain });
    publish(domain);
    // Act
    const response = await post(tenant, 'verify', {});
    const none = await post(empty, 'verify', {});
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ domain, status: 'verified' });
    expect(none.status).toBe(404);
    expect(none.body.error?.code).toBe('resource_not_found');
  });

  it("answers another merchant's domain id with 404 on verify, status and delete, and changes nothing", async () => {
    // Prepare
    const [owner, stranger] = [await newTenant(['admin'], UNLIMITED), await newTenant(['admin'], UNLIMITED)];
    const domain = uniqueDomain();
    const id = (await post(owner, 'custom-setup', { domain })).body.data.id;
    // Act
    const answers = [
      await post(stranger, 'verify', { id }),
      await post(stranger, 'verify', { domain }),
      await status(stranger, id),
      await remove(stranger, id),
    ];
    // Assess
    expect(answers.map((answer) => [answer.status, answer.body?.error?.code])).toEqual(Array(4).fill([404, 'resource_not_found']));
    expect((await status(owner, id)).status).toBe(200);
  });

  it.each([
    ['an unknown id', 'edom_01ARZ3NDEKTSV4RRFFQ69G5FAV'],
    ['a malformed id', 'nope'],
    ['a 10 KB id', `edom_${'x'.repeat(10_240)}`],
  ])('answers %s with 404, never a 500', async (_what, id) => {
    // Prepare
    const tenant = await newTenant(['admin'], UNLIMITED);
    // Act
    const answers = [await status(tenant, id), await remove(tenant, id), await post(tenant, 'verify', { id })];
    // Assess
    for (const answer of answers) expect(answer.status === 404 || answer.status === 422).toBe(true);
    expect(answers[0]?.status).toBe(404);
  });

  it('answers a verify body of the wrong shape with 422 naming the field', async () => {
    // Prepare
    const tenant = await newTenant(['admin'], UNLIMITED);
    // Act
    const response = await post(tenant, 'verify', { id: 7 });
    // Assess
    expect([400, 422]).toContain(response.status);
    expect(response.body.error?.param).toBe('id');
  });
});

describe('DELETE /api/email-domain/{id}', () => {
  it('deletes the domain and releases its name, so another merchant may claim it', async () => {
    // Prepare
    const [owner, next] = [await newTenant(['admin'], UNLIMITED), await newTenant(['admin'], UNLIMITED)];
    const domain = uniqueDomain();
    const id = (await post(owner, 'custom-setup', { domain })).body.data.id;
    // Act
    const deleted = await remove(owner, id);
    // Assess
    expect(deleted.status).toBe(204);
    expect((await status(owner, id)).status).toBe(404);
    expect((await remove(owner, id)).status).toBe(404);
    expect(await emailDomainClaimHolder(domain)).toBeUndefined();
    expect((await post(next, 'custom-setup', { domain })).status).toBe(201);
    expect((await post(owner, 'custom-setup', { domain: uniqueDomain() })).status).toBe(201);
  });
});

describe('scopes', () => {
  it.each([
    ['auto-provision', 'POST'],
    ['custom-setup', 'POST'],
    ['verify', 'POST'],
  ])('refuses %s to read and write keys with 403 (admin only)', async (path) => {
    // Prepare
    const [reader, writer] = [await newTenant(['read']), await newTenant(['write'])];
    // Act
    const answers = [await post(reader, path, { domain: uniqueDomain() }), await post(writer, path, { domain: uniqueDomain() })];
    // Assess
    expect(answers.map((answer) => [answer.status, answer.body.error?.code])).toEqual([
      [403, 'insufficient_scope'],
      [403, 'insufficient_scope'],
    ]);
  });

  it('answers without a key with 401', async () => {
    // Act
    const response = await call<Body>(`${origin}/api/email-domain/auto-provision`, { method: 'POST' });
    // Assess
    expect(response.status).toBe(401);
    expect(response.body.error?.code).toBe('invalid_api_key');
  });
});
