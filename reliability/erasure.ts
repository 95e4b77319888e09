import { ENTITY } from '#data/keys';
import { executeDueRetries } from '#jobs/execute-due-retries';
import { createCampaignWithEmail } from '#test/fixtures/ab-tests';
import { createFlow, SURVEY_FLOW } from '#test/fixtures/cancel-flows';
import { call } from '#test/fixtures/http';
import { newTenant, UNLIMITED } from '#test/fixtures/tenants';
import type { SuiteContext } from './context';
import { type Figure, firstOf } from './figures';
import { acceptStripe, customerStripeFailure } from './provider-events';
import { ingestFailure, unique } from './seed';
import { itemsMentioning, scanTable, type TableSnapshot } from './table';

const DAY_MS = 86_400_000;

/** The entity types of the items that mention the customer. */
const kindsOf = (snapshot: TableSnapshot, keys: readonly string[]): string[] =>
  [...new Set(keys.map((key) => String((JSON.parse(snapshot.get(key) ?? '{}') as { entity?: unknown }).entity)))].sort();

/**
 * The `customer.deleted` event erasure itself writes for the merchant's webhooks (DESIGN §1's
 * event list): it must name which customer went, by the opaque id alone, and expires with the
 * outbox. It is the one item allowed to hold the id afterwards.
 */
function isErasureNotice(item: string | undefined, customerId: string): boolean {
  const parsed = JSON.parse(item ?? '{}') as { entity?: string; types?: string[]; data?: { object?: Record<string, unknown> } };
  const object = parsed.data?.object ?? {};
  return (
    parsed.entity === ENTITY.outboundEvent &&
    JSON.stringify(parsed.types) === JSON.stringify(['customer.deleted']) &&
    JSON.stringify(Object.keys(object)) === JSON.stringify(['customer_id']) &&
    object.customer_id === customerId
  );
}

/**
 * Erasure completeness (issue 17): a customer given data of every kind the service keeps, each
 * made as in production (ingest with an Idempotency-Key, a signed provider delivery whose payload
 * is stored, an active campaign's enrollment and emails, a manual dunning email, a pause and a
 * resume, a retry the sandbox gateway charges, a win-back offer, a cancel session, the stream's
 * counters and rollups), then `DELETE /customers/{id}`, the stream and queues drained, and the
 * whole table scanned for items that still mention the customer's id or email (any case), the
 * `customer.deleted` notice aside.
 */
export async function erasure(context: SuiteContext): Promise<Figure[]> {
  const tenant = await newTenant(['admin'], UNLIMITED);
  await acceptStripe(tenant.merchant.id);
  const email = `${unique('Erase.Me')}@Reliability.test`;
  const steps: string[] = [];
  const step = async (name: string, run: () => Promise<{ status: number; text?: string }>): Promise<void> => {
    const answer = await run();
    if (answer.status >= 400) steps.push(`${name} answered ${answer.status}: ${answer.text?.slice(0, 160)}`);
  };
  await createCampaignWithEmail(context.apiUrl, tenant.key, { activate: true });
  await createFlow(context.apiUrl, tenant, SURVEY_FLOW, true);
  const first = await ingestFailure(context, tenant.key, email);
  await step('ingest with Idempotency-Key', () =>
    call(`${context.apiUrl}/ingest/payment-event`, {
      method: 'POST',
      key: tenant.key,
      headers: { 'Idempotency-Key': unique('erase') },
      body: {
        event_type: 'payment_failed',
        amount_cents: 1200,
        currency: 'eur',
        customer_email: email,
        decline_code: 'processing_error',
        metadata: { psp: 'stripe', payment_id: unique('ch') },
      },
    }),
  );
  const delivery = customerStripeFailure(email);
  await step('provider delivery', () =>
    call(`${context.origin}/stripe/${tenant.merchant.id}`, { method: 'POST', rawBody: delivery.body, headers: delivery.headers }),
  );
  await context.stack.runtime.queues.drain();
  const customer = await call<{ data: { id: string } }>(`${context.apiUrl}/customers/by-email/${encodeURIComponent(email)}`, { key: tenant.key });
  const customerId = customer.body.data.id;
  await step('dunning email', () => call(`${context.apiUrl}/recoveries/${first.recovery_id}/dunning`, { method: 'POST', key: tenant.key, body: {} }));
  await step('pause', () => call(`${context.apiUrl}/payments/${first.payment_event_id}/pause`, { method: 'POST', key: tenant.key, body: {} }));
  await step('resume', () => call(`${context.apiUrl}/payments/${first.payment_event_id}/resume`, { method: 'POST', key: tenant.key, body: {} }));
  await step('win-back', () =>
    call(`${context.apiUrl}/win-back/${customerId}`, {
      method: 'POST',
      key: tenant.key,
      body: { offer_type: 'discount', offer_value: '20% off for 3 months' },
    }),
  );
  await step('cancel session', () =>
    call(`${context.origin}/api/cancel-session/start`, {
      method: 'POST',
      key: tenant.key,
      body: { merchant_id: tenant.merchant.id, customer_id: customerId, subscription_id: first.subscription_id },
    }),
  );
  const retried = await executeDueRetries({ now: new Date(Date.now() + 30 * DAY_MS), executionId: unique('erasure-run') });
  if (retried.succeeded === 0) steps.push(`no retry succeeded: ${JSON.stringify(retried)}`);
  await context.stack.runtime.queues.drain();
  await context.stack.runtime.stream.drain();
  const before = await scanTable();
  const mentionedBefore = [...new Set([...itemsMentioning(before, customerId), ...itemsMentioning(before, email)])];

  const erased = await call(`${context.apiUrl}/customers/${customerId}`, { method: 'DELETE', key: tenant.key });
  await context.stack.runtime.queues.drain();
  await context.stack.runtime.stream.drain();
  const after = await scanTable();
  const mentioning = [...new Set([...itemsMentioning(after, customerId), ...itemsMentioning(after, email)])];
  const notices = mentioning.filter((key) => isErasureNotice(after.get(key), customerId));
  const left = mentioning.filter((key) => !notices.includes(key));
  return [
    {
      area: 'erasure',
      name: 'items still mentioning an erased customer',
      value: erased.status === 200 ? left.length : -1,
      rule: 'eq',
      target: 0,
      detail: `DELETE ${erased.status}, ${notices.length} customer.deleted notice(s) kept (the opaque id only); ${mentionedBefore.length} items of ${kindsOf(before, mentionedBefore).length} kinds before (${kindsOf(before, mentionedBefore).join(', ')})${steps.length > 0 ? `; setup short of data: ${steps.join(', ')}` : ''}${firstOf(kindsOf(after, left))}`,
    },
  ];
}
