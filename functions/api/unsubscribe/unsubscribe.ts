import { defineOperation } from '#api/operation';
import { ResourceNotFoundError } from '#core/errors';
import { unsubscribeByToken } from '#services/unsubscribe';
import { logger } from '#shared/logger';
import { unsubscribedPage } from './pages';
import { unsubscribeSchemas } from './schemas';

/**
 * POST /unsubscribe/{token}: RFC 8058 one-click unsubscribe (mail clients post
 * `List-Unsubscribe=One-Click` to the `List-Unsubscribe` URL; the confirmation page's button
 * posts the same). The customer gets nothing more on any channel, and their address goes on the
 * merchant's suppression list (`unsubscribe`). 200 with a short page, also when they were already
 * unsubscribed; a token that is not genuine is 404.
 */
export const unsubscribe = defineOperation({ auth: 'public', schemas: unsubscribeSchemas }, async ({ params, requestId }) => {
  const result = await unsubscribeByToken(params.token);
  if (result.outcome === 'invalid') throw new ResourceNotFoundError('No such page.', { param: 'token' });
  logger.info('customer unsubscribed', {
    request_id: requestId,
    merchant_id: result.merchantId,
    customer_id: result.customerId,
    already: result.alreadyUnsubscribed,
  });
  return { body: undefined, html: unsubscribedPage() };
});
