import { defineOperation } from '#api/operation';
import { ResourceNotFoundError } from '#core/errors';
import { checkUnsubscribeToken } from '#services/unsubscribe';
import { confirmationPage } from './pages';
import { showUnsubscribeSchemas } from './schemas';

/**
 * GET /unsubscribe/{token}: a small confirmation page with one button (the POST below). Opening
 * it changes nothing: link scanners and prefetchers follow GET links. A token that is not
 * genuine is 404, like an absent page.
 */
export const showUnsubscribe = defineOperation({ auth: 'public', schemas: showUnsubscribeSchemas }, async ({ params }) => {
  if (!(await checkUnsubscribeToken(params.token))) throw new ResourceNotFoundError('No such page.', { param: 'token' });
  return { body: undefined, html: confirmationPage(params.token) };
});
