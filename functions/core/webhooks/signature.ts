import { createHmac, randomBytes } from 'node:crypto';

/**
 * Outbound webhook signatures, Standard Webhooks (DESIGN §1): headers `webhook-id`,
 * `webhook-timestamp` (Unix seconds) and `webhook-signature: v1,<base64 HMAC-SHA256 of
 * "id.timestamp.body">`, keyed by the secret's bytes (`whsec_<base64>`). During a rotation the
 * old secret keeps signing for 24 h: both signatures are sent, space-separated, so a receiver
 * verifying with either secret accepts the delivery.
 */

export const SECRET_PREFIX = 'whsec_';
/** How long a replaced secret keeps signing after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

/** A new signing secret: 32 random bytes, `whsec_<base64>`. */
export function generateSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

function secretBytes(secret: string): Buffer {
  const raw = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const bytes = Buffer.from(raw, 'base64');
  if (bytes.length < 24) throw new Error('A signing secret must hold at least 24 bytes');
  return bytes;
}

/** One `v1,<base64>` signature of the message with a secret. */
export function signatureOf(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secretBytes(secret)).update(`${id}.${timestampSeconds}.${body}`, 'utf8').digest('base64');
  return `v1,${mac}`;
}

/** A secret replaced by a rotation, signing still until `expires_at`. */
export interface PreviousSecret {
  readonly secret: string;
  readonly expires_at: string;
}

export interface SigningInput {
  readonly id: string;
  readonly body: string;
  readonly secret: string;
  readonly previous?: PreviousSecret | undefined;
  readonly now: Date;
}

/** The three headers of a delivery. The previous secret signs too while its 24 h last. */
export function signedHeaders({ id, body, secret, previous, now }: SigningInput): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  const signatures = [signatureOf(secret, id, timestamp, body)];
  if (previous !== undefined && Date.parse(previous.expires_at) > now.getTime()) signatures.push(signatureOf(previous.secret, id, timestamp, body));
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signatures.join(' ') };
}

/** The previous secret a rotation at `now` keeps signing (for 24 h). */
export function rotatedOut(secret: string, now: Date): PreviousSecret {
  return { secret, expires_at: new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString() };
}
