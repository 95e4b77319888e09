import { displayPartsOf, encodeBase62, generateApiKey, hashApiKey, isUsable, looksLikeApiKey } from '#core/api-keys';
import { InvalidScopeError, parseScopes, SCOPES, type Scope, scopesGrant } from '#core/scopes';

describe('encodeBase62', () => {
  it('encodes the bytes as one big-endian number in 0-9A-Za-z when given known values', () => {
    // Prepare
    const cases: Array<[number[], string]> = [
      [[0], '00'],
      [[61], '0z'],
      [[62], '10'],
      [[1, 0], '048'],
      [[255, 255], 'H31'],
    ];
    // Act
    const encoded = cases.map(([bytes]) => encodeBase62(Uint8Array.from(bytes)));
    // Assess
    expect(encoded).toEqual(cases.map(([, expected]) => expected));
  });

  it('pads 32 bytes to exactly 43 characters when the value is zero or the maximum', () => {
    // Prepare
    const zero = new Uint8Array(32);
    const max = new Uint8Array(32).fill(255);
    // Act
    const low = encodeBase62(zero);
    const high = encodeBase62(max);
    // Assess
    expect(low).toBe('0'.repeat(43));
    expect(high).toHaveLength(43);
    expect(BigInt(2) ** BigInt(256) - BigInt(1)).toBe(decodeForTest(high));
  });

  it('maps distinct byte strings to distinct strings when they differ only in the last byte', () => {
    // Prepare
    const a = new Uint8Array(32).fill(7);
    const b = Uint8Array.from(a);
    b[31] = 8;
    // Act
    const encodedA = encodeBase62(a);
    const encodedB = encodeBase62(b);
    // Assess
    expect(encodedA).not.toBe(encodedB);
    expect(decodeForTest(encodedB) - decodeForTest(encodedA)).toBe(BigInt(1));
  });
});

describe('generateApiKey', () => {
  it('returns rk_live_ followed by 43 base62 characters when the mode is live', () => {
    // Act
    const key = generateApiKey('live');
    // Assess
    expect(key).toMatch(/^rk_live_[0-9A-Za-z]{43}$/);
    expect(looksLikeApiKey(key)).toBe(true);
  });

  it('returns rk_test_ keys when the mode is test', () => {
    // Act
    const key = generateApiKey('test');
    // Assess
    expect(key).toMatch(/^rk_test_[0-9A-Za-z]{43}$/);
  });

  it('returns a different key on every call when called many times', () => {
    // Act
    const generated = new Set(Array.from({ length: 200 }, () => generateApiKey('live')));
    // Assess
    expect(generated.size).toBe(200);
  });

  it('uses every base62 character with no strong bias when many keys are generated', () => {
    // Prepare
    const counts = new Map<string, number>();
    // Act
    for (let i = 0; i < 2000; i += 1) {
      // The first character carries less than a full digit of entropy; the rest are uniform.
      for (const char of generateApiKey('live').slice('rk_live_'.length + 1)) counts.set(char, (counts.get(char) ?? 0) + 1);
    }
    // Assess: 84,000 characters over 62 symbols, about 1355 each.
    expect(counts.size).toBe(62);
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(1150);
      expect(count).toBeLessThan(1560);
    }
  });
});

