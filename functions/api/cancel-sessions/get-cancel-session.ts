import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { getCancelSessionSchemas } from './schemas';
import { cancelSessionView } from './views';

/** GET /api/cancel-session/{token}: the state and the current step (a completed session too, while its token is valid). */
export const getCancelSession = defineOperation({ auth: 'session_token', schemas: getCancelSessionSchemas }, async ({ principal, requestId }) => ({
  body: envelope(cancelSessionView(principal.session, new Date()), requestId, principal.session.merchant_id),
}));
