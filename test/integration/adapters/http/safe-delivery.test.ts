import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dnsResolver } from '#adapters/dns/resolver';
import { deliverSafely } from '#adapters/http/safe-delivery';
import { checkResolvedAddresses, parseWebhookUrl } from '#core/webhooks/address-policy';
import { startDnsServer, type TestDnsServer } from '#test/fixtures/dns-server';

/** A receiver on loopback answering with `respond`; it records the requests it gets. */
async function receiver(
  respond: (req: IncomingMessage, res: import('node:http').ServerResponse) => void,
): Promise<{ server: Server; port: number; hits: Array<{ host?: string; body: string }> }> {
  const hits: Array<{ host?: string; body: string }> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    req.on('end', () => {
      hits.push({ ...(req.headers.host === undefined ? {} : { host: req.headers.host }), body });
      respond(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, hits };
}

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

const STRICT = { allowLoopback: false };
const LOCAL = { allowLoopback: true };

describe('webhook URL rules (at save)', () => {
  it.each([
    ['http://hooks.example.com/in', 'http://hooks.example.com/in', 'https://'],
    ['https://user:pass@hooks.example.com/in', 'https://user:pass@hooks.example.com/in', 'credentials'],
    ['a URL longer than 2048 characters', `https://hooks.example.com/${'a'.repeat(2100)}`, '2048'],
    ['not a url', 'not a url', 'absolute'],
    ['https://10.0.0.7/in', 'https://10.0.0.7/in', 'public'],
    ['https://127.0.0.1/in', 'https://127.0.0.1/in', 'public'],
    ['https://169.254.169.254/latest/meta-data', 'https://169.254.169.254/latest/meta-data', 'public'],
    ['https://100.64.1.2/in', 'https://100.64.1.2/in', 'public'],
    ['https://198.18.0.1/in', 'https://198.18.0.1/in', 'public'],
    ['https://[::1]/in', 'https://[::1]/in', 'public'],
    ['https://[fd12:3456::1]/in', 'https://[fd12:3456::1]/in', 'public'],
    ['https://[fe80::1]/in', 'https://[fe80::1]/in', 'public'],
    ['https://[::ffff:10.0.0.1]/in', 'https://[::ffff:10.0.0.1]/in', 'public'],
    ['https://[::ffff:169.254.169.254]/in', 'https://[::ffff:169.254.169.254]/in', 'public'],
  ])('refuses %s with 422 param url', (_label, url, reason) => {
    // Act
    let caught: unknown;
    try {
      parseWebhookUrl(url, STRICT);
    } catch (error) {
      caught = error;
    }

    // Assess
    expect(caught).toMatchObject({ statusCode: 422, param: 'url' });
    expect(String((caught as Error).message)).toContain(reason);
  });

  it('accepts a public https URL, and http only for loopback addresses when loopback is allowed', () => {
    expect(parseWebhookUrl('https://93.184.216.34/hooks', STRICT).href).toBe('https://93.184.216.34/hooks');
    expect(parseWebhookUrl('http://127.0.0.1:8080/hooks', LOCAL).port).toBe('8080');
    const url = parseWebhookUrl('http://receiver.example.test/hooks', LOCAL);
    expect(() => checkResolvedAddresses(url, ['93.184.216.34'], LOCAL)).toThrow('https://');
    expect(() => checkResolvedAddresses(url, ['127.0.0.1'], LOCAL)).not.toThrow();
  });

  it('refuses a host with one private address among public ones', () => {
    const url = parseWebhookUrl('https://hooks.example.com/in', STRICT);
    expect(() => checkResolvedAddresses(url, ['93.184.216.34', '10.1.2.3'], STRICT)).toThrow('public');
    expect(() => checkResolvedAddresses(url, [], STRICT)).toThrow('does not resolve');
  });
});

describe('deliverSafely', () => {
  let dns: TestDnsServer;
  beforeAll(async () => {
    dns = await startDnsServer();
  });
  afterAll(async () => {
    await dns.close();
  });

  it('resolves through the DNS server and connects to the pinned address, keeping the Host name', async () => {
    // Prepare
    const target = await receiver((_req, res) => res.writeHead(204, { 'webhook-delivery': 'ok' }).end());
    dns.set('receiver.example.test', ['127.0.0.1']);

    // Act
    const result = await deliverSafely({
      url: `http://receiver.example.test:${target.port}/in`,
      headers: { 'webhook-id': 'msg_1' },
      body: '{"hello":"world"}',
      resolver: dnsResolver({ servers: [dns.address] }),
      policy: LOCAL,
    });
    await close(target.server);

    // Assess
    expect(result).toMatchObject({ success: true, status: 204, error: null, address: '127.0.0.1', headers: { 'webhook-delivery': 'ok' } });
    expect(target.hits).toEqual([{ host: `receiver.example.test:${target.port}`, body: '{"hello":"world"}' }]);
  });

  it('refuses at send a name that resolved public at save and private now (DNS rebinding)', async () => {
    // Prepare
    const resolver = dnsResolver({ servers: [dns.address] });
    dns.set('rebind.example.test', ['93.184.216.34']);
    const url = parseWebhookUrl('https://rebind.example.test/in', STRICT);
    checkResolvedAddresses(url, await resolver.resolve('rebind.example.test'), STRICT);
    dns.set('rebind.example.test', ['10.0.0.5']);

    // Act
    const result = await deliverSafely({ url: url.href, headers: {}, body: '{}', resolver, policy: STRICT });

    // Assess
    expect(result).toMatchObject({ success: false, status: null, error: 'refused_address' });
    expect(result.address).toBeUndefined();
  });

  it.each([['169.254.169.254'], ['::ffff:192.168.1.1'], ['127.0.0.1'], ['fd00::1'], ['100.100.100.100']])(
    'refuses at send a name resolving to %s',
    async (address) => {
      // Prepare
      dns.set('inside.example.test', [address]);

      // Act
      const result = await deliverSafely({
        url: 'https://inside.example.test/in',
        headers: {},
        body: '{}',
        resolver: dnsResolver({ servers: [dns.address] }),
        policy: STRICT,
      });

      // Assess
      expect(result).toMatchObject({ success: false, error: 'refused_address' });
    },
  );

  it('refuses loopback receivers unless loopback is allowed', async () => {
    // Prepare
    const target = await receiver((_req, res) => res.writeHead(200).end());

    // Act
    const refused = await deliverSafely({ url: `https://127.0.0.1:${target.port}/in`, headers: {}, body: '{}', resolver: dnsResolver(), policy: STRICT });
    await close(target.server);

    // Assess
    expect(refused.error).toBe('refused_address');
    expect(target.hits).toHaveLength(0);
  });

  it('cuts a receiver that hangs at the timeout, reported as failed', async () => {
    // Prepare
    const target = await receiver(() => undefined);

    // Act
    const result = await deliverSafely({
      url: `http://127.0.0.1:${target.port}/in`,
      headers: {},
      body: '{}',
      resolver: dnsResolver(),
      policy: LOCAL,
      timeoutMs: 300,
    });
    await close(target.server);

    // Assess
    expect(result).toMatchObject({ success: false, status: null, error: 'timeout' });
    expect(result.duration_ms).toBeGreaterThanOrEqual(290);
    expect(result.duration_ms).toBeLessThan(2000);
  });

  it('cuts a 10 MB answer at 64 KB, reported as failed', async () => {
    // Prepare
    let written = 0;
    const target = await receiver((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024, 120);
      const pump = () => {
        while (written < 10 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('error', () => undefined);
      pump();
    });

    // Act
    const result = await deliverSafely({ url: `http://127.0.0.1:${target.port}/in`, headers: {}, body: '{}', resolver: dnsResolver(), policy: LOCAL });
    await close(target.server);

    // Assess
    expect(result).toMatchObject({ success: false, status: 200, error: 'response_too_large' });
    expect(written).toBeLessThan(10 * 1024 * 1024);
  });

  it('does not follow a redirect', async () => {
    // Prepare
    const elsewhere = await receiver((_req, res) => res.writeHead(200).end());
    const target = await receiver((_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${elsewhere.port}/stolen` }).end());

    // Act
    const result = await deliverSafely({ url: `http://127.0.0.1:${target.port}/in`, headers: {}, body: '{}', resolver: dnsResolver(), policy: LOCAL });
    await close(target.server);
    await close(elsewhere.server);

    // Assess
    expect(result).toMatchObject({ success: false, status: 302, error: 'redirect' });
    expect(target.hits).toHaveLength(1);
    expect(elsewhere.hits).toHaveLength(0);
  });

  it('reports a non-2xx answer as failed with its status', async () => {
    const target = await receiver((_req, res) => res.writeHead(410, { 'webhook-delivery': 'disable' }).end('gone'));
    const result = await deliverSafely({ url: `http://127.0.0.1:${target.port}/in`, headers: {}, body: '{}', resolver: dnsResolver(), policy: LOCAL });
    await close(target.server);
    expect(result).toMatchObject({ success: false, status: 410, error: 'http_status', headers: { 'webhook-delivery': 'disable' } });
  });

  it('reports a name that does not resolve as refused', async () => {
    const result = await deliverSafely({
      url: 'https://nowhere.example.test/in',
      headers: {},
      body: '{}',
      resolver: dnsResolver({ servers: [dns.address] }),
      policy: STRICT,
    });
    expect(result).toMatchObject({ success: false, error: 'refused_address', message: expect.stringContaining('does not resolve') });
  });
});
