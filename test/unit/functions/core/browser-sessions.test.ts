import {
  type BrowserSessionRecord,
  clearedSessionCookie,
  hashSecret,
  isWellFormedSecret,
  newSecret,
  ROTATION_GRACE_SECONDS,
  sessionCookie,
  sessionIdOf,
  sessionRefusal,
} from '#core/browser-sessions';

const NOW = new Date('2026-11-25T12:00:00Z');
const seconds = (at: Date) => Math.floor(at.getTime() / 1000);
const session = (overrides: Partial<BrowserSessionRecord> = {}): BrowserSessionRecord => ({
  family_id: 'fam',
  subject: 'user_1',
  issuer: 'https://idp.example/',
  status: 'active',
  created_at: NOW.toISOString(),
  expires_at: seconds(NOW) + 3600,
  family_expires_at: seconds(NOW) + 43_200,
  rotated_at: null,
  revoked_at: null,
  ...overrides,
});

describe('browser sessions', () => {
  it('makes 43-character base64url secrets, different each time, hashed as 64 hex characters', () => {
    // Act
    const [one, two] = [newSecret(), newSecret()];
    // Assess
    expect(isWellFormedSecret(one)).toBe(true);
    expect(one).not.toBe(two);
    expect(hashSecret(one)).toMatch(/^[0-9a-f]{64}$/);
    expect(isWellFormedSecret(`${one}=`)).toBe(false);
  });

  it('writes the __Host- cookie with its attributes, and the cookie that clears it', () => {
    // Assess
    expect(sessionCookie('abc', 3600.7)).toBe('__Host-sid=abc; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=3600');
    expect(sessionCookie('abc', -5)).toMatch(/Max-Age=0$/);
    expect(clearedSessionCookie()).toBe('__Host-sid=; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=0');
  });

  it.each([
    [undefined, undefined],
    ['', undefined],
    ['theme=dark', undefined],
    ['theme=dark; __Host-sid=abc', 'abc'],
    ['__Host-sid=first; __Host-sid=second', 'first'],
    ['sid=other; __Host-sid= spaced ', 'spaced'],
    ['__host-sid=lower', undefined],
  ])('reads the session id of the Cookie header %p as %p', (header, expected) => {
    // Assess
    expect(sessionIdOf(header)).toBe(expected);
  });

  it('refuses a revoked, expired or family-expired session, and a rotated one as just rotated within the grace, reused after it', () => {
    // Prepare
    const rotatedAt = new Date(NOW.getTime() - (ROTATION_GRACE_SECONDS - 1) * 1000).toISOString();
    const rotatedLongAgo = new Date(NOW.getTime() - (ROTATION_GRACE_SECONDS + 1) * 1000).toISOString();
    // Assess
    expect(sessionRefusal(session(), NOW)).toBeUndefined();
    expect(sessionRefusal(session({ status: 'revoked' }), NOW)).toBe('revoked');
    expect(sessionRefusal(session({ expires_at: seconds(NOW) }), NOW)).toBe('expired');
    expect(sessionRefusal(session({ family_expires_at: seconds(NOW) - 1 }), NOW)).toBe('expired');
    expect(sessionRefusal(session({ status: 'rotated', rotated_at: rotatedAt }), NOW)).toBe('just_rotated');
    expect(sessionRefusal(session({ status: 'rotated', rotated_at: rotatedLongAgo }), NOW)).toBe('rotated');
  });
});
