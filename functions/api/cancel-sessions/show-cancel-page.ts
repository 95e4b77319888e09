import { randomBytes } from 'node:crypto';
import { sessionState } from '#core/cancel-sessions';
import { hashSessionToken, readSessionToken } from '#core/session-tokens';
import { getCancelSession } from '#data/cancel-session-repository';
import { brandingOf } from '#services/branding';
import { defineOperation } from '#api/operation';
import { cancelPage, invalidLinkPage, missingSessionPage, pagePolicy } from './page';
import { showCancelPageSchemas } from './schemas';

/**
 * GET /cancel/{token} (edge host): the hosted cancel page of a session, for the customer's
 * browser. Public: the token in the path opens the session, as on the API routes, and is read
 * here as sent (the row's `rawPathParameters`), so that a person always gets a page, not the JSON
 * envelope: a path that holds no token (not 43 base64url characters, too long included) gets a
 * 400 page, as the session API answers 400; an unknown or expired token a 404 page. Opening the
 * page changes nothing (link scanners follow GET links).
 */
export const showCancelPage = defineOperation({ auth: 'public', schemas: showCancelPageSchemas }, async ({ params }) => {
  const nonce = randomBytes(16).toString('base64');
  const headers = { 'Content-Security-Policy': pagePolicy(nonce) };
  const read = readSessionToken(params.token);
  if ('problem' in read) return { statusCode: 400, body: undefined, html: invalidLinkPage(nonce), headers };
  const now = new Date();
  const session = await getCancelSession(hashSessionToken(read.token));
  if (session === undefined || sessionState(session, now) === 'expired') return { statusCode: 404, body: undefined, html: missingSessionPage(nonce), headers };
  // The merchant's branding (operator CLI `merchants branding`): its name and colour, made accessible by the page.
  const brand = await brandingOf(session.merchant_id, now);
  const branding = { merchantName: brand?.merchant_name ?? 'Subscription', primaryColor: brand?.primary_color ?? null };
  return { body: undefined, html: cancelPage(session, read.token, branding, nonce), headers };
});
