import fc from 'fast-check';
import {
  CHECK_WINDOW_MS,
  checkIntervalSeconds,
  MAX_CHECK_INTERVAL_SECONDS,
  nextCheckAt,
  normaliseHostname,
  ownershipRecordName,
  recordMatches,
} from '#core/custom-hostnames';
import { ValidationError } from '#core/errors';

const SERVICE = 'recovery.example';

/** The error normaliseHostname throws for `raw`, or undefined when it accepts it. */
function refusal(raw: string): ValidationError | undefined {
  try {
    normaliseHostname(raw, SERVICE);
    return undefined;
  } catch (error) {
    return error as ValidationError;
  }
}

describe('normaliseHostname', () => {
  it.each([
    ['pay.merchant.example', 'pay.merchant.example'],
    ['Pay.Merchant.EXAMPLE', 'pay.merchant.example'],
    ['pay.merchant.example.', 'pay.merchant.example'],
    ['  shop.example.co.uk ', 'shop.example.co.uk'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
    ['a-b.c-d.example', 'a-b.c-d.example'],
    ['recovery.example.com', 'recovery.example.com'],
    ['notrecovery.example', 'notrecovery.example'],
    [`${'a'.repeat(63)}.example`, `${'a'.repeat(63)}.example`],
  ])('accepts %s as %s', (raw, expected) => {
    // Act
    const hostname = normaliseHostname(raw, SERVICE);
    // Assess
    expect(hostname).toBe(expected);
  });

  it.each([
    ['an IPv4 address', '192.0.2.10'],
    ['an IPv6 address', '2001:db8::1'],
    ['a bracketed IPv6 address', '[2001:db8::1]'],
    ['a wildcard', '*.merchant.example'],
    ['the service domain', 'recovery.example'],
    ['a name under the service domain', 'custom.recovery.example'],
    ['a name deep under the service domain', 'a.b.RECOVERY.example'],
    ['a name over 253 characters', `${'abcdefghi.'.repeat(25)}example`],
    ['a label over 63 characters', `${'a'.repeat(64)}.example`],
    ['a single label', 'localhost'],
    ['an empty string', ''],
    ['only a dot', '.'],
    ['an empty label', 'pay..example'],
    ['a leading hyphen', '-pay.example'],
    ['a trailing hyphen', 'pay-.example'],
    ['an underscore', 'pay_now.example'],
    ['a space inside', 'pay now.example'],
    ['a URL', 'https://pay.example'],
    ['a path', 'pay.example/checkout'],
    ['a port', 'pay.example:443'],
    ['unicode', 'bücher.example'],
    ['an all-numeric top-level label', 'pay.example.123'],
    ['a proto key', '__proto__'],
  ])('refuses %s with 422 param hostname', (_case, raw) => {
    // Act
    const error = refusal(raw);
    // Assess
    expect(error).toBeInstanceOf(ValidationError);
    expect(error?.param).toBe('hostname');
    expect(error?.statusCode).toBe(422);
  });

  it('never throws anything but a ValidationError, and what it accepts is stable', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (raw) => {
        const error = refusal(raw);
        if (error !== undefined) return error instanceof ValidationError && error.param === 'hostname';
        const hostname = normaliseHostname(raw, SERVICE);
        return normaliseHostname(hostname, SERVICE) === hostname && hostname.length <= 253;
      }),
    );
  });
});

describe('checkIntervalSeconds', () => {
  it('follows min(60·1.05ⁿ s, 4 h), Cloudflare’s published backoff', () => {
    // Assess
    expect(checkIntervalSeconds(0)).toBe(60);
    expect(checkIntervalSeconds(1)).toBe(63);
    expect(checkIntervalSeconds(10)).toBe(Math.round(60 * 1.05 ** 10));
    expect(checkIntervalSeconds(60)).toBe(Math.round(60 * 1.05 ** 60));
    expect(checkIntervalSeconds(113)).toBe(MAX_CHECK_INTERVAL_SECONDS);
    expect(checkIntervalSeconds(500)).toBe(4 * 3600);
  });

  it('never decreases and never exceeds 4 h', () => {
    fc.assert(fc.property(fc.nat(2000), (n) => checkIntervalSeconds(n) <= checkIntervalSeconds(n + 1) && checkIntervalSeconds(n + 1) <= 4 * 3600));
  });
});

describe('nextCheckAt', () => {
  const created = new Date('2026-11-25T10:00:00.000Z');

  it('schedules the next check one interval after this one', () => {
    // Act
    const next = nextCheckAt(created, 3, new Date('2026-11-25T10:05:00.000Z'));
    // Assess
    expect(next?.toISOString()).toBe(new Date(Date.parse('2026-11-25T10:05:00.000Z') + checkIntervalSeconds(3) * 1000).toISOString());
  });

  it('never schedules past the 7-day window, and gives up once it is over', () => {
    // Prepare
    const deadline = created.getTime() + CHECK_WINDOW_MS;
    // Act
    const lastBefore = nextCheckAt(created, 200, new Date(deadline - 60_000));
    const after = nextCheckAt(created, 200, new Date(deadline));
    // Assess
    expect(lastBefore?.getTime()).toBe(deadline);
    expect(after).toBeUndefined();
  });

  it('covers the 7 days in 100 to 200 checks', () => {
    // Act
    let now = created;
    let checks = 0;
    for (let next = nextCheckAt(created, checks, now); next !== undefined; next = nextCheckAt(created, checks, now)) {
      now = next;
      checks += 1;
    }
    // Assess
    expect(checks).toBeGreaterThan(100);
    expect(checks).toBeLessThan(200);
    expect(now.getTime()).toBe(created.getTime() + CHECK_WINDOW_MS);
  });
});

describe('records', () => {
  it('names the ownership record under the hostname', () => {
    expect(ownershipRecordName('pay.merchant.example')).toBe('_recovery-challenge.pay.merchant.example');
  });

  it('matches CNAME targets case- and trailing-dot-insensitively, TXT values exactly', () => {
    expect(recordMatches('CNAME', 'custom.recovery.example', ['Custom.Recovery.Example.'])).toBe(true);
    expect(recordMatches('CNAME', 'custom.recovery.example', ['other.example'])).toBe(false);
    expect(recordMatches('TXT', 'Token', ['token'])).toBe(false);
    expect(recordMatches('TXT', 'Token', ['x', 'Token'])).toBe(true);
  });
});
