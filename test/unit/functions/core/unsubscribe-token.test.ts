import { randomBytes } from 'node:crypto';
import { signUnsubscribeToken, verifyUnsubscribeToken } from '#core/unsubscribe-token';

describe('unsubscribe tokens', () => {
  const key = randomBytes(32);
  const claims = { merchantId: 'merch_abc', customerId: 'cust_01J000', channel: 'email' as const, messageId: 'msg_01J000' };

  it('gives back the claims of a token it signed', () => {
    // Act
    const token = signUnsubscribeToken(claims, key);
    // Assess
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(verifyUnsubscribeToken(token, key)).toEqual(claims);
  });

  it.each([
    ['another key', (token: string) => ({ token, key: randomBytes(32) })],
    [
      'a changed payload',
      (token: string) => ({
        token: `${Buffer.from(JSON.stringify(['merch_abc', 'cust_other', 'email', 'msg_01J000'])).toString('base64url')}.${token.split('.')[1]}`,
        key,
      }),
    ],
    ['a truncated signature', (token: string) => ({ token: token.slice(0, -1), key })],
    ['no signature', (token: string) => ({ token: token.split('.')[0] as string, key })],
    ['three parts', (token: string) => ({ token: `${token}.x`, key })],
  ])('refuses a token with %s', (_case, tamper) => {
    // Prepare
    const { token, key: verifyingKey } = tamper(signUnsubscribeToken(claims, key));
    // Act
    const result = verifyUnsubscribeToken(token, verifyingKey);
    // Assess
    expect(result).toBeUndefined();
  });

  it('refuses a genuine signature over claims of an unknown channel', () => {
    // Prepare: signed by hand over a channel the service does not have
    const forged = signUnsubscribeToken({ ...claims, channel: 'pigeon' as never }, key);
    // Act
    const result = verifyUnsubscribeToken(forged, key);
    // Assess
    expect(result).toBeUndefined();
  });
});
