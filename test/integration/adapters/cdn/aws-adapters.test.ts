/**
 * The AWS adapters of the custom-hostname ports against loopback fakes of the services' wire
 * protocols, so the adapters' own SigV4 signing and serialisation run: ACM (JSON 1.1: RequestCertificate with
 * DNS validation, DescribeCertificate mapped to our states, DeleteCertificate tolerating a
 * certificate already gone) and CloudFront SaaS Manager (REST-XML: CreateDistributionTenant,
 * disable-then-delete of a tenant, invalidations of a tenant and of the branding paths).
 */
import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AcmCertificateAuthority } from '#adapters/cdn/acm-certificates';
import { CloudFrontCdn } from '#adapters/cdn/cloudfront-cdn';

interface Seen {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}
type Reply = { status: number; body?: string; headers?: Record<string, string> };

/** A loopback server answering each request with `reply`, keeping every request. */
async function fake(reply: (request: Seen) => Reply): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    req.on('end', () => {
      const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      seen.push(request);
      const answer = reply(request);
      res.writeHead(answer.status, answer.headers).end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
const credentials = { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret-for-the-fake' };

/** Checks a request's SigV4 signature as AWS does (canonical request, scope, derived key), independently of the signer. */
function signatureVerifies(request: Seen, secretAccessKey: string): boolean {
  const match = /^AWS4-HMAC-SHA256 Credential=[^/]+\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
    String(request.headers.authorization),
  );
  if (match === null) return false;
  const [, date = '', region = '', service = '', signedHeaders = '', signature = ''] = match;
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
  const url = new URL(request.path, 'http://fake');
  const encode = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const canonicalQuery = [...url.searchParams]
    .map(([name, value]) => `${encode(name)}=${encode(value)}`)
    .sort()
    .join('&');
  const canonicalHeaders = signedHeaders
    .split(';')
    .map((name) => `${name}:${String(request.headers[name]).trim()}\n`)
    .join('');
  const canonicalRequest = [request.method, url.pathname, canonicalQuery, canonicalHeaders, signedHeaders, sha256(request.body)].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', String(request.headers['x-amz-date']), scope, sha256(canonicalRequest)].join('\n');
  const key = [date, region, service, 'aws4_request'].reduce<Buffer>(
    (secret, part) => createHmac('sha256', secret).update(part).digest(),
    Buffer.from(`AWS4${secretAccessKey}`),
  );
  return createHmac('sha256', key).update(stringToSign).digest('hex') === signature;
}

describe('AcmCertificateAuthority', () => {
  const arn = 'arn:aws:acm:us-east-1:123456789012:certificate/0f1e2d3c';
  const json = (body: unknown): Reply => ({ status: 200, body: JSON.stringify(body), headers: { 'content-type': 'application/x-amz-json-1.1' } });

  it('requests a DNS-validated certificate with an idempotency token, and maps its states', async () => {
    // Prepare
    const describeAnswers = [
      {
        Status: 'PENDING_VALIDATION',
        DomainValidationOptions: [
          {
            DomainName: 'pay.m.example',
            ValidationStatus: 'PENDING_VALIDATION',
            ResourceRecord: { Name: '_a1.pay.m.example.', Type: 'CNAME', Value: '_b2.acm-validations.aws.' },
          },
        ],
      },
      { Status: 'PENDING_VALIDATION', DomainValidationOptions: [{ DomainName: 'pay.m.example', ValidationStatus: 'SUCCESS' }] },
      { Status: 'ISSUED', DomainValidationOptions: [{ DomainName: 'pay.m.example', ValidationStatus: 'SUCCESS' }] },
      { Status: 'VALIDATION_TIMED_OUT', DomainValidationOptions: [] },
    ];
    const acm = await fake((request) => {
      const target = request.headers['x-amz-target'];
      if (target === 'CertificateManager.RequestCertificate') return json({ CertificateArn: arn });
      if (target === 'CertificateManager.DescribeCertificate') return json({ Certificate: describeAnswers.shift() });
      return { status: 400 };
    });
    const authority = new AcmCertificateAuthority({ region: 'us-east-1', endpoint: acm.url, credentials });

    // Act
    const requested = await authority.request('pay.m.example', 'chn_01JD8Z7C8D9E0F1G2H3J4K5M6N');
    const states = [];
    for (let i = 0; i < 4; i += 1) states.push(await authority.describe(requested.certificateId));

    // Assess
    expect(requested.certificateId).toBe(arn);
    expect(JSON.parse(acm.seen[0]?.body ?? '{}')).toMatchObject({
      DomainName: 'pay.m.example',
      ValidationMethod: 'DNS',
      IdempotencyToken: 'chn_01JD8Z7C8D9E0F1G2H3J4K5M6N',
    });
    expect(acm.seen[0]?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d{8}\/us-east-1\/acm\/aws4_request/);
    expect(acm.seen.every((request) => signatureVerifies(request, credentials.secretAccessKey))).toBe(true);
    expect(states).toEqual([
      { state: 'pending_validation', validationRecords: [{ type: 'CNAME', name: '_a1.pay.m.example', value: '_b2.acm-validations.aws' }] },
      { state: 'pending_issuance', validationRecords: [] },
      { state: 'issued', validationRecords: [] },
      { state: 'failed', validationRecords: [] },
    ]);
    await close(acm.server);
  });

  it('deletes a certificate, takes one already gone as deleted and leaves one CloudFront still holds', async () => {
    // Prepare
    const failure = (type: string): Reply => ({
      status: 400,
      body: JSON.stringify({ __type: type, message: type }),
      headers: { 'content-type': 'application/x-amz-json-1.1' },
    });
    const answers = [json({}), failure('ResourceNotFoundException'), failure('ResourceInUseException'), failure('AccessDeniedException')];
    const acm = await fake(() => answers.shift() ?? { status: 500 });
    const authority = new AcmCertificateAuthority({ region: 'us-east-1', endpoint: acm.url, credentials });
    // Act
    await authority.delete(arn);
    await authority.delete(arn);
    await authority.delete(arn);
    const denied = authority.delete(arn);
    // Assess
    await expect(denied).rejects.toThrow();
    expect(acm.seen.map((request) => [request.headers['x-amz-target'], JSON.parse(request.body).CertificateArn])).toEqual(
      Array.from({ length: 4 }, () => ['CertificateManager.DeleteCertificate', arn]),
    );
    await close(acm.server);
  });
});

describe('CloudFrontCdn', () => {
  const xml = (body: string, status = 200, etag = 'E1'): Reply => ({
    status,
    body: `<?xml version="1.0" encoding="UTF-8"?>${body}`,
    headers: { 'content-type': 'text/xml', etag },
  });
  const tenant = (enabled: boolean) =>
    `<DistributionTenant xmlns="http://cloudfront.amazonaws.com/doc/2020-05-31/"><Id>dt_7</Id><DistributionId>EDFDVBD6EXAMPLE</DistributionId><Name>chn-x</Name><Domains><member><Domain>pay.m.example</Domain><Status>active</Status></member></Domains><Enabled>${enabled}</Enabled><Status>Deployed</Status></DistributionTenant>`;
  const invalidation = (id: string) =>
    `<Invalidation xmlns="http://cloudfront.amazonaws.com/doc/2020-05-31/"><Id>${id}</Id><Status>InProgress</Status><CreateTime>2026-11-25T10:00:00Z</CreateTime><InvalidationBatch><Paths><Quantity>1</Quantity><Items><Path>/*</Path></Items></Paths><CallerReference>x</CallerReference></InvalidationBatch></Invalidation>`;

  it('attaches a hostname as a distribution tenant with its certificate, purges it and the branding paths, and disables then deletes it', async () => {
    // Prepare
    const cloudfront = await fake((request) => {
      if (request.method === 'POST' && request.path === '/2020-05-31/distribution-tenant') return xml(tenant(true), 201);
      if (request.method === 'GET' && request.path === '/2020-05-31/distribution-tenant/dt_7') return xml(tenant(true), 200, 'E1');
      if (request.method === 'PUT' && request.path === '/2020-05-31/distribution-tenant/dt_7') return xml(tenant(false), 200, 'E2');
      if (request.method === 'DELETE' && request.path === '/2020-05-31/distribution-tenant/dt_7') return { status: 204 };
      if (request.method === 'POST' && request.path === '/2020-05-31/distribution-tenant/dt_7/invalidation') return xml(invalidation('I_TENANT'), 201);
      if (request.method === 'POST' && request.path === '/2020-05-31/distribution/EDFDVBD6EXAMPLE/invalidation') return xml(invalidation('I_BRANDING'), 201);
      return { status: 404 };
    });
    const cdn = new CloudFrontCdn('EDFDVBD6EXAMPLE', { endpoint: cloudfront.url, credentials });

    // Act
    const attached = await cdn.attach('pay.m.example', 'arn:aws:acm:us-east-1:123456789012:certificate/0f1e2d3c');
    const tenantPurge = await cdn.purge({ kind: 'hostname', tenantId: attached.tenantId });
    const brandingPurge = await cdn.purge({ kind: 'branding', merchantId: 'merch_1' });
    await cdn.detach(attached.tenantId);

    // Assess
    expect(attached).toEqual({ tenantId: 'dt_7' });
    expect(tenantPurge).toEqual({ invalidationId: 'I_TENANT' });
    expect(brandingPurge).toEqual({ invalidationId: 'I_BRANDING' });
    const [create, purgeTenant, purgeBranding, get, update, remove] = cloudfront.seen;
    expect(create?.body).toContain('<DistributionId>EDFDVBD6EXAMPLE</DistributionId>');
    expect(create?.body).toContain('<Domain>pay.m.example</Domain>');
    expect(create?.body).toContain('<Arn>arn:aws:acm:us-east-1:123456789012:certificate/0f1e2d3c</Arn>');
    expect(purgeTenant?.body).toContain('<Path>/*</Path>');
    expect(purgeBranding?.body).toContain('<Path>/api/widget/branding/merch_1</Path>');
    expect(purgeBranding?.body).toContain('<Path>/api/custom-hostname/branding/merch_1</Path>');
    expect(get?.method).toBe('GET');
    expect([update?.method, update?.headers['if-match']]).toEqual(['PUT', 'E1']);
    expect(update?.body).toContain('<Enabled>false</Enabled>');
    expect([remove?.method, remove?.headers['if-match']]).toEqual(['DELETE', 'E2']);
    await close(cloudfront.server);
  });

  it('takes the tenant already made for the hostname when CloudFront says the domain exists (a check run again)', async () => {
    // Prepare
    const cloudfront = await fake((request) => {
      if (request.method === 'POST' && request.path === '/2020-05-31/distribution-tenant')
        return xml('<ErrorResponse><Error><Type>Sender</Type><Code>CNAMEAlreadyExists</Code><Message>exists</Message></Error></ErrorResponse>', 409);
      if (request.method === 'GET' && request.path === '/2020-05-31/distribution-tenant?domain=pay.m.example') return xml(tenant(true));
      return { status: 404 };
    });
    const cdn = new CloudFrontCdn('EDFDVBD6EXAMPLE', { endpoint: cloudfront.url, credentials });
    // Act
    const attached = await cdn.attach('pay.m.example', 'arn:aws:acm:us-east-1:123456789012:certificate/0f1e2d3c');
    // Assess
    expect(attached).toEqual({ tenantId: 'dt_7' });
    await close(cloudfront.server);
  });

  it('takes a tenant already gone as detached', async () => {
    // Prepare
    const cloudfront = await fake(() =>
      xml('<ErrorResponse><Error><Type>Sender</Type><Code>EntityNotFound</Code><Message>gone</Message></Error></ErrorResponse>', 404),
    );
    const cdn = new CloudFrontCdn('EDFDVBD6EXAMPLE', { endpoint: cloudfront.url, credentials });
    // Act
    const detached = cdn.detach('dt_gone');
    // Assess
    await expect(detached).resolves.toBeUndefined();
    await close(cloudfront.server);
  });

  it('signs every request with SigV4 for cloudfront in us-east-1, and tries a throttled or failing answer again', async () => {
    // Prepare
    const answers: Reply[] = [
      xml('<ErrorResponse><Error><Type>Sender</Type><Code>CNAMEAlreadyExists</Code><Message>exists</Message></Error></ErrorResponse>', 409),
      xml('<ErrorResponse><Error><Type>Sender</Type><Code>Throttling</Code><Message>slow down</Message></Error></ErrorResponse>', 400),
      xml(tenant(true)),
      xml('<ErrorResponse><Error><Type>Receiver</Type><Code>ServiceUnavailable</Code><Message>later</Message></Error></ErrorResponse>', 503),
      xml(invalidation('I_TENANT'), 201),
    ];
    const cloudfront = await fake(() => answers.shift() ?? { status: 500 });
    const cdn = new CloudFrontCdn('EDFDVBD6EXAMPLE', { endpoint: cloudfront.url, credentials });
    // Act
    const attached = await cdn.attach('pay.m.example', 'arn:aws:acm:us-east-1:123456789012:certificate/0f1e2d3c');
    const purged = await cdn.purge({ kind: 'hostname', tenantId: attached.tenantId });
    // Assess
    expect([attached, purged]).toEqual([{ tenantId: 'dt_7' }, { invalidationId: 'I_TENANT' }]);
    expect(cloudfront.seen.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /2020-05-31/distribution-tenant',
      'GET /2020-05-31/distribution-tenant?domain=pay.m.example',
      'GET /2020-05-31/distribution-tenant?domain=pay.m.example',
      'POST /2020-05-31/distribution-tenant/dt_7/invalidation',
      'POST /2020-05-31/distribution-tenant/dt_7/invalidation',
    ]);
    for (const request of cloudfront.seen) {
      expect(request.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d{8}\/us-east-1\/cloudfront\/aws4_request/);
      expect(signatureVerifies(request, credentials.secretAccessKey)).toBe(true);
      expect(signatureVerifies(request, 'another-secret')).toBe(false);
    }
    await close(cloudfront.server);
  });

  it('gives up on an error answer that is not transient, naming its code', async () => {
    // Prepare
    const cloudfront = await fake(() =>
      xml('<ErrorResponse><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>no &amp; never</Message></Error></ErrorResponse>', 403),
    );
    const cdn = new CloudFrontCdn('EDFDVBD6EXAMPLE', { endpoint: cloudfront.url, credentials });
    // Act
    const purge = cdn.purge({ kind: 'branding', merchantId: 'merch_1' });
    // Assess
    await expect(purge).rejects.toMatchObject({ name: 'AccessDenied', message: 'no & never', status: 403 });
    expect(cloudfront.seen).toHaveLength(1);
    await close(cloudfront.server);
  });
});
