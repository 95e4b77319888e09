/**
 * GET /api/v1/openapi.json over real HTTP, and the contract it states checked against the service
 * itself: real responses of every built operation (successes and the errors the pipeline gives
 * each auth kind) must have a status the served document declares for the operation and a body
 * its schema for that status accepts. The schemas are the served document's own, turned back into
 * validators with zod's `fromJSONSchema`. Callback and cron secrets are set by the fixtures,
 * imported first (before the runtime reads its environment).
 */
import { mailerPayload, mailgunData, mailgunEvent, standardWebhook, twilioStatus } from '#test/fixtures/delivery-callbacks';
import { cronAuth } from '#test/fixtures/cron-secret';
import '#test/fixtures/exports-dir';
import { createCampaignWithEmail } from '#test/fixtures/ab-tests';
import { z } from 'zod';
import { routes } from '#api/routes';
import type { RouteDef } from '#api/route-types';
import { setProviderSecret } from '#data/provider-secret-repository';
import { suppressEmail } from '#data/suppression-repository';
import { putWebhookLog } from '#data/webhook-log-repository';
import type { MessageRecord } from '#core/messages';
import { scopesGrant } from '#core/scopes';
import { getMessage } from '#data/message-repository';
import { linksFor } from '#services/message-links';
import { rotateWidgetSecret } from '#services/widget';
import { signWidget } from '#core/hosted';
import { setUpdatePaymentPage } from '#data/hosted-settings-repository';
import { mintCrmState } from '#services/crm';
import { startExperiment } from '#services/experiments';
import { suggestionIdOf } from '#core/experiments/suggestions';
import { seedPaymentThrough } from '#test/fixtures/payments';
import { startFakeCrmA, startFakeCrmB, useFakeCrms } from '#test/fakes/crm-apis';
import type { LocalStack } from '#lib/local/local-stack';
import { call, type JsonResponse } from '#test/fixtures/http';
import { originOf, startTestStack } from '#test/fixtures/local-stack';
import { startDnsServer } from '#test/fixtures/dns-server';
import { localDkimTokens } from '#adapters/email-identity/local';
import { type Delivery, installPaypalTestCertificate, providerCases, thinCases, uninstallPaypalTestCertificate } from '#test/fixtures/provider-webhooks';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';
import { WebSocket } from 'ws';
import { startSessionProxyPeers } from '#test/fixtures/session-proxy';

type Json = Record<string, unknown>;

interface Operation {
  readonly operationId: string;
  readonly responses: Record<string, { $ref?: string; content?: Record<string, { schema: Json }> }>;
}

interface Document {
  readonly openapi: string;
  readonly servers: ReadonlyArray<{ url: string; variables?: Record<string, { default: string }> }>;
  readonly paths: Record<string, Record<string, unknown> & { servers?: Document['servers'] }>;
  readonly components: { schemas: Record<string, Json>; responses: Record<string, { content?: Record<string, { schema: Json }> }> };
}

/** One real exchange with the service: the row it went to, and what came back. */
interface Exchange {
  readonly route: RouteDef;
  readonly what: string;
  readonly status: number;
  readonly body: unknown;
}

const rowOf = (operationId: string): RouteDef => {
  const route = routes.find((row) => row.operationId === operationId);
  if (route === undefined) throw new Error(`no row ${operationId}`);
  return route;
};

const operationOf = (document: Document, route: RouteDef): Operation => document.paths[route.path]?.[route.method.toLowerCase()] as Operation;

/** The served document's schema for a status, with `#/components/schemas/...` read as `$defs`, as a validator. */
function validatorFor(document: Document, route: RouteDef, status: number): z.ZodType | undefined {
  const declared = operationOf(document, route).responses[String(status)];
  if (declared === undefined) return undefined;
  const response = declared.$ref === undefined ? declared : document.components.responses[declared.$ref.split('/').pop() as string];
  const schema = response?.content?.['application/json']?.schema;
  if (schema === undefined) return z.undefined();
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        key === '$ref' && typeof inner === 'string' ? inner.replace('#/components/schemas/', '#/$defs/') : rewrite(inner),
      ]),
    );
  };
  return z.fromJSONSchema(rewrite({ ...schema, $defs: document.components.schemas }) as Parameters<typeof z.fromJSONSchema>[0]);
}

