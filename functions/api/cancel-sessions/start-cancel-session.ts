import { InvalidRequestError, ResourceNotFoundError } from '#core/errors';
import { idempotencyKeyOf } from '#api/pipeline/idempotency';
import { edgeOrigin } from '#services/message-links';
import { startCancelSession as start } from '#services/cancel-sessions';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { startCancelSessionSchemas } from './schemas';
import { cancelSessionView } from './views';

/**
 * POST /api/cancel-session/start (edge host): the merchant's server starts a session for one of
 * its customers with its API key (scope write or write:cancel-flows), as Stripe's portal sessions
 * are made, and sends the customer to `url`. The spec's `merchant_id` must be the key's merchant
 * (another merchant's is 404, so a session for another merchant's customer cannot be made).
 * 201 with the token (shown once) and the first step; no active flow: 409. An Idempotency-Key is
 * refused (400): a replay would need the answer, token included, stored in clear for 24 h, and
 * tokens are stored only as hashes; a retried start simply makes another session.
 */
export const startCancelSession = defineOperation({ auth: 'api_key', schemas: startCancelSessionSchemas }, async ({ event, body, principal, requestId }) => {
  if (idempotencyKeyOf(event) !== undefined) {
    throw new InvalidRequestError('Idempotency-Key is not accepted here: the session token is shown once and never stored; retry without it.', {
      param: 'Idempotency-Key',
    });
  }
  if (body.merchant_id !== principal.merchantId) throw new ResourceNotFoundError(`No merchant ${body.merchant_id}.`, { param: 'merchant_id' });
  const now = new Date();
  const { session, token } = await start(principal.merchantId, { customer_id: body.customer_id, subscription_id: body.subscription_id }, now);
  const data = { ...cancelSessionView(session, now), token, url: `${edgeOrigin()}/cancel/${token}` };
  return { statusCode: 201, body: envelope(data, requestId, principal.merchantId) };
});
