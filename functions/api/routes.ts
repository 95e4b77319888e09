/**
 * THE route table: every operation of the spec, pure data, concatenated from the groups' own
 * rows (`functions/api/<group>/routes.ts`). The CDK REST APIs, the local HTTP server and the
 * OpenAPI document are derived from it; a group's Lambda imports only its own rows, never this
 * file, so that no function bundles another group's schemas. Validated on import, with the group
 * registry (`groups.ts`).
 */
import { healthRoutes } from './health/routes';
import { statusRoutes } from './status/routes';
import { openapiRoutes } from './openapi/routes';
import { aiRoutes } from './ai/routes';
import { paymentsRoutes } from './payments/routes';
import { customersRoutes } from './customers/routes';
import { recoveriesRoutes } from './recoveries/routes';
import { campaignsRoutes } from './campaigns/routes';
import { subscriptionsRoutes } from './subscriptions/routes';
import { analyticsRoutes } from './analytics/routes';
import { declineCodesRoutes } from './decline-codes/routes';
import { webhookEndpointsRoutes } from './webhook-endpoints/routes';
import { settingsRoutes } from './settings/routes';
import { emailRoutes } from './email/routes';
import { experimentsRoutes } from './experiments/routes';
import { suggestionsRoutes } from './suggestions/routes';
import { winBackRoutes } from './win-back/routes';
import { cancelFlowsRoutes } from './cancel-flows/routes';
import { scoringRoutes } from './scoring/routes';
import { vectorsRoutes } from './vectors/routes';
import { integrationsRoutes } from './integrations/routes';
import { ingestRoutes } from './ingest/routes';
import { crmRoutes } from './crm/routes';
import { automationRoutes } from './automation/routes';
import { internalRoutes } from './internal/routes';
import { deliveryCallbacksRoutes } from './delivery-callbacks/routes';
import { cancelSessionsRoutes } from './cancel-sessions/routes';
import { widgetRoutes } from './widget/routes';
import { customHostnameRoutes } from './custom-hostname/routes';
import { emailDomainRoutes } from './email-domain/routes';
import { edgeInternalRoutes } from './edge-internal/routes';
import { sessionProxyRoutes } from './session-proxy/routes';
import { providerWebhooksRoutes } from './provider-webhooks/routes';
import { unsubscribeRoutes } from './unsubscribe/routes';
import { apiGroups } from './groups';
import type { RouteDef } from './route-types';
import { validateGroups, validateRoutes } from './route-types';

export const routes: readonly RouteDef[] = [
  ...healthRoutes,
  ...statusRoutes,
  ...openapiRoutes,
  ...aiRoutes,
  ...paymentsRoutes,
  ...customersRoutes,
  ...recoveriesRoutes,
  ...campaignsRoutes,
  ...subscriptionsRoutes,
  ...analyticsRoutes,
  ...declineCodesRoutes,
  ...webhookEndpointsRoutes,
  ...settingsRoutes,
  ...emailRoutes,
  ...experimentsRoutes,
  ...suggestionsRoutes,
  ...winBackRoutes,
  ...cancelFlowsRoutes,
  ...scoringRoutes,
  ...vectorsRoutes,
  ...integrationsRoutes,
  ...ingestRoutes,
  ...crmRoutes,
  ...automationRoutes,
  ...internalRoutes,
  ...deliveryCallbacksRoutes,
  ...cancelSessionsRoutes,
  ...widgetRoutes,
  ...customHostnameRoutes,
  ...emailDomainRoutes,
  ...edgeInternalRoutes,
  ...sessionProxyRoutes,
  ...providerWebhooksRoutes,
  ...unsubscribeRoutes,
];

validateRoutes(routes);
validateGroups(routes, apiGroups);

/** Distinct groups, in table order. */
export const groups: readonly string[] = [...new Set(routes.map((route) => route.group))];
