import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { customerKeys, paymentKeys } from '#data/keys';
import { documentClient } from '#data/client';
import { getCustomerByEmail, customerCounts } from '#data/customer-repository';
import { type NewFailedPayment, applyPaymentEvent, getPayment, getPaymentByAnyId, paymentCounters, recordFailedPayment } from '#data/payment-repository';
import { listPayments, paymentTimeline } from '#data/payment-queries';
import { StateConflictError } from '#core/errors';
import { type PaymentEvent, paymentBodyOf } from '#core/payments';
import { failedPaymentInput, HARD_DECLINE } from '#test/fixtures/payments';
import { drainTableStream } from '#test/fixtures/table-stream';

const failed = (merchantId: string, overrides: Partial<NewFailedPayment> = {}): NewFailedPayment =>
  failedPaymentInput(merchantId, { customer: { email: 'Jane@Example.com', name: 'Jane Doe' }, ...overrides });
const merchant = (): string => `merch_test${Math.random().toString(36).slice(2, 10)}`;
const reason = 'test';

describe('payment repository', () => {
  it('records a failed payment with its customer, history, timeline and counters, and its first retry planned by the policy', async () => {
    // Prepare
    const m = merchant();
    const at = new Date('2026-10-01T12:00:00.000Z');
    // The payday (the 15th) is further off than step 1 of the balance ladder (24 h): the scorer waits
    // 24 h, and an insufficient-funds retry moves to the next morning.
    const planned = '2026-10-03T07:00:00.000Z';
    const planReason =
      'Retry 1 of 8 at 2026-10-03T07:00:00.000Z: scored 0.38, wait 24 h (insufficient_funds is a soft_retry decline (balance) that recovers about 45% of the time; this attempt scores 38%, lowered by payday in 14 days. Retry in 24 h: step 1 of the balance ladder (24, 72, 120, 168 h), before the next payday in 14 days.); moved to the local morning (7:00-9:00 UTC) for an insufficient-funds decline';
    // Act
    const { payment, created } = await recordFailedPayment(failed(m, { providerPaymentId: 'ch_abc' }), at);
    await drainTableStream();
    // Assess
    expect(created).toBe(true);
    expect(payment).toMatchObject({
      status: 'retrying',
      next_retry_at: planned,
      amount: 4999,
      currency: 'usd',
      customer_email: 'jane@example.com',
      psp: 'stripe',
      retry_count: 0,
      awaiting_card_update: false,
      attempt: null,
      version: 1,
    });
    expect(payment.id.replace('pe_', '')).toBe(payment.recovery_id.replace('rec_', ''));
    expect(payment.state_history).toEqual([
      { status: 'pending', at: payment.created_at, reason: 'Payment failed: decline code insufficient_funds (soft_retry/balance)' },
      { status: 'retrying', at: payment.created_at, reason: planReason },
    ]);
    expect(await getPaymentByAnyId(m, 'ch_abc')).toEqual(payment);
    expect(await getPaymentByAnyId(m, payment.recovery_id)).toEqual(payment);
    const timeline = await paymentTimeline(m, payment);
    expect(timeline.map((entry) => entry.type)).toEqual(['payment_failed', 'retry_scheduled']);
    expect(timeline[1]).toEqual({
      type: 'retry_scheduled',
      timestamp: payment.created_at,
      detail: `Retry 1 scheduled for ${planned}: ${planReason}`,
      details: { retry_number: 1, scheduled_at: planned, reason: planReason },
    });
    const customer = await getCustomerByEmail(m, 'jane@example.com');
    expect(customer).toMatchObject({ id: payment.customer_id, total_payments: 1, failed_payments: 1, open_payments: 1, total_failed_cents: 4999 });
    expect(await customerCounts(m)).toEqual({ all: 1, has_failed: 1 });
    expect(await paymentCounters(m)).toMatchObject({ all: 1, 's:retrying': 1, 'c:soft_retry': 1, 'p:stripe': 1, 's:retrying|c:soft_retry|p:stripe': 1 });
    expect((await paymentCounters(m))['s:pending']).toBeUndefined();
  });

  it('records a hard_customer decline as pending, waiting for a card update, with no retry planned', async () => {
    // Prepare
    const m = merchant();
    // Act
    const { payment } = await recordFailedPayment(failed(m, HARD_DECLINE));
    await drainTableStream();
    // Assess
    expect(payment).toMatchObject({ status: 'pending', awaiting_card_update: true, next_retry_at: null, retry_count: 0 });
    expect(payment.state_history).toEqual([
      { status: 'pending', at: payment.created_at, reason: 'Payment failed: decline code expired_card (hard_customer/expired)' },
    ]);
    expect((await paymentTimeline(m, payment)).map((entry) => entry.type)).toEqual(['payment_failed']);
    expect(await paymentCounters(m)).toMatchObject({ all: 1, 's:pending': 1, 's:pending|c:hard_customer|p:stripe': 1 });
  });

  it('records exactly one payment for 200 concurrent deliveries of one provider payment', async () => {
    // Prepare
    const m = merchant();
    const input = failed(m, { providerPaymentId: 'ch_dup' });
    // Act
    const results = await Promise.all(Array.from({ length: 200 }, () => recordFailedPayment(input)));
    await drainTableStream();
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
    await drainTableStream();
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
    await drainTableStream();
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
    /** A soft decline is retrying from its recording on; a hard decline (`hard`) is pending, waiting for a card. */
    const reach = async (m: string, path: Array<keyof typeof events>, hard = false) => {
      const { payment } = await recordFailedPayment(failed(m, hard ? HARD_DECLINE : {}));
      for (const step of path) await applyPaymentEvent(m, payment.id, events[step] as PaymentEvent);
      return payment.id;
    };
    it.each([
      ['retrying (planned at recording)', [], false, 'retry', 'retrying'],
      ['retrying (rescheduled)', ['retry'], false, 'retry', 'retrying'],
      ['retrying', ['retry'], false, 'pause', 'paused'],
      ['retrying (planned at recording)', [], false, 'pause', 'paused'],
      ['pending (waiting for a card)', [], true, 'pause', 'paused'],
      ['paused (from retrying)', ['retry', 'pause'], false, 'resume', 'retrying'],
      ['paused (from pending)', ['pause'], true, 'resume', 'pending'],
      ['retrying', ['retry'], false, 'recover', 'recovered'],
      ['pending (waiting for a card)', [], true, 'recover', 'recovered'],
      ['pending (waiting for a card)', [], true, 'terminate', 'terminal'],
      ['retrying (planned at recording)', [], false, 'terminate', 'terminal'],
      ['paused', ['pause'], false, 'recover', 'recovered'],
    ] as const)('moves %s (steps %j, hard decline: %s) on %s to %s', async (_from, path, hard, step, to) => {
      // Prepare
      const m = merchant();
      const id = await reach(m, [...path], hard);
      // Act
      const { before, after } = await applyPaymentEvent(m, id, events[step] as PaymentEvent);
      // Assess
      expect(after.status).toBe(to);
      // A resume to retrying plans the retry again (a pause dropped it), in the same write.
      const replanned =
        step === 'resume' && to === 'retrying' ? [{ status: 'retrying', at: after.updated_at, reason: expect.stringMatching(/^Retry 1 of 8 at /) }] : [];
      expect(after.state_history).toEqual([...before.state_history, { status: to, at: after.updated_at, reason }, ...replanned]);
      expect(after.next_retry_at === null).toBe(to !== 'retrying');
    });

    it.each([
      ['recovered', ['recover'], false, 'retry'],
      ['terminal', ['terminate'], false, 'retry'],
      ['paused', ['pause'], false, 'retry'],
      ['paused', ['pause'], false, 'pause'],
      ['pending', [], true, 'resume'],
      ['retrying', [], false, 'resume'],
      ['recovered', ['recover'], false, 'pause'],
      ['terminal', ['terminate'], false, 'resume'],
      ['recovered', ['recover'], false, 'recover'],
    ] as const)('refuses a payment %s (steps %j, hard decline: %s) the event %s with a 409 naming the status', async (status, path, hard, step) => {
      // Prepare
      const m = merchant();
      const id = await reach(m, [...path], hard);
      const before = await getPayment(m, id);
      // Act
      const refused = await applyPaymentEvent(m, id, events[step] as PaymentEvent).catch((error: unknown) => error);
      // Assess
      expect(refused).toBeInstanceOf(StateConflictError);
      expect((refused as Error).message).toContain(status);
      expect(await getPayment(m, id)).toEqual(before);
    });

    it('ends a payment recorded with max_retries 0 at once: the policy allows it no retry', async () => {
      // Prepare
      const m = merchant();
      // Act
      const { payment } = await recordFailedPayment(failed(m, { maxRetries: 0 }));
      const refused = await applyPaymentEvent(m, payment.id, events.retry as PaymentEvent).catch((e: Error) => e.message);
      // Assess
      expect(payment).toMatchObject({ status: 'terminal', terminal_at: payment.created_at, next_retry_at: null });
      expect(payment.state_history).toEqual([
        { status: 'pending', at: payment.created_at, reason: 'Payment failed: decline code insufficient_funds (soft_retry/balance)' },
        { status: 'terminal', at: payment.created_at, reason: 'Not retried: all 0 retries were used' },
      ]);
      expect((await paymentTimeline(m, payment)).map((entry) => entry.type)).toEqual(['payment_failed', 'status_change']);
      expect(refused).toMatch(/terminal/);
    });

    it('refuses a retry at max_retries and of a hard decline waiting for a card, which card_updated plans', async () => {
      // Prepare: an open payment whose retries are used up (as the retry engine counts them).
      const m = merchant();
      const { payment: maxed } = await recordFailedPayment(failed(m));
      await documentClient.send(
        new UpdateCommand({
          TableName: process.env.TABLE_NAME,
          Key: paymentKeys.payment(m, paymentBodyOf(maxed.id) as string),
          UpdateExpression: 'SET retry_count = max_retries',
        }),
      );
      const { payment: hard } = await recordFailedPayment(failed(m, HARD_DECLINE));
      // Act
      const a = await applyPaymentEvent(m, maxed.id, events.retry as PaymentEvent).catch((e: Error) => e.message);
      const b = await applyPaymentEvent(m, hard.id, events.retry as PaymentEvent).catch((e: Error) => e.message);
      const updated = await applyPaymentEvent(m, hard.id, { type: 'card_updated', reason });
      const c = await applyPaymentEvent(m, hard.id, events.retry as PaymentEvent);
      // Assess
      expect(a).toMatch(/maximum of 8 retries/);
      expect(b).toMatch(/card update/);
      // card_updated lifts the wait and the policy plans retry 1 in the same write: pending → retrying.
      expect(updated.before).toMatchObject({ status: 'pending', awaiting_card_update: true, next_retry_at: null });
      expect(updated.after).toMatchObject({ status: 'retrying', awaiting_card_update: false });
      expect(updated.after.state_history).toEqual([
        ...hard.state_history,
        { status: 'retrying', at: updated.after.updated_at, reason: expect.stringMatching(/^Retry 1 of 8 at /) },
      ]);
      expect(updated.after.state_history.at(-1)?.reason.startsWith(`Retry 1 of 8 at ${updated.after.next_retry_at}: `)).toBe(true);
      expect((await paymentTimeline(m, hard)).map((entry) => entry.type)).toEqual([
        'payment_failed',
        'payment_method_updated',
        'retry_scheduled',
        'retry_scheduled',
      ]);
      expect(c.after).toMatchObject({ status: 'retrying', next_retry_at: at });
    });
  });

  it('keeps a consistent state under 50 parallel pause, resume and retry requests', async () => {
    // Prepare
    const m = merchant();
    const { payment } = await recordFailedPayment(failed(m));
    const kinds: PaymentEvent[] = [
      { type: 'pause', reason },
      { type: 'resume', reason },
      { type: 'schedule_retry', at: '2026-12-01T00:00:00.000Z', reason },
    ];
    // Act
    const outcomes = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => applyPaymentEvent(m, payment.id, kinds[i % 3] as PaymentEvent)));
    await drainTableStream();
    // Assess
    const final = await getPayment(m, payment.id);
    const succeeded = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o) => o.status === 'rejected');
    for (const o of refused) expect((o as PromiseRejectedResult).reason).toBeInstanceOf(StateConflictError);
    expect(final?.version).toBe(1 + succeeded.length);
    // Every accepted event leaves exactly one state_history entry (schedule_retry too, though the
    // status stays retrying) and one timeline entry, after the two of the recording (failed, planned).
    expect(final?.state_history).toHaveLength(2 + succeeded.length);
    expect(final?.status).toBe(final?.state_history.at(-1)?.status);
    expect((await paymentTimeline(m, payment)).length).toBe(2 + succeeded.length);
    const counters = await paymentCounters(m);
    expect(counters.all).toBe(1);
    expect(counters[`s:${final?.status}`]).toBe(1);
    const customer = await documentClient.send(
      new GetCommand({ TableName: process.env.TABLE_NAME, Key: customerKeys.customer(m, payment.customer_id.replace('cust_', '')) }),
    );
    expect(customer.Item?.open_payments).toBe(1);
  }, 120_000);

  it('lists with filters, aliases, ranges and totals from counters', async () => {
    // Prepare
    const m = merchant();
    const a = (await recordFailedPayment(failed(m), new Date('2026-10-01T00:00:00Z'))).payment;
    const b = (
      await recordFailedPayment(failed(m, { psp: 'adyen', declineCategory: 'hard_customer', declineSubcategory: 'expired' }), new Date('2026-10-02T00:00:00Z'))
    ).payment;
    const c = (await recordFailedPayment(failed(m), new Date('2026-10-03T00:00:00Z'))).payment;
    await applyPaymentEvent(m, c.id, { type: 'recover', reason });
    await applyPaymentEvent(m, a.id, { type: 'pause', reason });
    await drainTableStream();
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
