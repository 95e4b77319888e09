import { getInvoiceTimelineSchemas } from '#api/subscriptions/schemas';
import type { PaymentRecord } from '#core/payments';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { seedPaymentThrough } from '#test/fixtures/payments';
import { keyWithScopes } from '#test/fixtures/recoveries';
import { expectOtherMerchantGets404, newTenant, type Tenant } from '#test/fixtures/tenants';

interface TimelineBody {
  data: {
    invoice_id: string;
    payment_event_id: string;
    payment_id: string;
    events: Array<{ timestamp: string; type: string; detail: string; details: Record<string, unknown> }>;
  };
  error?: { code: string; param?: string };
}

describe('GET /api/v1/invoices/{id}/timeline', () => {
  let stack: LocalStack;
  let tenant: Tenant;
  let payment: PaymentRecord;
  const url = (id: string): string => `${stack.api_url}/invoices/${encodeURIComponent(id)}/timeline`;

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], { read_per_minute: 100000, write_per_minute: 100000 });
    payment = await seedPaymentThrough(tenant.merchant.id, ['retry', 'pause', 'resume', 'recover'], { invoiceId: 'in_story', subscriptionId: 'sub_story' });
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  it('returns the invoice payment events oldest first when the invoice has a failed payment', async () => {
    // Act
    const response = await call<TimelineBody>(url('in_story'), { key: tenant.key });
    // Assess
    expect(response.status).toBe(200);
    expect(() => getInvoiceTimelineSchemas.responses[200].parse(response.body)).not.toThrow();
    expect(response.body.data).toMatchObject({ invoice_id: 'in_story', payment_event_id: payment.id, payment_id: payment.id });
    const events = response.body.data.events;
    // Recorded with retry 1 planned, rescheduled, paused, resumed (the retry planned again),
    // recovered (not by a retry of ours): A's words, the recorded type in details.kind.
    expect(events.map((event) => event.type)).toEqual(['payment_failed', 'retry', 'retry', 'status_change', 'status_change', 'retry', 'status_change']);
    expect(events.map((event) => event.details.kind)).toEqual([
      undefined,
      'retry_scheduled',
      'retry_scheduled',
      undefined,
      undefined,
      'retry_scheduled',
      'retry_succeeded',
    ]);
    expect(events[6]?.details).toMatchObject({ from: 'retrying', to: 'recovered' });
    expect(events.map((event) => event.timestamp)).toEqual([...events.map((event) => event.timestamp)].sort());
    expect(events[1]?.detail).toMatch(/^Retry 1 scheduled for .*: Retry 1 of 8 at /);
    expect(events[2]?.detail).toBe('Retry 1 scheduled for 2026-12-01T10:00:00.000Z: set up by the test');
    expect(events[3]?.detail).toMatch(/^Paused \(was retrying\)/);
    expect(events[0]?.details).toMatchObject({ decline_code: 'insufficient_funds', amount: 4999 });
  });

  it('includes dunning_sent once the dunning email of the invoice was sent', async () => {
    // Prepare
    const open = await seedPaymentThrough(tenant.merchant.id, [], { invoiceId: 'in_dunned' });
    await call(`${stack.api_url}/recoveries/${open.recovery_id}/dunning`, { method: 'POST', key: tenant.key });
    await stack.runtime.queues.drain();
    // Act
    const response = await call<TimelineBody>(url('in_dunned'), { key: tenant.key });
    // Assess
    expect(response.body.data.events.map((event) => event.type)).toEqual(['payment_failed', 'retry', 'dunning_sent']);
  });

  it('answers 404 when the merchant has no failed payment for the invoice', async () => {
    // Act
    const response = await call<TimelineBody>(url('in_unknown'), { key: tenant.key });
    // Assess
    expect(response.status).toBe(404);
    expect(response.body.error?.code).toBe('resource_not_found');
  });

  it("answers 404 when another merchant asks for this merchant's invoice timeline", async () => {
    // Act and assess
    await expectOtherMerchantGets404(url('in_story'));
  });

  it('answers an id longer than 255 characters with 404 resource_not_found naming id, as no such id can exist', async () => {
    // Act
    const response = await call<TimelineBody>(url('x'.repeat(256)), { key: tenant.key });
    // Assess
    expect(response.status).toBe(404);
    expect(response.body.error).toMatchObject({ code: 'resource_not_found', param: 'id' });
  });

  it('refuses a key without read with 403', async () => {
    // Prepare
    const key = await keyWithScopes(tenant.merchant.id, ['read:payments']);
    // Act
    const response = await call<TimelineBody>(url('in_story'), { key });
    // Assess
    expect(response.status).toBe(403);
    expect(response.body.error?.code).toBe('insufficient_scope');
  });
});
