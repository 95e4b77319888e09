import { createGroupHandler } from '#api/group-handler';
import { providerSignatureAuth } from '#api/pipeline/authenticator';
import { deliveryCallbacksRoutes } from './routes';
import { receiveLegacyEmailStatus } from './receive-legacy-email-status';
import { receiveMailerEvent } from './receive-mailer-event';
import { receiveMessagingStatus } from './receive-messaging-status';

/**
 * The delivery-callbacks Lambda: delivery status from the service's own messaging and email
 * providers. Each operation verifies its provider's signature itself (auth kind
 * `provider_signature`), with a service-wide secret from the environment.
 */
export const handler = createGroupHandler(
  deliveryCallbacksRoutes,
  { receiveMessagingStatus, receiveLegacyEmailStatus, receiveMailerEvent },
  providerSignatureAuth,
);
