import { createHmac, timingSafeEqual } from 'node:crypto';
import { MESSAGE_CHANNELS, type MessageChannel } from './messages';

/** What an unsubscribe token says: whose customer, reached on which channel by which message. */
export interface UnsubscribeClaims {
  readonly merchantId: string;
  readonly customerId: string;
  readonly channel: MessageChannel;
  readonly messageId: string;
}

const VERSION = 'u1';
const signatureOf = (key: Buffer, payload: string): Buffer => createHmac('sha256', key).update(`${VERSION}.${payload}`).digest();

/**
 * A stateless unsubscribe token: `<payload>.<signature>`, both base64url; the payload is the JSON
 * array [merchant id, customer id, channel, message id] and the signature its HMAC-SHA256 under
 * the service's unsubscribe key. Nothing is stored to issue one; nothing in it is secret, only
 * unforgeable. It does not expire: RFC 8058 asks that a one-click link keep working.
 */
export function signUnsubscribeToken(claims: UnsubscribeClaims, key: Buffer): string {
  const payload = Buffer.from(JSON.stringify([claims.merchantId, claims.customerId, claims.channel, claims.messageId]), 'utf8').toString('base64url');
  return `${payload}.${signatureOf(key, payload).toString('base64url')}`;
}

/** The claims of a genuine token, else undefined (malformed, forged, or signed with another key), compared in constant time. */
export function verifyUnsubscribeToken(token: string, key: Buffer): UnsubscribeClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 2) return undefined;
  const [payload, signature] = parts as [string, string];
  if (!/^[A-Za-z0-9_-]+$/.test(payload) || !/^[A-Za-z0-9_-]{43}$/.test(signature)) return undefined;
  const given = Buffer.from(signature, 'base64url');
  const expected = signatureOf(key, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (!Array.isArray(claims) || claims.length !== 4 || !claims.every((part) => typeof part === 'string' && part.length > 0)) return undefined;
    const [merchantId, customerId, channel, messageId] = claims as [string, string, string, string];
    const known = MESSAGE_CHANNELS.find((candidate) => candidate === channel);
    return known === undefined ? undefined : { merchantId, customerId, channel: known, messageId };
  } catch {
    return undefined;
  }
}
