import fc from 'fast-check';
import {
  checkRecord,
  expectedRecords,
  managedLabel,
  nextStatus,
  nextUtcMidnight,
  normaliseCustomDomain,
  senderAddressOn,
  WARM_UP_SCHEDULE,
  warmUpAt,
} from '#core/email-domains';
import { ValidationError } from '#core/errors';

describe('normaliseCustomDomain', () => {
  it('lower-cases, trims and drops the trailing dot', () => {
    // Act
    const domain = normaliseCustomDomain('  Mail.ACME.com. ', 'mail.recovery.example.com');
    // Assess
    expect(domain).toBe('mail.acme.com');
  });

  it('keeps an internationalised name in its punycode form', () => {
    // Act
    const domain = normaliseCustomDomain('Post.Bücher.de', 'mail.recovery.example.com');
    // Assess
    expect(domain).toBe('post.xn--bcher-kva.de');
  });

  it.each([
    ['198.51.100.7'],
    ['[::1]'],
    ['*.acme.com'],
    ['mail.recovery.example.com'],
    ['x.mail.recovery.example.com'],
    [`${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}.com`],
    ['acme..com'],
    ['acme-.com'],
    ['ac_me.com'],
    ['com'],
    ['acme.42'],
  ])('refuses %s with a validation error naming domain', (raw) => {
    // Act
    const attempt = () => normaliseCustomDomain(raw, 'mail.recovery.example.com');
    // Assess
    expect(attempt).toThrow(ValidationError);
    expect(() => attempt()).toThrow(expect.objectContaining({ param: 'domain' }));
  });

  it('never throws anything but a validation error, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (raw) => {
        try {
          const domain = normaliseCustomDomain(raw, 'mail.recovery.example.com');
          expect(domain.length).toBeLessThanOrEqual(253);
        } catch (error) {
          expect(error).toBeInstanceOf(ValidationError);
        }
      }),
    );
  });
});

describe('managedLabel', () => {
  it('makes an LDH label of the name and a suffix of the merchant id', () => {
    // Act
    const label = managedLabel('Ünïcode & Sons, Ltd.', 'mer_1');
    // Assess
    expect(label).toMatch(/^unicode-sons-ltd-[0-9a-f]{6}$/);
    expect(managedLabel('Ünïcode & Sons, Ltd.', 'mer_2')).not.toBe(label);
    expect(managedLabel('!!!', 'mer_1')).toMatch(/^m-[0-9a-f]{6}$/);
    expect(managedLabel('x'.repeat(100), 'mer_1').length).toBeLessThanOrEqual(63);
  });
});

describe('warmUpAt', () => {
  it('follows the published schedule by UTC day from verification, then uncaps', () => {
    // Prepare
    const verifiedAt = '2026-05-01T23:59:00Z';
    // Act
    const days = [0, 1, 2, WARM_UP_SCHEDULE.length - 1, WARM_UP_SCHEDULE.length].map((day) => warmUpAt(verifiedAt, new Date(Date.UTC(2026, 4, 1 + day, 0, 1))));
    // Assess
    expect(days).toEqual([
      { day: 0, dailyCap: 50 },
      { day: 1, dailyCap: 100 },
      { day: 2, dailyCap: 500 },
      { day: WARM_UP_SCHEDULE.length - 1, dailyCap: WARM_UP_SCHEDULE.at(-1) },
      { day: WARM_UP_SCHEDULE.length, dailyCap: null },
    ]);
  });

  it('holds capped mail until the next UTC midnight', () => {
    // Act
    const until = nextUtcMidnight(new Date('2026-05-01T23:59:59.999Z'));
    // Assess
    expect(until.toISOString()).toBe('2026-05-02T00:00:00.000Z');
  });
});

describe('nextStatus', () => {
  it('verifies on SUCCESS, fails on FAILED, and gives up 72 hours after setup', () => {
    // Prepare
    const created = '2026-05-01T10:00:00Z';
    // Act
    const answers = [
      nextStatus('SUCCESS', created, new Date('2026-05-05T10:00:00Z')),
      nextStatus('FAILED', created, new Date('2026-05-01T11:00:00Z')),
      nextStatus('PENDING', created, new Date('2026-05-04T09:59:59Z')),
      nextStatus('TEMPORARY_FAILURE', created, new Date('2026-05-04T10:00:00Z')),
    ];
    // Assess
    expect(answers).toEqual(['verified', 'failed', 'pending', 'failed']);
  });
});

describe('expectedRecords and checkRecord', () => {
  const records = expectedRecords('mail.acme.com', ['t1', 't2', 't3'], 'eu-west-1', 'dmarc@acme.com');

  it('lists the 3 DKIM CNAMEs, the MAIL FROM MX and SPF, and a DMARC suggestion', () => {
    // Assess
    expect(records.map((record) => [record.type, record.name, record.value, record.priority])).toEqual([
      ['CNAME', 't1._domainkey.mail.acme.com', 't1.dkim.amazonses.com', null],
      ['CNAME', 't2._domainkey.mail.acme.com', 't2.dkim.amazonses.com', null],
      ['CNAME', 't3._domainkey.mail.acme.com', 't3.dkim.amazonses.com', null],
      ['MX', 'bounce.mail.acme.com', 'feedback-smtp.eu-west-1.amazonses.com', 10],
      ['TXT', 'bounce.mail.acme.com', 'v=spf1 include:amazonses.com ~all', null],
      ['TXT', '_dmarc.mail.acme.com', 'v=DMARC1; p=none; rua=mailto:dmarc@acme.com;', null],
    ]);
  });

  it('tells found, missing and mismatch apart, and refuses two SPF records', () => {
    // Prepare
    const [dkim, , , mx, spf, dmarc] = records as [
      (typeof records)[number],
      unknown,
      unknown,
      (typeof records)[number],
      (typeof records)[number],
      (typeof records)[number],
    ];
    const none = { cname: [], txt: [], mx: [] };
    // Act
    const answers = [
      checkRecord(dkim, { ...none, cname: ['t1.dkim.amazonses.com'] }).status,
      checkRecord(dkim, none).status,
      checkRecord(dkim, { ...none, cname: ['elsewhere.example.net'] }).status,
      checkRecord(mx, { ...none, mx: [{ priority: 20, exchange: 'feedback-smtp.eu-west-1.amazonses.com' }] }).status,
      checkRecord(spf, { ...none, txt: ['google-site-verification=x', 'v=spf1 include:amazonses.com ~all'] }).status,
      checkRecord(spf, { ...none, txt: ['v=spf1 include:amazonses.com ~all', 'v=spf1 -all'] }).status,
      checkRecord(dmarc, { ...none, txt: ['v=DMARC1; p=reject'] }).status,
    ];
    // Assess
    expect(answers).toEqual(['found', 'missing', 'mismatch', 'found', 'found', 'mismatch', 'found']);
  });
});

describe('senderAddressOn', () => {
  it("keeps the default sender's local part at the merchant's domain", () => {
    // Assess
    expect(senderAddressOn('mail.acme.com', 'billing@recovery.example.com')).toBe('billing@mail.acme.com');
  });
});
