import type { BrowserSessionRecord } from '#core/browser-sessions';

const iso = (epochSeconds: number): string => new Date(epochSeconds * 1000).toISOString();

/** A session's public fields: never its id (that is only ever in the cookie). */
export const sessionView = (session: BrowserSessionRecord) => ({
  object: 'session' as const,
  subject: session.subject,
  issuer: session.issuer,
  family_id: session.family_id,
  status: session.status === 'revoked' ? ('revoked' as const) : ('active' as const),
  created_at: session.created_at,
  expires_at: iso(session.expires_at),
  family_expires_at: iso(session.family_expires_at),
});

/** Headers of every answer that sets or clears the cookie: never cached. */
export const cookieHeaders = (cookie: string) => ({ 'Set-Cookie': cookie, 'Cache-Control': 'no-store' });
