/**
 * THE route table: every operation of the spec, pure data. The CDK REST APIs, the local HTTP
 * server, scope checks and the OpenAPI document are all derived from it. Imports zod schemas
 * only, never handlers. Validated on import.
 */
import { PSPS } from '../core/providers';
import { ingestPaymentEventSchemas } from './ingest/schemas';
import { getDeclineCodeSchemas, listDeclineCategoriesSchemas, listDeclineCodesSchemas } from './decline-codes/schemas';
import { getOpenApiDocumentSchemas } from './openapi/schemas';
import { receiveProviderWebhookSchemas } from './provider-webhooks/schemas';
import { receiveLegacyEmailStatusSchemas, receiveMailerEventSchemas, receiveMessagingStatusSchemas } from './delivery-callbacks/schemas';
import { getPaymentSchemas, getPaymentTimelineSchemas, listPaymentsSchemas, pausePaymentSchemas, resumePaymentSchemas, retryPaymentSchemas } from './payments/schemas';
import { getRecoverySchemas, listRecoveriesSchemas, triggerDunningSchemas } from './recoveries/schemas';
import {
  deleteCustomerSchemas,
  getCustomerByEmailSchemas,
  getCustomerSchemas,
  listCustomerPaymentsSchemas,
  listCustomerRecoveriesSchemas,
  listCustomersSchemas,
  pauseAllCustomerPaymentsSchemas,
  resumeAllCustomerPaymentsSchemas,
} from './customers/schemas';
import { getHealthSchemas, getStatusSchemas } from './status/schemas';
import { scoreRetrySchemas } from './scoring/schemas';
import { updateScoreLookupSchemas } from './edge-internal/schemas';
import { getQuietHoursSchemas, getRecoveryGoalSchemas, setQuietHoursSchemas, setRecoveryGoalSchemas } from './settings/schemas';
import { getInvoiceRecoveryStatusSchemas, getInvoiceTimelineSchemas, getSubscriptionRecoveryStatusSchemas, listFailedInvoicesSchemas } from './subscriptions/schemas';
import { type ApiName, type AuthKind, type HttpMethod, type RouteDef, type RouteSchemas, type Scope, validateRoutes } from './route-types';

const MERCHANT_ROOT = '/api/v1';

interface RowOptions {
  readonly auth?: AuthKind;
  readonly api?: ApiName | 'all';
  readonly schemas?: RouteSchemas;
}

/** A row of the merchant API; `path` is relative to `/api/v1`. Keyed by default. */
function v1(
  group: string,
  method: HttpMethod,
  path: string,
  operationId: string,
  scopes: readonly Scope[],
  summary: string,
  options: RowOptions = {},
): RouteDef {
  const auth = options.auth ?? 'api_key';
  return { operationId, group, api: options.api ?? 'merchant', method, path: `${MERCHANT_ROOT}${path}`, auth, scopes, summary, ...(options.schemas ? { schemas: options.schemas } : {}) };
}

/** A row whose full path is given as the spec writes it (edge and webhook hosts). */
function at(
  api: ApiName | 'all',
  group: string,
  method: HttpMethod,
  path: string,
  operationId: string,
  auth: AuthKind,
  scopes: readonly Scope[],
  summary: string,
  schemas?: RouteSchemas,
): RouteDef {
  return { operationId, group, api, method, path, auth, scopes, summary, ...(schemas ? { schemas } : {}) };
}

const READ: Scope[] = ['read'];
const WRITE: Scope[] = ['write'];
const ADMIN: Scope[] = ['admin'];
const PUBLIC = { auth: 'public' } as const;
const CRON = { auth: 'cron_secret' } as const;

const capitalised = (psp: string): string =>
  psp.split('_').map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('');

