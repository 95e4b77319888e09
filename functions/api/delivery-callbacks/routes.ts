import { type RouteDef, v1 } from '#api/route-rows';
import { receiveLegacyEmailStatusSchemas, receiveMailerEventSchemas, receiveMessagingStatusSchemas } from './schemas';

/** The `delivery-callbacks` group's rows of the route table: its Lambda serves exactly these. */
export const deliveryCallbacksRoutes: readonly RouteDef[] = [
  v1('delivery-callbacks', 'POST', '/messaging/status', 'receiveMessagingStatus', [], 'SMS and WhatsApp delivery status', {
    auth: 'provider_signature',
    api: 'webhook',
    schemas: receiveMessagingStatusSchemas,
  }),
  v1('delivery-callbacks', 'POST', '/messaging/email/status', 'receiveLegacyEmailStatus', [], 'Legacy email delivery status', {
    auth: 'provider_signature',
    api: 'webhook',
    schemas: receiveLegacyEmailStatusSchemas,
  }),
  v1('delivery-callbacks', 'POST', '/mailer/webhook', 'receiveMailerEvent', [], 'Email delivery events', {
    auth: 'provider_signature',
    api: 'webhook',
    schemas: receiveMailerEventSchemas,
  }),
];