describe('GET /api/v1/openapi.json', () => {
  let stack: LocalStack;
  let document: Document;

  beforeAll(async () => {
    stack = await startTestStack();
    await installPaypalTestCertificate();
    document = (await call<Document>(`${stack.api_url}/openapi.json`)).body;
  }, 60_000);

  afterAll(async () => {
    await uninstallPaypalTestCertificate();
    await stack?.stop();
  });

  it('serves an OpenAPI 3.1.0 document with every row of the route table when called over HTTP without a key', async () => {
    // Act
    const response = await fetch(`${originOf(stack)}/api/v1/openapi.json`);
    const served = JSON.parse(await response.text()) as Document;
    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(served.openapi).toBe('3.1.0');
    const missing = routes.filter(
      (route) => (served.paths[route.path]?.[route.method.toLowerCase()] as Operation | undefined)?.operationId !== route.operationId,
    );
    expect(missing.map((route) => route.operationId)).toEqual([]);
  });

  it('serves the same document to a caller who sends an API key', async () => {
    // Act
    const anonymous = await (await fetch(`${stack.api_url}/openapi.json`)).text();
    const keyed = await fetch(`${stack.api_url}/openapi.json`, { headers: { Authorization: `Bearer ${stack.api_key}` } });
    // Assess
    expect(keyed.status).toBe(200);
    expect(await keyed.text()).toBe(anonymous);
  });

  it('points every server at the origin the stack serves on, a port other than the default 3000', async () => {
    // Prepare
    const origin = originOf(stack);
    const defaults = (servers: Document['servers'] | undefined) => (servers ?? []).map((server) => Object.values(server.variables ?? {})[0]?.default);
    // Act
    const response = await fetch(`${stack.api_url}/openapi.json`);
    const served = (await response.json()) as Document;
    // Assess
    expect(new URL(origin).port).not.toBe('3000');
    expect(defaults(served.servers)).toEqual([origin, origin, origin]);
    for (const [path, item] of Object.entries(served.paths))
      expect({ path, servers: defaults(item.servers) }).toEqual({ path, servers: defaults(item.servers).map(() => origin) });
    expect(response.headers.get('vary')).toBe('Host, X-Forwarded-Proto');
  });

  describe('the contract, checked against real responses', () => {
    const exchanges: Exchange[] = [];
    let successPhase = 0;
    let tenant: Tenant;
    let readOnly: string;
    /** A key for the routes readOnly's scope grants (the vectors' reads): a scope that grants none of them. */
    let otherScope: string;

    const record = async (operationId: string, what: string, url: string, options: Parameters<typeof call>[1] = {}): Promise<JsonResponse<Json>> => {
      const response = await call<Json>(url, options);
      exchanges.push({ route: rowOf(operationId), what, status: response.status, body: response.body });
      return response;
    };
    const deliver = (operationId: string, what: string, path: string, delivery: Delivery) =>
      record(operationId, what, `${originOf(stack)}${path}`, { method: 'POST', rawBody: delivery.body, headers: delivery.headers });
    const publicUrl = (path: string): string => `https://${new URL(originOf(stack)).host}${path}`;
    const data = (response: JsonResponse<Json>): Json => response.body.data as Json;

    /** The session proxy (edge host) against a loopback identity provider and upstream, configured for this block only; the subscribe's success is its WebSocket upgrade (101). */
    async function exerciseSessionProxy(): Promise<void> {
      const peers = await startSessionProxyPeers();
      const { idp } = peers;
      try {
        const ws = `${originOf(stack)}/ws`;
        const signIn = async (): Promise<string> => {
          const response = await record('createSession', 'a valid JWT', `${ws}/auth/session`, { method: 'POST', body: { token: await idp.sign() } });
          return /^__Host-sid=([^;]*)/.exec(response.headers.get('set-cookie') ?? '')?.[1] as string;
        };
        const cookie = (sessionId: string) => ({ headers: { Cookie: `__Host-sid=${sessionId}` } });
        const refreshed = await record('refreshSession', 'rotate', `${ws}/auth/refresh`, { method: 'POST', ...cookie(await signIn()) });
        const current = /^__Host-sid=([^;]*)/.exec(refreshed.headers.get('set-cookie') ?? '')?.[1] as string;
        const ticket = data(await record('createWebsocketToken', 'a ticket', `${ws}/v1/identity/websocket-token`, { method: 'POST', ...cookie(current) }))
          .ticket as string;
        await record('subscribeDatabase', 'plain GET', `${ws}/v1/database/app_db/subscribe?ticket=${ticket}`);
        const status = await new Promise<number>((resolve, reject) => {
          const socket = new WebSocket(`${ws.replace(/^http/, 'ws')}/v1/database/app_db/subscribe?ticket=${ticket}`);
          socket.once('upgrade', (response) => resolve(response.statusCode ?? 0));
          socket.once('open', () => socket.close(1000));
          socket.once('error', reject);
        });
        exchanges.push({ route: rowOf('subscribeDatabase'), what: 'upgrade', status, body: undefined });
        await record('revokeSession', 'sign out', `${ws}/auth/revoke`, { method: 'POST', ...cookie(current) });
        await record('createSession', 'an expired JWT', `${ws}/auth/session`, {
          method: 'POST',
          body: { token: await idp.sign({ exp: Math.floor(Date.now() / 1000) - 3600 }) },
        });
      } finally {
        for (const name of ['IDP_ISSUER', 'IDP_AUDIENCE', 'IDP_JWKS_URL', 'WS_UPSTREAM_URL']) delete process.env[name];
        await peers.close();
      }
    }

    /** The CRM callbacks and syncs against the loopback CRM fakes (test/fakes/crm-apis.ts), configured for this block only. */
    async function exerciseCrm(api: string, key: string): Promise<void> {
      const fakes = { crm_a: await startFakeCrmA(), crm_b: await startFakeCrmB() };
      const restoreSettings = useFakeCrms(fakes.crm_a, fakes.crm_b);
      try {
        for (const [crm, operation, sync] of [
          ['crm_a', 'completeCrmAOauth', 'syncCrmA'],
          ['crm_b', 'completeCrmBOauth', 'syncCrmB'],
        ] as const) {
          await record(operation, 'installation', `${api}/${crm}/oauth/callback`, {
            method: 'POST',
            body: { code: fakes[crm].issueCode(), state: await mintCrmState(tenant.merchant.id, crm) },
          });
          await record(sync, 'sync', `${api}/${crm}/sync`, { method: 'POST', key });
        }
      } finally {
        restoreSettings();
        await fakes.crm_a.stop();
        await fakes.crm_b.stop();
      }
    }

    /** The cancel flows (merchant API) and a session walked on the edge host, up to its completion. */
    async function exerciseCancelFlows(api: string, key: string, customerId: string): Promise<void> {
      const steps = [
        {
          id: 'why',
          step_type: 'survey',
          title: 'Why?',
          options: [
            { value: 'price', label: 'Price', next_step: 'deal' },
            { value: 'other', label: 'Other' },
          ],
        },
        { id: 'deal', step_type: 'offer', title: 'A deal', offer: { type: 'discount', value: 20 } },
      ];
      const flow = data(await record('createCancelFlow', 'create', `${api}/cancel-flows`, { method: 'POST', key, body: { name: 'Contract flow', steps } }));
      const spare = data(await record('createCancelFlow', 'create without steps', `${api}/cancel-flows`, { method: 'POST', key, body: { name: 'Spare' } }));
      await record('updateCancelFlow', 'replace steps', `${api}/cancel-flows/${flow.id}`, { method: 'PUT', key, body: { steps } });
      await record('activateCancelFlow', 'activate', `${api}/cancel-flows/${flow.id}/activate`, { method: 'POST', key });
      await record('listCancelFlows', 'list', `${api}/cancel-flows`, { key });
      await record('deleteCancelFlow', 'delete inactive', `${api}/cancel-flows/${spare.id}`, { method: 'DELETE', key });
      const edge = `${originOf(stack)}/api/cancel-session`;
      const session = data(
        await record('startCancelSession', 'start', `${edge}/start`, {
          method: 'POST',
          key,
          body: { merchant_id: tenant.merchant.id, customer_id: customerId },
        }),
      );
      await record('getCancelSession', 'get', `${edge}/${session.token}`);
      await record('showCancelPage', 'page', `${originOf(stack)}/cancel/${session.token}`);
      await record('advanceCancelSession', 'survey', `${edge}/${session.token}/advance`, { method: 'POST', body: { selected_reason: 'price' } });
      await record('completeCancelSession', 'cancelled', `${edge}/${session.token}/complete`, { method: 'POST', body: { outcome: 'cancelled' } });
      await record('deactivateCancelFlow', 'deactivate', `${api}/cancel-flows/${flow.id}/deactivate`, { method: 'POST', key });
    }

    /** Every built operation once with a request it accepts, in an order that gives each its data. */
    /** The email-domain operations (edge host), with DNS answered by a server on loopback (docs/email-domains.md). */
    async function exerciseEmailDomains(key: string): Promise<void> {
      const edge = `${originOf(stack)}/api/email-domain`;
      const dns = await startDnsServer();
      const saved = process.env.DNS_SERVERS;
      process.env.DNS_SERVERS = dns.address;
      try {
        await record('autoProvisionEmailDomain', 'managed', `${edge}/auto-provision`, { method: 'POST', key });
        const custom = await record('setUpCustomEmailDomain', 'custom', `${edge}/custom-setup`, {
          method: 'POST',
          key,
          body: { domain: 'mail.contract.example.com' },
        });
        const id = data(custom).id as string;
        for (const token of localDkimTokens('mail.contract.example.com'))
          dns.setCname(`${token}._domainkey.mail.contract.example.com`, `${token}.dkim.amazonses.com`);
        await record('verifyEmailDomain', 'verified', `${edge}/verify`, { method: 'POST', key, body: { id } });
        await record('getEmailDomainStatus', 'status', `${edge}/status/${id}`, { key });
        await record('deleteEmailDomain', 'delete', `${edge}/${id}`, { method: 'DELETE', key });
      } finally {
        if (saved === undefined) delete process.env.DNS_SERVERS;
        else process.env.DNS_SERVERS = saved;
        await dns.close();
      }
    }

    async function exerciseSuccesses(): Promise<void> {
      const api = stack.api_url;
      const key = tenant.key;
      await exerciseEmailDomains(key);
      await record('getHealth', 'health', `${originOf(stack)}/health`);
      await record('getStatus', 'status with a key', `${api}/status`, { key });
      await record('getOpenApiDocument', 'document', `${api}/openapi.json`);

      const email = 'casey.contract@example.com';
      const ingested = await record('ingestPaymentEvent', 'payment_failed', `${api}/ingest/payment-event`, {
        method: 'POST',
        key,
        body: {
          event_type: 'payment_failed',
          amount_cents: 4999,
          currency: 'usd',
          customer_email: email,
          decline_code: 'insufficient_funds',
          metadata: { payment_id: 'ch_contract_1', subscription_id: 'sub_contract_1', invoice_id: 'in_contract_1', customer_name: 'Casey Contract' },
        },
      });
      const paymentId = data(ingested).payment_event_id as string;
      const recoveryId = data(ingested).recovery_id as string;

      await record('listPayments', 'list', `${api}/payments`, { key });
      await record('getPayment', 'by id', `${api}/payments/${paymentId}`, { key });
      await record('getPaymentTimeline', 'timeline', `${api}/payments/${paymentId}/timeline`, { key });
      await record('pausePayment', 'pause', `${api}/payments/${paymentId}/pause`, { method: 'POST', key });
      await record('resumePayment', 'resume', `${api}/payments/${paymentId}/resume`, { method: 'POST', key });
      await record('retryPayment', 'manual retry', `${api}/payments/${paymentId}/retry`, { method: 'POST', key });

      // List totals are the table-stream consumer's counters.
      await stack.runtime.stream.drain();
      const customers = await record('listCustomers', 'list', `${api}/customers`, { key });
      const customerId = ((customers.body.data as Json[])[0] as Json).id as string;
      await record('getCustomerByEmail', 'by email', `${api}/customers/by-email/${encodeURIComponent(email)}`, { key });
      await record('getCustomer', 'by id', `${api}/customers/${customerId}`, { key });
      await record('listCustomerPayments', 'payments', `${api}/customers/${customerId}/payments`, { key });
      await record('listCustomerRecoveries', 'recoveries', `${api}/customers/${customerId}/recoveries`, { key });
      await record('pauseAllCustomerPayments', 'pause all', `${api}/customers/${customerId}/pause-all`, { method: 'POST', key });
      await record('resumeAllCustomerPayments', 'resume all', `${api}/customers/${customerId}/resume-all`, { method: 'POST', key });

      await record('listRecoveries', 'list', `${api}/recoveries`, { key });
      await record('getRecovery', 'by id', `${api}/recoveries/${recoveryId}`, { key });
      const dunning = await record('triggerDunning', 'default email', `${api}/recoveries/${recoveryId}/dunning`, { method: 'POST', key, body: {} });
      const dunningMessage = await getMessage(tenant.merchant.id, data(dunning).message_id as string);
      const { unsubscribe_url: unsubscribeUrl } = await linksFor(dunningMessage as MessageRecord);
      await record('showUnsubscribe', 'confirmation page', unsubscribeUrl);
      await record('unsubscribe', 'one-click', unsubscribeUrl, {
        method: 'POST',
        rawBody: 'List-Unsubscribe=One-Click',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });

      // The widget and the hosted pages of the edge host.
      await setUpdatePaymentPage(tenant.merchant.id, 'https://billing.example.com/update');
      const { update_payment_url: updatePaymentUrl } = await linksFor(dunningMessage as MessageRecord);
      await record('showUpdatePayment', 'to the provider page', updatePaymentUrl, { redirect: 'manual' });
      const { widget_secret: widgetSecret } = await rotateWidgetSecret(tenant.merchant.id);
      const timestamp = Math.floor(Date.now() / 1000);
      await record('initWidget', 'signed', `${originOf(stack)}/api/widget/init`, {
        method: 'POST',
        body: {
          merchant_id: tenant.merchant.id,
          customer_id: customerId,
          timestamp,
          signature: signWidget(widgetSecret, tenant.merchant.id, customerId, timestamp),
        },
      });
      await record('getWidgetBranding', 'branding', `${originOf(stack)}/api/widget/branding/${tenant.merchant.id}`);
      await record('getCustomHostnameBranding', 'branding', `${originOf(stack)}/api/custom-hostname/branding/${tenant.merchant.id}`);
      await exerciseCustomHostnames(key);
      await record('getWidgetScript', 'script', `${originOf(stack)}/widget.js`);
      await record('startWinBack', 'offer', `${api}/win-back/${customerId}`, { method: 'POST', key, body: { offer_type: 'discount', offer_value: '20% off' } });

      await record('getSubscriptionRecoveryStatus', 'status', `${api}/subscriptions/sub_contract_1`, { key });
      await record('listFailedInvoices', 'failed invoices', `${api}/subscriptions/sub_contract_1/failed-invoices`, { key });
      await record('getInvoiceRecoveryStatus', 'status', `${api}/invoices/in_contract_1`, { key });
      await record('getInvoiceTimeline', 'timeline', `${api}/invoices/in_contract_1/timeline`, { key });

      await record('listDeclineCodes', 'catalogue', `${api}/decline-codes`, { key });
      await record('listDeclineCategories', 'categories', `${api}/decline-codes/categories`, { key });
      await record('getDeclineCode', 'one code', `${api}/decline-codes/insufficient_funds`, { key });

      await record('setQuietHours', 'set', `${api}/settings/quiet-hours`, {
        method: 'POST',
        key,
        body: { start_hour: 22, end_hour: 7, timezone: 'Europe/Berlin' },
      });
      await record('getQuietHours', 'get', `${api}/settings/quiet-hours`, { key });
      await record('setRecoveryGoal', 'set', `${api}/settings/recovery-goal`, { method: 'POST', key, body: { target_rate: 0.4 } });
      await record('getRecoveryGoal', 'get', `${api}/settings/recovery-goal`, { key });
      await record('getRecoveryAnalytics', 'last 30 days', `${api}/analytics/recovery`, { key });
      await record('getAnalyticsSummary', '307 to recovery', `${api}/analytics/summary?group_by=week`, { key, redirect: 'manual' });
      await record('getRevenueAnalytics', 'last 30 days', `${api}/analytics/revenue`, { key });
      await record('getAtRiskAnalytics', 'now', `${api}/analytics/at-risk`, { key });
      await record('getDeclineCodeAnalytics', 'last 30 days', `${api}/analytics/decline-codes?limit=5`, { key });
      await record('getRecoveryBreakdown', 'by psp', `${api}/analytics/recovery-breakdown?segment_by=psp`, { key });

      await record('scoreRetry', 'form A', `${api}/scoring/retry`, { method: 'POST', key, body: { decline_code: 'insufficient_funds', amount_cents: 4999 } });
      await record('scoreRetry', 'form B', `${api}/scoring/retry`, {
        method: 'POST',
        key,
        body: { payment_id: paymentId, decline_code: 'insufficient_funds', amount_cents: 4999, currency: 'usd', retry_count: 0 },
      });

      await record('pingAi', 'local model', `${api}/ai/ping`);
      await record('generateText', 'form A', `${api}/ai/generate`, {
        method: 'POST',
        key,
        body: { use_case: 'decline_explanation', system_prompt: 'Explain declines.', user_prompt: 'Why was do_not_honor declined?' },
      });
      await record('generateText', 'form B', `${api}/ai/generate`, {
        method: 'POST',
        key,
        body: { prompt_template: 'report_summary', context: { period: 'last week', payments_failed: 20, payments_recovered: 12 } },
      });

      const entry = {
        decline_code: 'contract_test_code',
        attempt_bucket: '1',
        amount_bucket: '10_50',
        currency: 'usd',
        score: 0.4,
        delay_hours: 36,
        confidence: 0.8,
        model_version: 'lgbm-contract-1',
      };
      await record('updateScoreLookup', 'one entry', `${originOf(stack)}/api/internal/scoring/update-lookup`, {
        method: 'POST',
        headers: cronAuth(),
        body: { entries: [entry] },
      });
      const stored = await putWebhookLog({
        merchantId: tenant.merchant.id,
        psp: 'stripe',
        routeVariant: 'default',
        rawBody: Buffer.from('{"id":"evt_contract"}'),
        contentType: 'application/json',
        url: 'https://hooks.example.com/stripe/contract',
      });
      await record('getStoredWebhookPayload', 'stored', `${api}/internal/webhook/${stored.id}`, { headers: cronAuth() });
      await record('deleteStoredWebhookPayloads', 'cleanup', `${api}/internal/webhook-cleanup/${stored.id}`, { method: 'DELETE', headers: cronAuth() });
      await record('uploadExport', 'JSON lines', `${api}/internal/exports/upload?merchant_id=${tenant.merchant.id}&job_id=contract`, {
        method: 'POST',
        rawBody: '{"a":1}\n{"b":2}\n',
        headers: { ...cronAuth(), 'Content-Type': 'application/x-ndjson' },
      });
      // A file, not JSON: the document declares no JSON body for it.
      await record('downloadExport', 'JSON lines', `${api}/internal/exports/${tenant.merchant.id}/contract`, { headers: cronAuth() });

      const template = await record('createTemplate', 'email template', `${api}/templates`, {
        method: 'POST',
        key,
        body: { name: 'Contract', subject: 'Pay {{amount}}', html: '<p>{{update_payment_url}}</p>', text: '{{update_payment_url}}' },
      });
      const templateId = data(template).id as string;
      await record('listTemplates', 'list', `${api}/templates`, { key });
      await record('getTemplate', 'by id', `${api}/templates/${templateId}`, { key });
      await record('updateTemplate', 'rename', `${api}/templates/${templateId}`, { method: 'PUT', key, body: { name: 'Contract 2' } });
      await record('previewTemplate', 'built-in', `${api}/templates/preview/tmpl_dunning_default`, { key });
      await record('deleteTemplate', 'delete', `${api}/templates/${templateId}`, { method: 'DELETE', key });
      const bounced = { email: 'bounced.contract@example.com', customer_id: 'cust_contract', source_message_id: null };
      await suppressEmail({ merchant_id: tenant.merchant.id, reason: 'hard_bounce', ...bounced });
      await record('listEmailSuppressions', 'list', `${api}/email/suppressions`, { key });
      await record('getEmailSuppressionStats', 'stats', `${api}/email/suppressions/stats`, { key });
      await record('deleteEmailSuppression', 'lift', `${api}/email/suppressions/${encodeURIComponent(bounced.email)}`, { method: 'DELETE', key });
      // The test event goes to this server's own origin (loopback, which the local stack admits): any answer is a 200 report.
      const endpoint = await record('createWebhookEndpoint', 'default events', `${api}/webhooks/endpoints`, {
        method: 'POST',
        key,
        body: { url: `${originOf(stack)}/contract-receiver`, description: 'contract' },
      });
      const endpointId = data(endpoint).id as string;
      await record('listWebhookEndpoints', 'list', `${api}/webhooks/endpoints?limit=5`, { key });
      await record('updateWebhookEndpoint', 'events', `${api}/webhooks/endpoints/${endpointId}`, {
        method: 'PUT',
        key,
        body: { events: ['payment.recovered'] },
      });
      await record('testWebhookEndpoint', 'test event', `${api}/webhooks/endpoints/${endpointId}/test`, { method: 'POST', key });
      await record('listWebhookDeliveries', 'delivery log', `${api}/webhooks/events?endpoint_id=${endpointId}`, { key });
      await record('recoverWebhookEndpoint', 'the last hour', `${api}/webhooks/endpoints/${endpointId}/recover`, {
        method: 'POST',
        key,
        body: { since: new Date(Date.now() - 3_600_000).toISOString() },
      });
      await record('deleteWebhookEndpoint', 'delete', `${api}/webhooks/endpoints/${endpointId}`, { method: 'DELETE', key });

      const messaging = '/api/v1/messaging/status';
      await deliver(
        'receiveMessagingStatus',
        'delivered',
        messaging,
        twilioStatus(publicUrl(messaging), { MessageSid: 'SMcontract0001', MessageStatus: 'delivered' }),
      );
      await deliver(
        'receiveLegacyEmailStatus',
        'delivered',
        '/api/v1/messaging/email/status',
        mailgunEvent(mailgunData('contract-1@mail.example.com', 'delivered')),
      );
      await deliver('receiveMailerEvent', 'delivered', '/api/v1/mailer/webhook', standardWebhook(mailerPayload('email.delivered', 'contract-email-1')));

      for (const c of [...providerCases, ...thinCases.map((thin) => ({ ...thin, path: (merchantId: string) => `/${thin.psp}/${merchantId}` }))]) {
        const merchant = await newTenant(['admin'], UNLIMITED);
        await setProviderSecret(merchant.merchant.id, c.psp, c.secret);
        const path = c.path(merchant.merchant.id);
        const route = routes.find((row) => row.group === 'provider-webhooks' && row.path === path.replace(merchant.merchant.id, '{merchant_id}')) as RouteDef;
        await deliver(route.operationId, 'failed payment', path, c.failed(publicUrl(path)));
      }

      const campaignBody = {
        name: 'Contract',
        trigger_type: 'payment_failed_soft',
        steps: [{ action: 'email', delay_hours: 0, template_id: 'tmpl_soft_decline_1' }],
      };
      const campaign = await record('createCampaign', 'form A', `${api}/campaigns`, { method: 'POST', key, body: campaignBody });
      const campaignId = data(campaign).id as string;
      await record('createCampaign', 'form B', `${api}/campaigns`, {
        method: 'POST',
        key,
        body: { name: 'Contract B', trigger: 'card_expired', steps: campaignBody.steps, filters_json: '{"currency":"usd"}' },
      });
      await record('listCampaigns', 'list', `${api}/campaigns`, { key });
      await record('getCampaign', 'by id', `${api}/campaigns/${campaignId}`, { key });
      await record('updateCampaign', 'rename', `${api}/campaigns/${campaignId}`, { method: 'PUT', key, body: { name: 'Contract renamed' } });
      await record('activateCampaign', 'activate', `${api}/campaigns/${campaignId}/activate`, { method: 'POST', key });
      await record('pauseCampaign', 'pause', `${api}/campaigns/${campaignId}/pause`, { method: 'POST', key });
      await record('archiveCampaign', 'archive', `${api}/campaigns/${campaignId}/archive`, { method: 'POST', key });
      await record('listCampaignTemplates', 'templates', `${api}/campaigns/templates`, { key });
      await record('createCampaignFromTemplate', 'soft decline', `${api}/campaigns/from-template`, {
        method: 'POST',
        key,
        body: { template_id: 'soft_decline' },
      });
      await record('checkCampaignOverlap', 'soft decline', `${api}/campaigns/overlap`, { method: 'POST', key, body: { trigger: 'soft_decline' } });
      await record('simulateCampaign', 'soft decline', `${api}/campaigns/simulate`, { method: 'POST', key, body: { trigger: 'soft_decline' } });

      const abCampaign = await createCampaignWithEmail(api, key);
      const abVariants = [
        { name: 'Control', subject: 'Your payment failed', template_id: 'tmpl_card_update_1' },
        { name: 'Friendly', subject: 'A quick fix', template_id: 'tmpl_card_update_2' },
      ];
      await record('createEmailAbTest', 'defaults', `${api}/email/ab-test`, { method: 'POST', key, body: { campaign_id: abCampaign, variants: abVariants } });
      await record('getEmailAbTest', 'get', `${api}/email/ab-test/${abCampaign}`, { key });
      await record('evaluateEmailAbTest', 'no sample yet', `${api}/email/ab-test/${abCampaign}/evaluate`, { method: 'POST', key });

      // Engagement analytics (issue 12): a new failed payment, enrolled by hand in an active campaign.
      const atRisk = await record('ingestPaymentEvent', 'payment_failed (at risk)', `${api}/ingest/payment-event`, {
        method: 'POST',
        key,
        body: { event_type: 'payment_failed', amount_cents: 1999, currency: 'eur', customer_email: 'robin.risk@example.com', decline_code: 'expired_card' },
      });
      const atRiskCustomer = data(await record('getPayment', 'at risk', `${api}/payments/${data(atRisk).payment_event_id as string}`, { key })).customer_id;
      const enrollInto = await createCampaignWithEmail(api, key, { activate: true, emailSteps: false });
      await record('getCampaignAnalytics', 'list', `${api}/analytics/campaigns`, { key });
      await record('listAtRiskCustomers', 'expiring card', `${api}/analytics/at-risk-customers?cohort=expiring_card`, { key });
      await record('enrollAtRiskCustomer', 'enroll', `${api}/analytics/at-risk-customers/${atRiskCustomer as string}/enroll`, {
        method: 'POST',
        key,
        body: { campaign_id: enrollInto },
      });
      await record('getEmailHealth', 'weekly', `${api}/analytics/email-health?group_by=week`, { key });
      await record('getEmailEngagement', 'defaults', `${api}/analytics/email-engagement`, { key });

      // Experiments and suggestions (issue 15): experiments started as the CLI starts them; suggestions from a merchant's own analytics.
      const offers = [{ offer_type: 'none' as const }, { offer_type: 'discount' as const, offer_value: '10%' }];
      const experiment = await startExperiment({
        merchantId: tenant.merchant.id,
        name: 'OpenAPI',
        kind: 'offer',
        settings: offers,
        source: { type: 'cli', id: null },
      });
      await record('listExperiments', 'list', `${api}/experiments`, { key });
      await record('getExperiment', 'get', `${api}/experiments/${experiment.id}`, { key });
      await record('getExperimentAssignment', 'assign', `${api}/experiments/assign/${atRiskCustomer as string}`, { key });
      await record('getExperimentResults', 'no sample yet', `${api}/experiments/${experiment.id}/results`, { key });
      await record('promoteExperiment', 'forced', `${api}/experiments/${experiment.id}/promote?force=true`, { method: 'POST', key });
      const toStop = await startExperiment({
        merchantId: tenant.merchant.id,
        name: 'OpenAPI 2',
        kind: 'offer',
        settings: offers,
        source: { type: 'cli', id: null },
      });
      await record('stopExperiment', 'stop', `${api}/experiments/${toStop.id}/stop`, { method: 'POST', key });
      const analysed = await newTenant(['admin'], UNLIMITED);
      for (const declineCode of ['do_not_honor', 'card_velocity_exceeded'])
        for (let i = 0; i < 20; i += 1)
          await seedPaymentThrough(analysed.merchant.id, ['terminate'], { declineCode, customer: { email: `${declineCode}${i}@example.com` } });
      await stack.runtime.stream.drain();
      await record('listRecoverySuggestions', 'two codes never recover', `${api}/suggestions/recovery`, { key: analysed.key });
      await record('applySuggestion', 'experiment', `${api}/suggestions/${suggestionIdOf('stop_retrying_code', 'do_not_honor')}/apply`, {
        method: 'POST',
        key: analysed.key,
      });
      await record('dismissSuggestion', 'dismiss', `${api}/suggestions/${suggestionIdOf('stop_retrying_code', 'card_velocity_exceeded')}/dismiss`, {
        method: 'POST',
        key: analysed.key,
      });

      await record('registerStorefront', 'create', `${api}/integrations/storefront/register`, {
        method: 'POST',
        key,
        body: { shop_domain: `openapi-${tenant.merchant.id.toLowerCase().replace(/[^a-z0-9]/g, '')}.myshopify.com` },
      });
      await record('listIntegrationHealth', 'all', `${api}/integrations/health`, { key });
      await record('getIntegrationHealth', 'stripe', `${api}/integrations/stripe/health`, { key });
      await record('listIntegrationErrors', 'stripe', `${api}/integrations/stripe/errors`, { key });

      await exerciseCrm(api, key);
      await exerciseSessionProxy();

      const hook = { target_url: 'https://93.184.215.14/hooks/openapi', event_type: 'payment.recovered' };
      await record('subscribeAutomationHook', 'subscribe', `${api}/automation/subscribe`, { method: 'POST', key, body: hook });
      await record('pollAutomationEvents', 'poll', `${api}/automation/poll/recovery.retry_attempted`, { key });
      await record('getAutomationSample', 'sample', `${api}/automation/sample/payment.recovered`, { key });
      await record('unsubscribeAutomationHook', 'unsubscribe', `${api}/automation/subscribe`, { method: 'DELETE', key, body: hook });

      await exerciseCancelFlows(api, key, customerId);

      const recovery = { id: 'pe_openapi_1', decline_code: 'insufficient_funds', amount_cents: 4999, currency: 'usd', customer_segment: 'first_failure' };
      await record('embedRecoveryEvent', 'A', `${api}/vectors/embed-event`, {
        method: 'POST',
        key,
        body: { ...recovery, recovery_strategy: 'retry', outcome: 'recovered' },
      });
      await record('findSimilarRecoveries', 'A', `${api}/vectors/find-similar`, { method: 'POST', key, body: recovery });
      await record('recommendStrategy', 'a payment', `${api}/vectors/recommend-strategy/${data(atRisk).payment_event_id as string}`, { key });

      await record('deleteCustomer', 'erase', `${api}/customers/${customerId}`, { method: 'DELETE', key });
    }

    /** The custom hostname operations (issue 16), with DNS answered by a server on loopback, and the cache purge. */
    async function exerciseCustomHostnames(key: string): Promise<void> {
      const dns = await startDnsServer();
      process.env.DNS_SERVERS = dns.address;
      try {
        const edge = `${originOf(stack)}/api/custom-hostname`;
        const provisioned = await record('provisionCustomHostname', 'pending', `${edge}/provision`, {
          method: 'POST',
          key,
          body: { hostname: 'pay.openapi.example' },
        });
        const id = data(provisioned).id as string;
        const txt = data(provisioned).ownership_verification as { name: string; value: string };
        dns.setCname('pay.openapi.example', data(provisioned).cname_target as string);
        dns.setTxt(txt.name, [txt.value]);
        await record('verifyCustomHostname', 'active', `${edge}/verify`, { method: 'POST', key, body: { id } });
        await record('getCustomHostnameStatus', 'active', `${edge}/status/${id}`, { key });
        await record('invalidateCache', 'hostname', `${originOf(stack)}/api/internal/cache/invalidate`, {
          method: 'POST',
          headers: cronAuth(),
          body: { kind: 'hostname', key: 'pay.openapi.example' },
        });
        await record('deleteCustomHostname', 'delete', `${edge}/${id}`, { method: 'DELETE', key });
      } finally {
        delete process.env.DNS_SERVERS;
        await dns.close();
      }
    }

    /** For every built operation, the errors the pipeline answers its auth kind and path with. */
    async function exerciseErrors(): Promise<void> {
      const origin = originOf(stack);
      const built = routes.filter((route) => route.schemas !== undefined);
      const urlOf = (route: RouteDef, param: string): string => `${origin}${route.path.replace(/\{[^}]+\}/g, param)}`;
      for (const route of built) {
        const method = route.method;
        const body = method === 'GET' || method === 'DELETE' ? {} : { rawBody: '{}', headers: { 'Content-Type': 'application/json' } };
        if (route.auth === 'api_key') {
          await record(route.operationId, 'no key', urlOf(route, 'x_unknown_id'), { method, ...body });
          const refused = scopesGrant(['read:vectors'], route.scopes) ? otherScope : readOnly;
          await record(route.operationId, 'key without the scope', urlOf(route, 'x_unknown_id'), { method, key: refused, ...body });
        }
        if (route.auth === 'provider_signature' || route.auth === 'cron_secret') {
          const merchant = route.group === 'provider-webhooks' ? tenant.merchant.id : 'x';
          await record(route.operationId, 'unsigned', urlOf(route, merchant), {
            method,
            ...(method === 'GET' ? {} : { rawBody: '{"id":"evt_unsigned"}', headers: { 'Content-Type': 'application/json' } }),
          });
        }
        if (route.path.includes('{')) {
          // Path parameters are read after authentication: each route is called as its auth kind asks.
          const credential = route.auth === 'cron_secret' ? { headers: cronAuth() } : { key: tenant.key };
          await record(route.operationId, 'unknown id', urlOf(route, 'x_unknown_id'), { method, ...credential, ...(method === 'POST' ? { body: {} } : {}) });
          await record(route.operationId, 'malformed path parameter', urlOf(route, '%E0%A4%A'), { method, ...credential });
        }
        if (route.auth === 'api_key' && route.schemas?.body !== undefined) {
          await record(route.operationId, 'malformed JSON', urlOf(route, 'x_unknown_id'), {
            method,
            key: tenant.key,
            rawBody: '{"unterminated',
            headers: { 'Content-Type': 'application/json' },
          });
        }
      }
      const limited = await newTenant(['admin'], { read_per_minute: 1, write_per_minute: 1 });
      for (let attempt = 0; attempt < 3; attempt += 1) await record('listPayments', 'over the rate limit', `${stack.api_url}/payments`, { key: limited.key });
    }

    beforeAll(async () => {
      tenant = await newTenant(['admin'], UNLIMITED);
      // Configured for every provider, so an unsigned delivery reaches the signature check.
      for (const c of [...providerCases, ...thinCases]) await setProviderSecret(tenant.merchant.id, c.psp, c.secret);
      // A scope that grants only the vectors' reads, and one that grants none of them.
      readOnly = (await newTenant(['read:vectors'], UNLIMITED)).key;
      otherScope = (await newTenant(['write:payments'], UNLIMITED)).key;
      await exerciseSuccesses();
      successPhase = exchanges.length;
      await exerciseErrors();
    }, 180_000);

    it('gets a success from every built operation, each one with a status the document declares and a body its schema accepts', () => {
      // Prepare
      const successes = exchanges.slice(0, successPhase);
      const built = routes.filter((route) => route.schemas !== undefined).map((route) => route.operationId);
      // Act
      const problems = successes.flatMap((exchange) => {
        const validator = validatorFor(document, exchange.route, exchange.status);
        if (validator === undefined) return [`${exchange.route.operationId} (${exchange.what}): status ${exchange.status} is not declared`];
        const result = validator.safeParse(exchange.body);
        return result.success
          ? []
          : [
              `${exchange.route.operationId} (${exchange.what}) ${exchange.status}: ${result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
            ];
      });
      // Assess
      expect([...new Set(successes.filter((exchange) => exchange.status < 400).map((exchange) => exchange.route.operationId))].sort()).toEqual(
        [...built].sort(),
      );
      expect(problems).toEqual([]);
    });

    it('answers every error with a status the operation declares and the error envelope with a documented code', () => {
      // Prepare
      const errors = exchanges.slice(successPhase);
      // Act
      const problems = errors.flatMap((exchange) => {
        const validator = validatorFor(document, exchange.route, exchange.status);
        if (validator === undefined) return [`${exchange.route.operationId} (${exchange.what}): status ${exchange.status} is not declared`];
        const result = validator.safeParse(exchange.body);
        return result.success ? [] : [`${exchange.route.operationId} (${exchange.what}) ${exchange.status}: ${JSON.stringify(exchange.body)}`];
      });
      // Assess
      expect(errors.length).toBeGreaterThan(100);
      expect(problems).toEqual([]);
    });

    it('declares what the pipeline answers each auth kind: 401 for keyed, signed and cron routes, 403 and 429 for keyed, 400, and 404 where the path has a parameter', () => {
      // Prepare
      const seen = (what: string) =>
        new Set(exchanges.filter((exchange) => exchange.what === what).map((exchange) => `${exchange.route.operationId} ${exchange.status}`));
      const built = routes.filter((route) => route.schemas !== undefined);
      const expected = built.flatMap((route) =>
        [
          ...(route.auth === 'api_key'
            ? [
                ['no key', 401],
                ['key without the scope', 403],
              ]
            : []),
          ...(route.auth === 'provider_signature' || route.auth === 'cron_secret' ? [['unsigned', 401]] : []),
          ...(route.path.includes('{') ? [['malformed path parameter', 400]] : []),
          ...(route.auth === 'api_key' && route.schemas?.body !== undefined ? [['malformed JSON', 400]] : []),
        ].map(([what, status]) => ({ operationId: route.operationId, what, status })),
      );
      // Act
      const answered = expected.filter(({ operationId, what, status }) => seen(what as string).has(`${operationId} ${status}`));
      const declared = built.flatMap((route) => {
        const statuses = Object.keys(operationOf(document, route).responses);
        const wanted = [
          '400',
          ...(route.auth === 'api_key' || route.auth === 'optional_api_key' || route.auth === 'provider_signature' || route.auth === 'cron_secret'
            ? ['401']
            : []),
          ...(route.auth === 'api_key' ? ['403', '429'] : []),
          ...(route.path.includes('{') ? ['404'] : []),
        ];
        return wanted.filter((status) => !statuses.includes(status)).map((status) => `${route.operationId} lacks ${status}`);
      });
      // Assess
      expect(answered).toEqual(expected);
      expect(declared).toEqual([]);
      expect(exchanges.some((exchange) => exchange.what === 'over the rate limit' && exchange.status === 429)).toBe(true);
      expect(exchanges.some((exchange) => exchange.what === 'unknown id' && exchange.status === 404)).toBe(true);
    });
  });
});
