import { ValidationError } from '#core/errors';
import { advanceCancelSession as advance } from '#services/cancel-sessions';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { advanceCancelSessionSchemas } from './schemas';
import { cancelSessionView } from './views';

const MAX_RESPONSE_BYTES = 4096;

/**
 * POST /api/cancel-session/{token}/advance: answers the current step. A survey takes
 * `selected_reason` (its option's branch leads to the offer that fits it); an offer takes
 * `response.accepted` (accepting completes the session as saved); confirm and custom steps move
 * on. A completed session: 409; the 24 h over: 404.
 */
export const advanceCancelSession = defineOperation({ auth: 'session_token', schemas: advanceCancelSessionSchemas }, async ({ principal, body, requestId }) => {
  if (body.response !== undefined && Buffer.byteLength(JSON.stringify(body.response)) > MAX_RESPONSE_BYTES) {
    throw new ValidationError(`response is larger than ${MAX_RESPONSE_BYTES} bytes as JSON.`, { param: 'response' });
  }
  const now = new Date();
  const session = await advance(principal.session, principal.tokenHash, body, now);
  return { body: envelope(cancelSessionView(session, now), requestId, session.merchant_id) };
});