export const routes: readonly RouteDef[] = [
  // Status and health
  at('all', 'health', 'GET', '/health', 'getHealth', 'public', [], 'Liveness of the host', getHealthSchemas),
  v1('status', 'GET', '/status', 'getStatus', [], 'Connection status; merchant data with a valid key', { auth: 'optional_api_key', schemas: getStatusSchemas }),
  v1('openapi', 'GET', '/openapi.json', 'getOpenApiDocument', [], 'This OpenAPI 3.1 document', { auth: 'public', schemas: getOpenApiDocumentSchemas }),
  v1('ai', 'GET', '/ai/ping', 'pingAi', [], 'AI model liveness', PUBLIC),

  // Payments
  v1('payments', 'GET', '/payments', 'listPayments', ['read', 'read:payments'], 'List failed payments', { schemas: listPaymentsSchemas }),
  v1('payments', 'GET', '/payments/{id}', 'getPayment', ['read', 'read:payments'], 'One payment, by id or provider charge id', { schemas: getPaymentSchemas }),
  v1('payments', 'GET', '/payments/{id}/timeline', 'getPaymentTimeline', ['read', 'read:payments'], 'Timeline of a payment', { schemas: getPaymentTimelineSchemas }),
  v1('payments', 'POST', '/payments/{id}/retry', 'retryPayment', ['write', 'write:payments'], 'Retry a payment now or at the next allowed time', { schemas: retryPaymentSchemas }),
  v1('payments', 'POST', '/payments/{id}/pause', 'pausePayment', ['write', 'write:payments'], 'Pause recovery of a payment', { schemas: pausePaymentSchemas }),
  v1('payments', 'POST', '/payments/{id}/resume', 'resumePayment', ['write', 'write:payments'], 'Resume recovery of a payment', { schemas: resumePaymentSchemas }),

  // Customers
  v1('customers', 'GET', '/customers', 'listCustomers', ['read', 'read:customers'], 'List customers', { schemas: listCustomersSchemas }),
  v1('customers', 'GET', '/customers/by-email/{email}', 'getCustomerByEmail', ['read', 'read:customers'], 'Customer by email with recovery stats', { schemas: getCustomerByEmailSchemas }),
  v1('customers', 'GET', '/customers/{id}', 'getCustomer', ['read', 'read:customers'], 'One customer, by id or provider customer id', { schemas: getCustomerSchemas }),
  v1('customers', 'GET', '/customers/{id}/payments', 'listCustomerPayments', ['read', 'read:customers'], 'Payments of a customer', { schemas: listCustomerPaymentsSchemas }),
  v1('customers', 'GET', '/customers/{id}/recoveries', 'listCustomerRecoveries', ['read', 'read:customers'], 'Recoveries of a customer', { schemas: listCustomerRecoveriesSchemas }),
  v1('customers', 'POST', '/customers/{id}/pause-all', 'pauseAllCustomerPayments', ['write', 'write:customers'], 'Pause recovery of all active payments of a customer', { schemas: pauseAllCustomerPaymentsSchemas }),
  v1('customers', 'POST', '/customers/{id}/resume-all', 'resumeAllCustomerPayments', ['write', 'write:customers'], 'Resume recovery of all paused payments of a customer', { schemas: resumeAllCustomerPaymentsSchemas }),
  v1('customers', 'DELETE', '/customers/{id}', 'deleteCustomer', ['admin', 'admin:customers'], 'Erase all data of a customer (GDPR Art. 17)', { schemas: deleteCustomerSchemas }),

  // Recoveries
  v1('recoveries', 'GET', '/recoveries', 'listRecoveries', READ, 'List recoveries', { schemas: listRecoveriesSchemas }),
  v1('recoveries', 'GET', '/recoveries/{id}', 'getRecovery', READ, 'One recovery with its state history', { schemas: getRecoverySchemas }),
  v1('recoveries', 'POST', '/recoveries/{id}/dunning', 'triggerDunning', WRITE, 'Send a dunning message now', { schemas: triggerDunningSchemas }),

  // Campaigns
  v1('campaigns', 'GET', '/campaigns', 'listCampaigns', ['read', 'read:campaigns'], 'List campaigns'),
  v1('campaigns', 'GET', '/campaigns/templates', 'listCampaignTemplates', ['read', 'read:campaigns'], 'Pre-built campaign templates'),
  v1('campaigns', 'POST', '/campaigns/from-template', 'createCampaignFromTemplate', ['write', 'write:campaigns'], 'Create a campaign from a template'),
  v1('campaigns', 'POST', '/campaigns/overlap', 'checkCampaignOverlap', ['read', 'read:campaigns'], 'Check overlap with active campaigns'),
  v1('campaigns', 'POST', '/campaigns/simulate', 'simulateCampaign', ['read', 'read:campaigns'], 'Simulate a campaign over past payments'),
  v1('campaigns', 'GET', '/campaigns/{id}', 'getCampaign', ['read', 'read:campaigns'], 'One campaign with its steps'),
  v1('campaigns', 'POST', '/campaigns', 'createCampaign', ['write', 'write:campaigns'], 'Create a campaign (draft)'),
  v1('campaigns', 'PUT', '/campaigns/{id}', 'updateCampaign', ['write', 'write:campaigns'], 'Update a draft or paused campaign'),
  v1('campaigns', 'POST', '/campaigns/{id}/activate', 'activateCampaign', ['write', 'write:campaigns'], 'Activate a campaign'),
  v1('campaigns', 'POST', '/campaigns/{id}/pause', 'pauseCampaign', ['write', 'write:campaigns'], 'Pause a campaign'),
  v1('campaigns', 'POST', '/campaigns/{id}/archive', 'archiveCampaign', ['write', 'write:campaigns'], 'Archive a campaign (permanent)'),

  // Subscriptions and invoices
  v1('subscriptions', 'GET', '/subscriptions/{id}', 'getSubscriptionRecoveryStatus', READ, 'Recovery status of a subscription', { schemas: getSubscriptionRecoveryStatusSchemas }),
  v1('subscriptions', 'GET', '/subscriptions/{id}/failed-invoices', 'listFailedInvoices', READ, 'Failed invoices of a subscription', { schemas: listFailedInvoicesSchemas }),
  v1('subscriptions', 'GET', '/invoices/{id}', 'getInvoiceRecoveryStatus', READ, 'Recovery status of an invoice', { schemas: getInvoiceRecoveryStatusSchemas }),
  v1('subscriptions', 'GET', '/invoices/{id}/timeline', 'getInvoiceTimeline', READ, 'Timeline of an invoice', { schemas: getInvoiceTimelineSchemas }),

  // Analytics
  v1('analytics', 'GET', '/analytics/recovery', 'getRecoveryAnalytics', ['read', 'analytics'], 'Recovery analytics'),
  v1('analytics', 'GET', '/analytics/summary', 'getAnalyticsSummary', ['read', 'analytics'], 'Alias of recovery analytics'),
  v1('analytics', 'GET', '/analytics/campaigns', 'getCampaignAnalytics', ['read', 'analytics'], 'Campaign performance'),
  v1('analytics', 'GET', '/analytics/revenue', 'getRevenueAnalytics', ['read', 'analytics'], 'Revenue recovered and at risk'),
  v1('analytics', 'GET', '/analytics/at-risk', 'getAtRiskAnalytics', ['read', 'analytics'], 'Revenue at risk'),
  v1('analytics', 'GET', '/analytics/decline-codes', 'getDeclineCodeAnalytics', ['read', 'analytics'], 'Decline-code distribution'),
  v1('analytics', 'GET', '/analytics/recovery-breakdown', 'getRecoveryBreakdown', ['read', 'analytics'], 'Recovery time series by segment'),
  v1('analytics', 'GET', '/analytics/at-risk-customers', 'listAtRiskCustomers', ['read', 'analytics'], 'Customers at risk by cohort'),
  v1('analytics', 'POST', '/analytics/at-risk-customers/{id}/enroll', 'enrollAtRiskCustomer', WRITE, 'Enroll an at-risk customer into a campaign'),
  v1('analytics', 'GET', '/analytics/email-health', 'getEmailHealth', ['read', 'analytics', 'email'], 'Bounce, complaint and reputation figures'),
  v1('analytics', 'GET', '/analytics/email-engagement', 'getEmailEngagement', ['read', 'analytics', 'email'], 'Open, click and unsubscribe rates'),

  // Decline codes
  v1('decline-codes', 'GET', '/decline-codes', 'listDeclineCodes', READ, 'The decline-code catalogue', { schemas: listDeclineCodesSchemas }),
  v1('decline-codes', 'GET', '/decline-codes/categories', 'listDeclineCategories', READ, 'The decline category taxonomy', { schemas: listDeclineCategoriesSchemas }),
  v1('decline-codes', 'GET', '/decline-codes/{code}', 'getDeclineCode', READ, 'One decline code with provider variations', { schemas: getDeclineCodeSchemas }),

  // Outbound webhook endpoints
  v1('webhook-endpoints', 'GET', '/webhooks/endpoints', 'listWebhookEndpoints', ['webhooks', 'read'], 'List webhook endpoints'),
  v1('webhook-endpoints', 'POST', '/webhooks/endpoints', 'createWebhookEndpoint', ['webhooks', 'admin'], 'Register a webhook endpoint'),
  v1('webhook-endpoints', 'PUT', '/webhooks/endpoints/{id}', 'updateWebhookEndpoint', ['webhooks', 'admin'], 'Update a webhook endpoint'),
  v1('webhook-endpoints', 'DELETE', '/webhooks/endpoints/{id}', 'deleteWebhookEndpoint', ['webhooks', 'admin'], 'Remove a webhook endpoint'),
  v1('webhook-endpoints', 'POST', '/webhooks/endpoints/{id}/test', 'testWebhookEndpoint', ['webhooks', 'admin'], 'Send a test event'),
  v1('webhook-endpoints', 'GET', '/webhooks/events', 'listWebhookDeliveries', ['webhooks', 'read'], 'Delivery log'),

  // Settings
  v1('settings', 'GET', '/settings/quiet-hours', 'getQuietHours', READ, 'Quiet hours', { schemas: getQuietHoursSchemas }),
  v1('settings', 'POST', '/settings/quiet-hours', 'setQuietHours', WRITE, 'Set quiet hours', { schemas: setQuietHoursSchemas }),
  v1('settings', 'GET', '/settings/recovery-goal', 'getRecoveryGoal', READ, 'Recovery goal and progress', { schemas: getRecoveryGoalSchemas }),
  v1('settings', 'POST', '/settings/recovery-goal', 'setRecoveryGoal', WRITE, 'Set the recovery goal', { schemas: setRecoveryGoalSchemas }),

  // Templates and email
  v1('email', 'GET', '/templates/preview/{id}', 'previewTemplate', READ, 'Preview an email template'),
  v1('email', 'GET', '/email/suppressions', 'listEmailSuppressions', ['email', 'read'], 'List email suppressions'),
  v1('email', 'GET', '/email/suppressions/stats', 'getEmailSuppressionStats', ['email', 'read'], 'Suppression statistics'),
  v1('email', 'DELETE', '/email/suppressions/{email}', 'deleteEmailSuppression', ['email', 'write'], 'Lift a suppression'),
  v1('email', 'POST', '/email/ab-test', 'createEmailAbTest', WRITE, 'Create an email A/B test'),
  v1('email', 'GET', '/email/ab-test/{campaign_id}', 'getEmailAbTest', READ, 'An email A/B test and its results'),
  v1('email', 'POST', '/email/ab-test/{campaign_id}/evaluate', 'evaluateEmailAbTest', WRITE, 'Evaluate and maybe promote the winner'),

  // Experiments, suggestions, win-back
  v1('experiments', 'GET', '/experiments', 'listExperiments', READ, 'List experiments'),
  v1('experiments', 'GET', '/experiments/assign/{customer_id}', 'getExperimentAssignment', READ, 'Variant assigned to a customer'),
  v1('experiments', 'GET', '/experiments/{id}', 'getExperiment', READ, 'One experiment'),
  v1('experiments', 'GET', '/experiments/{id}/results', 'getExperimentResults', READ, 'Results with confidence intervals'),
  v1('experiments', 'POST', '/experiments/{id}/promote', 'promoteExperiment', WRITE, 'Promote the winner to default'),
  v1('experiments', 'POST', '/experiments/{id}/stop', 'stopExperiment', WRITE, 'Stop a running experiment'),
  v1('suggestions', 'GET', '/suggestions/recovery', 'listRecoverySuggestions', READ, 'AI recovery suggestions'),
  v1('suggestions', 'POST', '/suggestions/{id}/apply', 'applySuggestion', WRITE, 'Apply a suggestion'),
  v1('suggestions', 'POST', '/suggestions/{id}/dismiss', 'dismissSuggestion', WRITE, 'Dismiss a suggestion'),
  v1('win-back', 'POST', '/win-back/{customerId}', 'startWinBack', WRITE, 'Start a win-back offer for a customer'),

  // Cancel flows
  v1('cancel-flows', 'GET', '/cancel-flows', 'listCancelFlows', ['read', 'read:cancel-flows'], 'List cancel flows'),
  v1('cancel-flows', 'POST', '/cancel-flows', 'createCancelFlow', ['write', 'write:cancel-flows'], 'Create a cancel flow'),
  v1('cancel-flows', 'PUT', '/cancel-flows/{id}', 'updateCancelFlow', ['write', 'write:cancel-flows'], 'Replace the steps of a cancel flow'),
  v1('cancel-flows', 'DELETE', '/cancel-flows/{id}', 'deleteCancelFlow', ['write', 'write:cancel-flows'], 'Delete an inactive cancel flow'),
  v1('cancel-flows', 'POST', '/cancel-flows/{id}/activate', 'activateCancelFlow', ['write', 'write:cancel-flows'], 'Activate a cancel flow'),
  v1('cancel-flows', 'POST', '/cancel-flows/{id}/deactivate', 'deactivateCancelFlow', ['write', 'write:cancel-flows'], 'Deactivate a cancel flow'),

  // AI, scoring, vectors
  v1('ai', 'POST', '/ai/generate', 'generateText', WRITE, 'AI text generation'),
  v1('scoring', 'POST', '/scoring/retry', 'scoreRetry', WRITE, 'Score a retry', { schemas: scoreRetrySchemas }),
  v1('vectors', 'POST', '/vectors/embed-event', 'embedRecoveryEvent', ['write', 'write:vectors'], 'Embed a recovery outcome'),
  v1('vectors', 'POST', '/vectors/find-similar', 'findSimilarRecoveries', ['read', 'read:vectors'], 'Nearest past recoveries'),
  v1('vectors', 'GET', '/vectors/recommend-strategy/{payment_id}', 'recommendStrategy', ['read', 'read:vectors'], 'Strategy from similar outcomes'),

  // Integrations and ingest
  v1('integrations', 'POST', '/integrations/storefront/register', 'registerStorefront', ADMIN, 'Associate a storefront'),
  v1('integrations', 'GET', '/integrations/health', 'listIntegrationHealth', READ, 'Health of all integrations'),
  v1('integrations', 'GET', '/integrations/{id}/health', 'getIntegrationHealth', READ, 'Health of one integration'),
  v1('integrations', 'GET', '/integrations/{id}/errors', 'listIntegrationErrors', READ, 'Recent errors of one integration'),
  v1('ingest', 'POST', '/ingest/payment-event', 'ingestPaymentEvent', ['write', 'admin'], 'Ingest a payment event', { schemas: ingestPaymentEventSchemas }),

  // CRM and automation
  v1('crm', 'POST', '/crm_a/oauth/callback', 'completeCrmAOauth', [], 'OAuth token exchange for CRM A', PUBLIC),
  v1('crm', 'POST', '/crm_b/oauth/callback', 'completeCrmBOauth', [], 'OAuth token exchange for CRM B', PUBLIC),
  v1('crm', 'POST', '/crm_a/sync', 'syncCrmA', WRITE, 'Push recovery data to CRM A'),
  v1('crm', 'POST', '/crm_b/sync', 'syncCrmB', WRITE, 'Push recovery data to CRM B'),
  v1('automation', 'POST', '/automation/subscribe', 'subscribeAutomationHook', WRITE, 'Register a REST-hook subscription'),
  v1('automation', 'DELETE', '/automation/subscribe', 'unsubscribeAutomationHook', WRITE, 'Remove a REST-hook subscription'),
  v1('automation', 'GET', '/automation/poll/{eventType}', 'pollAutomationEvents', READ, 'Last 50 events of a type'),
  v1('automation', 'GET', '/automation/sample/{eventType}', 'getAutomationSample', READ, 'Sample event of a type'),

  // Internal (merchant host, shared cron secret)
  v1('internal', 'GET', '/internal/webhook/{webhook_log_id}', 'getStoredWebhookPayload', [], 'A stored inbound webhook payload', CRON),
  v1('internal', 'DELETE', '/internal/webhook-cleanup/{id}', 'deleteStoredWebhookPayloads', [], 'Delete stored webhook payloads for erasure', CRON),
  v1('internal', 'POST', '/internal/exports/upload', 'uploadExport', [], 'Upload a data export file', CRON),
  v1('internal', 'GET', '/internal/exports/{merchantId}/{jobId}', 'downloadExport', [], 'Download a data export file', CRON),

  // Delivery callbacks (webhook host)
  v1('delivery-callbacks', 'POST', '/messaging/status', 'receiveMessagingStatus', [], 'SMS and WhatsApp delivery status', { auth: 'provider_signature', api: 'webhook', schemas: receiveMessagingStatusSchemas }),
  v1('delivery-callbacks', 'POST', '/messaging/email/status', 'receiveLegacyEmailStatus', [], 'Legacy email delivery status', { auth: 'provider_signature', api: 'webhook', schemas: receiveLegacyEmailStatusSchemas }),
  v1('delivery-callbacks', 'POST', '/mailer/webhook', 'receiveMailerEvent', [], 'Email delivery events', { auth: 'provider_signature', api: 'webhook', schemas: receiveMailerEventSchemas }),

  // Edge host: cancel sessions, widget, white label, email domains, internal, session proxy
  at('edge', 'cancel-sessions', 'POST', '/api/cancel-session/start', 'startCancelSession', 'public', [], 'Start a cancel session'),
  at('edge', 'cancel-sessions', 'GET', '/api/cancel-session/{token}', 'getCancelSession', 'session_token', [], 'Current state of a cancel session'),
  at('edge', 'cancel-sessions', 'POST', '/api/cancel-session/{token}/advance', 'advanceCancelSession', 'session_token', [], 'Advance a cancel session'),
  at('edge', 'cancel-sessions', 'POST', '/api/cancel-session/{token}/complete', 'completeCancelSession', 'session_token', [], 'Complete a cancel session'),
  at('edge', 'widget', 'POST', '/api/widget/init', 'initWidget', 'widget_hmac', [], 'Initialise the recovery widget'),
  at('edge', 'widget', 'GET', '/api/widget/branding/{merchant_id}', 'getWidgetBranding', 'public', [], 'Widget branding'),
  at('edge', 'custom-hostname', 'POST', '/api/custom-hostname/provision', 'provisionCustomHostname', 'api_key', ADMIN, 'Provision a custom hostname'),
  at('edge', 'custom-hostname', 'POST', '/api/custom-hostname/verify', 'verifyCustomHostname', 'api_key', ADMIN, 'Verify the CNAME of a custom hostname'),
  at('edge', 'custom-hostname', 'GET', '/api/custom-hostname/status/{id}', 'getCustomHostnameStatus', 'api_key', READ, 'Verification status'),
  at('edge', 'custom-hostname', 'DELETE', '/api/custom-hostname/{id}', 'deleteCustomHostname', 'api_key', ADMIN, 'Remove a custom hostname'),
  at('edge', 'custom-hostname', 'GET', '/api/custom-hostname/branding/{merchant_id}', 'getCustomHostnameBranding', 'public', [], 'Branding for a custom hostname'),
  at('edge', 'email-domain', 'POST', '/api/email-domain/auto-provision', 'autoProvisionEmailDomain', 'api_key', ADMIN, 'Provision a service sending subdomain'),
  at('edge', 'email-domain', 'POST', '/api/email-domain/custom-setup', 'setUpCustomEmailDomain', 'api_key', ADMIN, 'Start custom sending-domain setup'),
  at('edge', 'email-domain', 'POST', '/api/email-domain/verify', 'verifyEmailDomain', 'api_key', ADMIN, 'Verify the DNS of a pending domain'),
  at('edge', 'email-domain', 'GET', '/api/email-domain/status/{id}', 'getEmailDomainStatus', 'api_key', READ, 'Status and DNS diagnostics'),
  at('edge', 'email-domain', 'DELETE', '/api/email-domain/{id}', 'deleteEmailDomain', 'api_key', ADMIN, 'Deactivate a sending domain'),
  at('edge', 'edge-internal', 'POST', '/api/internal/cache/invalidate', 'invalidateCache', 'cron_secret', [], 'Purge a cache entry'),
  at('edge', 'edge-internal', 'POST', '/api/internal/scoring/update-lookup', 'updateScoreLookup', 'cron_secret', [], 'Seed the pre-computed score table', updateScoreLookupSchemas),
  at('edge', 'session-proxy', 'POST', '/ws/auth/session', 'createSession', 'public', [], 'Exchange an identity-provider JWT for a session cookie'),
  at('edge', 'session-proxy', 'POST', '/ws/auth/refresh', 'refreshSession', 'session_cookie', [], 'Refresh the session cookie'),
  at('edge', 'session-proxy', 'POST', '/ws/auth/revoke', 'revokeSession', 'session_cookie', [], 'Revoke the session'),
  at('edge', 'session-proxy', 'POST', '/ws/v1/identity/websocket-token', 'createWebsocketToken', 'session_cookie', [], 'Proxy a WebSocket token request'),
  at('edge', 'session-proxy', 'GET', '/ws/v1/database/{name}/subscribe', 'subscribeDatabase', 'session_cookie', [], 'Upgrade to a proxied WebSocket'),

  // Inbound provider webhooks (webhook host)
  ...PSPS.map((psp) =>
    at('webhook', 'provider-webhooks', 'POST', `/${psp}/{merchant_id}`, `receive${capitalised(psp)}Webhook`, 'provider_signature', [], `Webhook from ${psp}`, receiveProviderWebhookSchemas),
  ),
  at('webhook', 'provider-webhooks', 'POST', '/square/{merchant_id}/invoice', 'receiveSquareInvoiceWebhook', 'provider_signature', [], 'Invoice webhook from square', receiveProviderWebhookSchemas),
];

validateRoutes(routes);

/** Distinct groups, in table order. */
export const groups: readonly string[] = [...new Set(routes.map((route) => route.group))];
