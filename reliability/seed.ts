import { randomBytes } from 'node:crypto';
import { createFlow } from '#test/fixtures/cancel-flows';
import { call } from '#test/fixtures/http';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';
import { PUBLIC_HOST, type SuiteContext } from './context';

/** A merchant with resources of every kind the API creates, each made through the API. */
export interface SeededTenant extends Tenant {
  /** Real ids by kind: the values a path parameter of that kind takes. */
  readonly ids: Readonly<Record<IdKind, string>>;
}

export type IdKind =
  | 'payment'
  | 'customer'
  | 'customer_email'
  | 'recovery'
  | 'subscription'
  | 'invoice'
  | 'campaign'
  | 'webhook_endpoint'
  | 'template'
  | 'cancel_flow';

export const unique = (prefix: string): string => `${prefix}_${randomBytes(6).toString('hex')}`;

async function created<T>(what: string, response: Promise<{ status: number; body: T; text: string }>): Promise<T> {
  const answer = await response;
  if (answer.status !== 200 && answer.status !== 201) throw new Error(`seeding ${what} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  return answer.body;
}

/** A failed payment ingested for `email`, with subscription and invoice ids: the ids ingest answers. */
export async function ingestFailure(
  context: SuiteContext,
  key: string,
  email: string,
  overrides: Record<string, unknown> = {},
): Promise<{ payment_event_id: string; recovery_id: string; subscription_id: string; invoice_id: string; provider_payment_id: string }> {
  const subscription = unique('sub');
  const invoice = unique('in');
  const providerPaymentId = unique('ch');
  const body = await created<{ data: { payment_event_id: string; recovery_id: string } }>(
    'a payment',
    call(`${context.apiUrl}/ingest/payment-event`, {
      method: 'POST',
      key,
      body: {
        event_type: 'payment_failed',
        amount_cents: 4999,
        currency: 'usd',
        customer_email: email,
        decline_code: 'insufficient_funds',
        ...overrides,
        metadata: { psp: 'stripe', payment_id: providerPaymentId, customer_name: 'Reliability Buyer', subscription_id: subscription, invoice_id: invoice },
      },
    }),
  );
  return { ...body.data, subscription_id: subscription, invoice_id: invoice, provider_payment_id: providerPaymentId };
}

/**
 * A new merchant (unlimited rate) with one resource of each kind, created over HTTP as a merchant
 * would: a failed payment (its customer, recovery, subscription and invoice), a campaign, a
 * webhook endpoint (on a name the suite's DNS server answers with a public address), an email
 * template and a cancel flow.
 */
export async function seedTenant(context: SuiteContext): Promise<SeededTenant> {
  const tenant = await newTenant(['admin'], UNLIMITED);
  const email = `${unique('buyer')}@reliability.test`;
  const payment = await ingestFailure(context, tenant.key, email);
  const customer = await created<{ data: { id: string } }>(
    'the customer',
    call(`${context.apiUrl}/customers/by-email/${encodeURIComponent(email)}`, { key: tenant.key }),
  );
  const campaign = await created<{ data: { id: string } }>(
    'a campaign',
    call(`${context.apiUrl}/campaigns`, {
      method: 'POST',
      key: tenant.key,
      body: { name: unique('Campaign'), trigger_type: 'payment_failed', steps: [{ action: 'retry', delay_hours: 24 }] },
    }),
  );
  const endpoint = await created<{ data: { id: string } }>(
    'a webhook endpoint',
    call(`${context.apiUrl}/webhooks/endpoints`, { method: 'POST', key: tenant.key, body: { url: `https://${PUBLIC_HOST}/${unique('hook')}` } }),
  );
  const template = await created<{ data: { id: string } }>(
    'a template',
    call(`${context.apiUrl}/templates`, {
      method: 'POST',
      key: tenant.key,
      body: {
        name: unique('Template'),
        subject: 'About your {{ amount }} payment',
        html: '<p>Hi {{customer_name}}, please <a href="{{update_payment_url}}">update your card</a>.</p>',
        text: 'Hi {{customer_name}}, update your card: {{update_payment_url}}',
      },
    }),
  );
  const flow = await createFlow(context.apiUrl, tenant);
  return {
    ...tenant,
    ids: {
      payment: payment.payment_event_id,
      customer: customer.data.id,
      customer_email: email,
      recovery: payment.recovery_id,
      subscription: payment.subscription_id,
      invoice: payment.invoice_id,
      campaign: campaign.data.id,
      webhook_endpoint: endpoint.data.id,
      template: template.data.id,
      cancel_flow: flow,
    },
  };
}

/**
 * The kind of id a path parameter takes, from the row's path: `/payments/{id}` a payment,
 * `/customers/by-email/{email}` a customer's email, `/email/ab-test/{campaign_id}` a campaign.
 * Undefined for a parameter that names no merchant resource the suite can create.
 */
export function kindOf(path: string, parameter: string): IdKind | undefined {
  if (parameter === 'email' && path.includes('/customers/')) return 'customer_email';
  if (parameter === 'campaign_id') return 'campaign';
  if (parameter === 'payment_id') return 'payment';
  if (parameter === 'customer_id' || parameter === 'customerId') return 'customer';
  const family = path.split('/').filter((part) => part !== '' && part !== 'api' && part !== 'v1')[0];
  const byFamily: Readonly<Record<string, IdKind>> = {
    payments: 'payment',
    customers: 'customer',
    recoveries: 'recovery',
    subscriptions: 'subscription',
    invoices: 'invoice',
    campaigns: 'campaign',
    templates: 'template',
    'cancel-flows': 'cancel_flow',
  };
  if (path.startsWith('/api/v1/webhooks/endpoints/')) return 'webhook_endpoint';
  if (path.startsWith('/api/v1/analytics/at-risk-customers/')) return 'customer';
  if (path.startsWith('/api/v1/templates/preview/')) return 'template';
  return family === undefined ? undefined : byFamily[family];
}
