import { PSPS } from '#core/providers';
import { type RouteDef, at, capitalised } from '#api/route-rows';
import { receiveProviderWebhookSchemas } from './schemas';

/** The `provider-webhooks` group's rows of the route table: its Lambda serves exactly these. */
export const providerWebhooksRoutes: readonly RouteDef[] = [
  ...PSPS.map((psp) =>
    at(
      'webhook',
      'provider-webhooks',
      'POST',
      `/${psp}/{merchant_id}`,
      `receive${capitalised(psp)}Webhook`,
      'provider_signature',
      [],
      `Webhook from ${psp}`,
      receiveProviderWebhookSchemas,
    ),
  ),
  at(
    'webhook',
    'provider-webhooks',
    'POST',
    '/square/{merchant_id}/invoice',
    'receiveSquareInvoiceWebhook',
    'provider_signature',
    [],
    'Invoice webhook from square',
    receiveProviderWebhookSchemas,
  ),
];
