import { randomBytes } from 'node:crypto';
import { sessionState } from '#core/cancel-sessions';
import { hashSessionToken, isWellFormedSessionToken } from '#core/session-tokens';
import { getCancelSession } from '#data/cancel-session-repository';
import { brandingOf } from '#services/branding';
import { defineOperation } from '#api/operation';
import { cancelPage, missingSessionPage, pagePolicy } from './page';
import { showCancelPageSchemas } from './schemas';

/**
 * GET /cancel/{token} (edge host): the hosted cancel page of a session, for the customer's
 * browser. Public: the token in the path opens the session, as on the API routes; an unknown,
 * malformed or expired token gets a 404 page (HTML, not the JSON envelope: a person reads it).
 * Opening the page changes nothing (link scanners follow GET links).
 */
export const showCancelPage = defineOperation({ auth: 'public', schemas: showCancelPageSchemas }, async ({ params }) => {
  const nonce = randomBytes(16).toString('base64');
  const headers = { 'Content-Security-Policy': pagePolicy(nonce) };
  const now = new Date();
  const session = isWellFormedSessionToken(params.token) ? await getCancelSession(hashSessionToken(params.token)) : undefined;
  if (session === undefined || sessionState(session, now) === 'expired') return { statusCode: 404, body: undefined, html: missingSessionPage(nonce), headers };
  // The merchant's branding (operator CLI `merchants branding`): its name and colour, made accessible by the page.
  const brand = await brandingOf(session.merchant_id, now);
  const branding = { merchantName: brand?.merchant_name ?? 'Subscription', primaryColor: brand?.primary_color ?? null };
  return { body: undefined, html: cancelPage(session, params.token, branding, nonce), headers };
});
