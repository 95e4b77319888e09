import { createGroupHandler } from '#api/group-handler';
import { providerSignatureAuth } from '#api/pipeline/authenticator';
import { providerWebhooksRoutes } from './routes';
import { receiveProviderWebhook } from './receive-provider-webhook';

/**
 * The provider-webhooks Lambda: one operation serves its 14 rows (13 providers and Square's
 * invoice path), registered under each row's operationId; the provider comes from the row's path.
 */
const operations = Object.fromEntries(providerWebhooksRoutes.map((route) => [route.operationId, receiveProviderWebhook]));

export const handler = createGroupHandler(providerWebhooksRoutes, operations, providerSignatureAuth);
