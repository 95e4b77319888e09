import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { customerKeys } from '../../../functions/data/keys';
import { documentClient } from '../../../functions/data/client';
import { getCustomerByEmail, customerCounts } from '../../../functions/data/customer-repository';
import { type NewFailedPayment, applyPaymentEvent, getPayment, getPaymentByAnyId, paymentCounters, recordFailedPayment } from '../../../functions/data/payment-repository';
import { listPayments, paymentTimeline } from '../../../functions/data/payment-queries';
import { StateConflictError } from '../../../functions/core/errors';
import type { PaymentEvent } from '../../../functions/core/payments';
import { failedPaymentInput } from '../../fixtures/payments';

const failed = (merchantId: string, overrides: Partial<NewFailedPayment> = {}): NewFailedPayment =>
  failedPaymentInput(merchantId, { customer: { email: 'Jane@Example.com', name: 'Jane Doe' }, ...overrides });
const merchant = (): string => `merch_test${Math.random().toString(36).slice(2, 10)}`;
const reason = 'test';

describe('payment repository', () => {
  it('records a failed payment with its customer, history, timeline and counters', async () => {
    // Prepare
    const m = merchant();
    // Act
    const { payment, created } = await recordFailedPayment(failed(m, { providerPaymentId: 'ch_abc' }));
    // Assess
    expect(created).toBe(true);
    expect(payment).toMatchObject({ status: 'pending', amount: 4999, currency: 'usd', customer_email: 'jane@example.com', psp: 'stripe', retry_count: 0 });
    expect(payment.id.replace('pe_', '')).toBe(payment.recovery_id.replace('rec_', ''));
    expect(payment.state_history).toEqual([{ status: 'pending', at: payment.created_at, reason: expect.stringContaining('insufficient_funds') }]);
    expect(await getPaymentByAnyId(m, 'ch_abc')).toEqual(payment);
    expect(await getPaymentByAnyId(m, payment.recovery_id)).toEqual(payment);
    expect((await paymentTimeline(m, payment)).map((entry) => entry.type)).toEqual(['payment_failed']);
    const customer = await getCustomerByEmail(m, 'jane@example.com');
    expect(customer).toMatchObject({ id: payment.customer_id, total_payments: 1, failed_payments: 1, open_payments: 1, total_failed_cents: 4999 });
    expect(await customerCounts(m)).toEqual({ all: 1, has_failed: 1 });
    expect(await paymentCounters(m)).toMatchObject({ all: 1, 's:pending': 1, 'c:soft_retry': 1, 'p:stripe': 1, 's:pending|c:soft_retry|p:stripe': 1 });
  });

  it('records exactly one payment for 200 concurrent deliveries of one provider payment', async () => {
    // Prepare
    const m = merchant();
    const input = failed(m, { providerPaymentId: 'ch_dup' });
    // Act
    const results = await Promise.all(Array.from({ length: 200 }, () => recordFailedPayment(input)));
    // Assess
    expect(results.filter((result) => result.created)).toHaveLength(1);
    expect(new Set(results.map((result) => result.payment.id)).size).toBe(1);
    expect((await listPayments(m, {}, 1, 100)).payments).toHaveLength(1);
    expect(await paymentCounters(m)).toMatchObject({ all: 1 });
    expect(await getCustomerByEmail(m, 'jane@example.com')).toMatchObject({ total_payments: 1, open_payments: 1 });
  }, 60_000);

  it('makes one customer when first events for one email arrive together', async () => {
    // Prepare
    const m = merchant();
    // Act
    await Promise.all(Array.from({ length: 10 }, () => recordFailedPayment(failed(m, { customer: { email: 'new@example.com' } }))));
    // Assess
    expect(await customerCounts(m)).toEqual({ all: 1, has_failed: 1 });
    expect(await getCustomerByEmail(m, 'NEW@example.com')).toMatchObject({ total_payments: 10, open_payments: 10 });
  }, 60_000);

  it('files an event under the customer owning its provider customer id, whatever email it shows', async () => {
    // Prepare
    const m = merchant();
    const first = await recordFailedPayment(failed(m, { customer: { email: 'old@example.com', provider_customer_id: 'cus_1' } }));
    // Act
    const second = await recordFailedPayment(failed(m, { customer: { email: 'new@example.com', provider_customer_id: 'cus_1' } }));
    const third = await recordFailedPayment(failed(m, { customer: { email: 'other@example.com', provider_customer_id: 'cus_2' } }));
    // Assess
    expect(second.payment.customer_id).toBe(first.payment.customer_id);
    expect(third.payment.customer_id).not.toBe(first.payment.customer_id);
    expect(await customerCounts(m)).toEqual({ all: 2, has_failed: 2 });
  });

  it('records a do-not-retry decline as terminal at once', async () => {
    // Act
    const { payment } = await recordFailedPayment(failed(merchant(), { declineCategory: 'terminal', declineSubcategory: 'fraud', retryAllowed: false }));
    // Assess
    expect(payment.status).toBe('terminal');
    expect(payment.state_history.map((entry) => entry.status)).toEqual(['pending', 'terminal']);
  });

  describe('the transition table, row by row', () => {
    const at = '2026-12-01T10:00:00.000Z';
    const events: Record<string, PaymentEvent> = {
      retry: { type: 'schedule_retry', at, reason },
      pause: { type: 'pause', reason },
      resume: { type: 'resume', reason },
      recover: { type: 'recover', reason },
      terminate: { type: 'terminate', reason },
    };
    const reach = async (m: string, path: Array<keyof typeof events>) => {
      const { payment } = await recordFailedPayment(failed(m));
      for (const step of path) await applyPaymentEvent(m, payment.id, events[step] as PaymentEvent);
      return payment.id;
    };
    it.each([
      ['pending', [], 'retry', 'retrying'],
      ['retrying', ['retry'], 'pause', 'paused'],
      ['pending', [], 'pause', 'paused'],
      ['paused (from retrying)', ['retry', 'pause'], 'resume', 'retrying'],
      ['paused (from pending)', ['pause'], 'resume', 'pending'],
      ['retrying', ['retry'], 'recover', 'recovered'],
      ['pending', [], 'terminate', 'terminal'],
      ['paused', ['pause'], 'recover', 'recovered'],
    ] as const)('moves %s on %s to %s', async (_from, path, step, to) => {
      // Prepare
      const m = merchant();
      const id = await reach(m, [...path]);
      // Act
      const { after } = await applyPaymentEvent(m, id, events[step] as PaymentEvent);
      // Assess
      expect(after.status).toBe(to);
      expect(after.state_history.at(-1)).toEqual({ status: to, at: after.updated_at, reason });
    });

    it.each([
      ['recovered', ['recover'], 'retry'],
      ['terminal', ['terminate'], 'retry'],
      ['paused', ['pause'], 'retry'],
      ['paused', ['pause'], 'pause'],
      ['pending', [], 'resume'],
      ['recovered', ['recover'], 'pause'],
      ['terminal', ['terminate'], 'resume'],
      ['recovered', ['recover'], 'recover'],
    ] as const)('refuses %s on %s with a 409 naming the status', async (status, path, step) => {
      // Prepare
      const m = merchant();
      const id = await reach(m, [...path]);
      // Act
      const refused = await applyPaymentEvent(m, id, events[step] as PaymentEvent).catch((error: unknown) => error);
      // Assess
      expect(refused).toBeInstanceOf(StateConflictError);
      expect((refused as Error).message).toContain(status);
    });

    it('refuses a retry at max_retries and of a hard decline waiting for a card', async () => {
      // Prepare
      const m = merchant();
      const { payment: maxed } = await recordFailedPayment(failed(m, { maxRetries: 0 }));
      const { payment: hard } = await recordFailedPayment(failed(m, { declineCategory: 'hard_customer', declineSubcategory: 'expired' }));
      // Act
      const a = await applyPaymentEvent(m, maxed.id, events.retry as PaymentEvent).catch((e: Error) => e.message);
      const b = await applyPaymentEvent(m, hard.id, events.retry as PaymentEvent).catch((e: Error) => e.message);
      await applyPaymentEvent(m, hard.id, { type: 'card_updated', reason });
      const c = await applyPaymentEvent(m, hard.id, events.retry as PaymentEvent);
      // Assess
      expect(a).toMatch(/maximum of 0 retries/);
      expect(b).toMatch(/card update/);
      expect(c.after.status).toBe('retrying');
    });
  });

  it('keeps a consistent state under 50 parallel pause, resume and retry requests', async () => {
    // Prepare
    const m = merchant();
    const { payment } = await recordFailedPayment(failed(m));
    const kinds: PaymentEvent[] = [{ type: 'pause', reason }, { type: 'resume', reason }, { type: 'schedule_retry', at: '2026-12-01T00:00:00.000Z', reason }];
    // Act
    const outcomes = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => applyPaymentEvent(m, payment.id, kinds[i % 3] as PaymentEvent)));
    // Assess
    const final = await getPayment(m, payment.id);
    const succeeded = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o) => o.status === 'rejected');
    for (const o of refused) expect((o as PromiseRejectedResult).reason).toBeInstanceOf(StateConflictError);
    expect(final?.version).toBe(1 + succeeded.length);
    const statusChanges = succeeded.filter((o) => {
      const { before, after } = (o as PromiseFulfilledResult<{ before: { status: string }; after: { status: string } }>).value;
      return before.status !== after.status;
    }).length;
    expect(final?.state_history).toHaveLength(1 + statusChanges);
    expect((await paymentTimeline(m, payment)).length).toBe(1 + succeeded.length);
    const counters = await paymentCounters(m);
    expect(counters.all).toBe(1);
    expect(counters[`s:${final?.status}`]).toBe(1);
    const customer = await documentClient.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: customerKeys.customer(m, payment.customer_id.replace('cust_', '')) }));
    expect(customer.Item?.open_payments).toBe(1);
  }, 120_000);

  it('lists with filters, aliases, ranges and totals from counters', async () => {
    // Prepare
    const m = merchant();
    const a = (await recordFailedPayment(failed(m), new Date('2026-10-01T00:00:00Z'))).payment;
    const b = (await recordFailedPayment(failed(m, { psp: 'adyen', declineCategory: 'hard_customer', declineSubcategory: 'expired' }), new Date('2026-10-02T00:00:00Z'))).payment;
    const c = (await recordFailedPayment(failed(m), new Date('2026-10-03T00:00:00Z'))).payment;
    await applyPaymentEvent(m, c.id, { type: 'recover', reason });
    await applyPaymentEvent(m, a.id, { type: 'pause', reason });
    // Act
    const all = await listPayments(m, {}, 1, 25);
    const failedAlias = await listPayments(m, { statuses: ['pending', 'retrying', 'paused'] }, 1, 25);
    const hard = await listPayments(m, { declineCategory: 'hard_customer' }, 1, 25);
    const stripePaused = await listPayments(m, { statuses: ['paused'], psp: 'stripe' }, 1, 25);
    const range = await listPayments(m, { createdAfter: new Date('2026-10-02T00:00:00Z'), createdBefore: new Date('2026-10-03T00:00:00Z') }, 1, 25);
    const secondPage = await listPayments(m, {}, 2, 2);
    const ofCustomer = await listPayments(m, { customerId: a.customer_id, statuses: undefined }, 1, 25);
    // Assess
    expect(all.payments.map((p) => p.id)).toEqual([c.id, b.id, a.id]);
    expect(all.pagination).toEqual({ total: 3, page: 1, per_page: 25, total_pages: 1 });
    expect(failedAlias.payments.map((p) => p.id)).toEqual([b.id, a.id]);
    expect(failedAlias.pagination.total).toBe(2);
    expect(hard.payments.map((p) => p.id)).toEqual([b.id]);
    expect(stripePaused.payments.map((p) => p.id)).toEqual([a.id]);
    expect(stripePaused.pagination.total).toBe(1);
    expect(range.payments.map((p) => p.id)).toEqual([b.id]);
    expect(range.pagination.total).toBe(1);
    expect(secondPage.payments.map((p) => p.id)).toEqual([a.id]);
    expect(secondPage.pagination).toEqual({ total: 3, page: 2, per_page: 2, total_pages: 2 });
    expect(ofCustomer.payments).toHaveLength(3);
  }, 60_000);
});