describe('hashApiKey', () => {
  it('returns the SHA-256 hex digest when given a key', () => {
    // Prepare
    const key = 'abc';
    // Act
    const hash = hashApiKey(key);
    // Assess
    expect(hash).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('returns different hashes when keys differ by one character', () => {
    // Prepare
    const key = generateApiKey('live');
    const other = `${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}`;
    // Act
    const hashes = [hashApiKey(key), hashApiKey(other)];
    // Assess
    expect(hashes[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(hashes[0]).not.toBe(hashes[1]);
  });
});

describe('looksLikeApiKey', () => {
  it.each([
    ['', 'empty'],
    ['rk_live_short', 'too short'],
    [`rk_prod_${'a'.repeat(43)}`, 'an unknown mode'],
    [`sk_live_${'a'.repeat(43)}`, 'another prefix'],
    [`rk_live_${'a'.repeat(42)}-`, 'a non-base62 character'],
    [` rk_live_${'a'.repeat(43)}`, 'surrounded by spaces'],
  ])('rejects %j when it is %s', (candidate) => {
    // Act
    const looks = looksLikeApiKey(candidate);
    // Assess
    expect(looks).toBe(false);
  });

  it('accepts longer keys when they have more random characters', () => {
    // Act
    const looks = looksLikeApiKey(`rk_test_${'Z'.repeat(60)}`);
    // Assess
    expect(looks).toBe(true);
  });
});

describe('displayPartsOf', () => {
  it('returns the first 12 and last 4 characters when given a key', () => {
    // Prepare
    const key = `rk_live_ABCD${'x'.repeat(35)}WXYZ`;
    // Act
    const parts = displayPartsOf(key);
    // Assess
    expect(parts).toEqual({ prefix: 'rk_live_ABCD', last4: 'WXYZ' });
  });
});

describe('scopesGrant', () => {
  it('grants every scope when admin is held', () => {
    // Act
    const granted = SCOPES.filter((scope) => scopesGrant(['admin'], [scope]));
    // Assess
    expect(granted).toEqual([...SCOPES]);
  });

  it('grants read when write is held', () => {
    // Act
    const granted = scopesGrant(['write'], ['read']);
    // Assess
    expect(granted).toBe(true);
  });

  it('grants a scope when it is held itself', () => {
    // Act
    const granted = SCOPES.filter((scope) => scopesGrant([scope], [scope]));
    // Assess
    expect(granted).toEqual([...SCOPES]);
  });

  it('grants a route when any one of its scopes is held', () => {
    // Act
    const granted = scopesGrant(['read:payments'], ['read', 'read:payments']);
    // Assess
    expect(granted).toBe(true);
  });

  it.each<[Scope[], Scope[]]>([
    [['read'], ['write']],
    [['read'], ['admin']],
    [['write'], ['admin']],
    [['read:payments'], ['read']],
    [['read:payments'], ['read:customers']],
    [['write:payments'], ['read:payments']],
    [['write:payments'], ['write']],
    [['write:payments'], ['read']],
    [['admin:customers'], ['admin']],
    [['admin:customers'], ['read:customers']],
    [['admin:customers'], ['write:customers']],
    [['read'], ['read:payments']],
    [['write'], ['write:payments']],
    [['write'], ['read:payments']],
    [['analytics'], ['read']],
    [['read'], ['analytics']],
    [['webhooks'], ['email']],
    [[], ['read']],
  ])('refuses when %j is held and the route needs %j', (held, anyOf) => {
    // Act
    const granted = scopesGrant(held, anyOf);
    // Assess
    expect(granted).toBe(false);
  });

  it('grants nothing when the route lists no scope', () => {
    // Act
    const granted = scopesGrant(['admin'], []);
    // Assess
    expect(granted).toBe(false);
  });

  it('implies exactly read and write when write is held', () => {
    // Act
    const granted = SCOPES.filter((scope) => scopesGrant(['write'], [scope]));
    // Assess
    expect(granted).toEqual(['read', 'write']);
  });
});

describe('parseScopes', () => {
  it('returns known scopes in order without duplicates when given a comma-separated list', () => {
    // Act
    const scopes = parseScopes('read, write,read:payments,read');
    // Assess
    expect(scopes).toEqual(['read', 'write', 'read:payments']);
  });

  it.each(['', 'read,,write', 'read,superuser', 'READ'])('throws InvalidScopeError when given %j', (input) => {
    // Act
    const parse = (): Scope[] => parseScopes(input);
    // Assess
    expect(parse).toThrow(InvalidScopeError);
  });

  it('throws a validation error naming the scopes param when the list is empty', () => {
    // Act
    let caught: unknown;
    try {
      parseScopes([]);
    } catch (error) {
      caught = error;
    }
    // Assess
    expect(caught).toBeInstanceOf(InvalidScopeError);
    expect(caught).toMatchObject({ name: 'InvalidScopeError', code: 'validation_error', statusCode: 422, param: 'scopes' });
  });
});

describe('isUsable', () => {
  const now = new Date('2030-01-01T00:00:00.000Z');

  it('returns true when the key is neither revoked nor expiring', () => {
    // Act
    const usable = isUsable({ revoked_at: null, expires_at: null }, now);
    // Assess
    expect(usable).toBe(true);
  });

  it('returns true when the expiry is still ahead', () => {
    // Act
    const usable = isUsable({ revoked_at: null, expires_at: '2030-01-01T00:00:01.000Z' }, now);
    // Assess
    expect(usable).toBe(true);
  });

  it('returns false when the expiry is now or past', () => {
    // Act
    const atExpiry = isUsable({ revoked_at: null, expires_at: now.toISOString() }, now);
    const afterExpiry = isUsable({ revoked_at: null, expires_at: '2029-12-31T23:59:59.000Z' }, now);
    // Assess
    expect(atExpiry).toBe(false);
    expect(afterExpiry).toBe(false);
  });

  it('returns false when the key is revoked', () => {
    // Act
    const usable = isUsable({ revoked_at: '2029-06-01T00:00:00.000Z', expires_at: null }, now);
    // Assess
    expect(usable).toBe(false);
  });
});

/** An independent decoder, so the encoder is checked against arithmetic rather than itself. */
function decodeForTest(text: string): bigint {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  return [...text].reduce((value, char) => value * BigInt(62) + BigInt(alphabet.indexOf(char)), BigInt(0));
}
