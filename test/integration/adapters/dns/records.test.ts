import { dnsRecordResolver } from '#adapters/dns/records';
import { startDnsServer, type TestDnsServer } from '#test/fixtures/dns-server';

describe('the DNS records resolver against a DNS server on loopback', () => {
  let dns: TestDnsServer;

  beforeAll(async () => {
    dns = await startDnsServer();
  });

  afterAll(async () => {
    await dns.close();
  });

  it('answers CNAME, TXT and MX records, normalised', async () => {
    // Prepare
    dns.setCname('pay.example.com', 'Custom.Recovery.Example.NET.');
    dns.setTxt('_recovery.pay.example.com', ['token=abc', 'v=spf1 include:amazonses.com ~all']);
    dns.setMx('mail.example.com', [{ priority: 10, exchange: 'feedback-smtp.us-east-1.amazonses.com' }]);
    const resolver = dnsRecordResolver({ servers: [dns.address] });

    // Act
    const [cname, txt, mx] = await Promise.all([resolver.cname('pay.example.com'), resolver.txt('_recovery.pay.example.com'), resolver.mx('mail.example.com')]);

    // Assess
    expect(cname).toEqual(['custom.recovery.example.net']);
    expect(txt.sort()).toEqual(['token=abc', 'v=spf1 include:amazonses.com ~all']);
    expect(mx).toEqual([{ priority: 10, exchange: 'feedback-smtp.us-east-1.amazonses.com' }]);
  });

  it('answers an empty list for an unknown name and for a known name without the record', async () => {
    // Prepare
    dns.setTxt('only-txt.example.com', ['x']);
    const resolver = dnsRecordResolver({ servers: [dns.address] });

    // Act
    const [unknown, noCname] = await Promise.all([resolver.cname('nothing.example.com'), resolver.cname('only-txt.example.com')]);

    // Assess
    expect(unknown).toEqual([]);
    expect(noCname).toEqual([]);
  });

  it('throws when the server does not answer, rather than reporting the record absent', async () => {
    // Prepare: a port nobody answers on
    const resolver = dnsRecordResolver({ servers: ['127.0.0.1:9'], timeoutMs: 200 });

    // Act
    const outcome = resolver.txt('pay.example.com');

    // Assess
    await expect(outcome).rejects.toThrow();
  });
});
