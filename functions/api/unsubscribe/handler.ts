import { createGroupHandler } from '#api/group-handler';
import { publicAuth } from '#api/pipeline/authenticator';
import { unsubscribeRoutes } from './routes';
import { showUnsubscribe } from './show-unsubscribe';
import { unsubscribe } from './unsubscribe';

/** The unsubscribe Lambda (edge API, public): the confirmation page and RFC 8058 one-click unsubscribe. */
export const handler = createGroupHandler(unsubscribeRoutes, { showUnsubscribe, unsubscribe }, publicAuth);
