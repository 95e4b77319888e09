import { completeCancelSession as complete } from '#services/cancel-sessions';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { completeCancelSessionSchemas } from './schemas';
import { cancelSessionView } from './views';

/**
 * POST /api/cancel-session/{token}/complete: ends the session with its outcome, and records the
 * `cancel_session.completed` event in the same transaction. Conditional on the version read: of
 * two completes, one wins and the other is 409 (as every later call on a completed session).
 */
export const completeCancelSession = defineOperation(
  { auth: 'session_token', schemas: completeCancelSessionSchemas },
  async ({ principal, body, requestId }) => {
    const now = new Date();
    const session = await complete(principal.session, principal.tokenHash, body, now);
    return { body: envelope(cancelSessionView(session, now), requestId, session.merchant_id) };
  },
);
