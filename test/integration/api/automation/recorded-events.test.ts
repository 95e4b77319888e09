/**
 * The outbound events recorded by the real routes and consumers (the outbox, read back through
 * GET /api/v1/automation/poll/{eventType}): payment.paused and payment.resumed (POST
 * /payments/{id}/pause and /resume, B's customer pause-all and resume-all), campaign.activated and
 * campaign.paused, dunning.sent (the notifications consumer, once the message is marked sent),
 * the recovery outcomes on paths other than a retry of ours (the provider reports the payment
 * paid, a cancelled subscription ends its recovery) and the retries scheduled (with the failure,
 * on resume, asked for through the API). Each change records its event once, with every name of
 * the fact and the object the catalogue samples; a refused change (409, 404 for another
 * merchant's id) records none. customer.deleted is tested with the erasure
 * (test/integration/api/customers/delete-customer.test.ts).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { catalogueEntry } from '#core/webhooks/events';
import { idBody } from '#core/ids';
import { documentClient } from '#data/client';
import { retryKeys } from '#data/keys';
import { getMessage } from '#data/message-repository';
import { getPayment } from '#data/payment-repository';
import { listOutboundEvents, type OutboundEvent } from '#data/outbound-event-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { seedPayment } from '#test/fixtures/payments';
import { expectOtherMerchantGets404, newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

jest.setTimeout(60_000);

/** An event as the poll answers it: the stored event typed with the name asked for. */
type Event = OutboundEvent & { readonly type: string };
interface Body {
  data: Record<string, unknown>;
  error?: { code: string; param?: string };
}

describe('outbound events recorded by state changes', () => {
  let stack: LocalStack;
  let tenant: Tenant;

  const post = (path: string, body?: unknown) =>
    call<Body>(`${stack.api_url}${path}`, { method: 'POST', key: tenant.key, ...(body === undefined ? {} : { body }) });
  const poll = async (type: string): Promise<Event[]> => {
    const response = await call<{ data: Event[] }>(`${stack.api_url}/automation/poll/${type}`, { key: tenant.key });
    expect(response.status).toBe(200);
    return response.body.data;
  };
  /** The merchant's events about one object (a payment, a campaign, a message), oldest first, with the payment.failed of each failure. */
  const allEventsAbout = async (field: string, id: string): Promise<OutboundEvent[]> =>
    (await listOutboundEvents(tenant.merchant.id, 1000)).filter((event) => event.data.object[field] === id);
  /** The same, but the payment.failed every failure records (its own tests are in webhooks/delivery.test.ts): what later changes added. */
  const eventsAbout = async (field: string, id: string): Promise<OutboundEvent[]> =>
    (await allEventsAbout(field, id)).filter((event) => !event.types.includes('payment.failed'));
  /** Leaves out the retries scheduled (with the failure, on resume): tests of other events look past them. */
  const changesOnly = (events: readonly OutboundEvent[]): OutboundEvent[] => events.filter((event) => !event.types.includes('recovery.retry_scheduled'));
  /** The stored item of an event: a customer's event carries the customer's data key (GSI2PK, erasure); the merchant's does not. */
  const storedItem = async (event: { id: string }) =>
    (
      await documentClient.send(
        new GetCommand({ TableName: process.env.TABLE_NAME, Key: retryKeys.outboundEvent(tenant.merchant.id, idBody(event.id, 'evt') as string) }),
      )
    ).Item;

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], UNLIMITED);
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  describe('payment.paused and payment.resumed', () => {
    it('records each once for POST /payments/{id}/pause and /resume, with the object of the change, filed under the customer', async () => {
      // Prepare
      const payment = await seedPayment(tenant.merchant.id);
      // Act
      const paused = await post(`/payments/${payment.id}/pause`);
      const resumed = await post(`/payments/${payment.recovery_id}/resume`);
      // Assess
      expect([paused.status, resumed.status]).toEqual([200, 200]);
      expect((await allEventsAbout('payment_id', payment.id)).filter((event) => event.types.includes('payment.failed'))).toHaveLength(1);
      const all = await eventsAbout('payment_id', payment.id);
      const events = changesOnly(all);
      expect(events.map((event) => event.types)).toEqual([['payment.paused'], ['payment.resumed']]);
      const [pausedEvent, resumedEvent] = events as [OutboundEvent, OutboundEvent];
      // The failure planned retry 1 and the resume planned it again, each with its recovery.retry_scheduled.
      expect(all.filter((event) => !events.includes(event)).map((event) => [event.types, event.data.object.scheduled_at])).toEqual([
        [['recovery.retry_scheduled'], payment.next_retry_at],
        [['recovery.retry_scheduled'], resumed.body.data.next_retry_at],
      ]);
      expect(pausedEvent.data.object).toEqual({
        payment_id: payment.id,
        recovery_id: payment.recovery_id,
        customer_id: payment.customer_id,
        status: 'paused',
        previous_status: 'retrying',
        paused_at: paused.body.data.paused_at,
        reason: 'Paused through the API',
      });
      expect(resumedEvent.data.object).toEqual({
        payment_id: payment.id,
        recovery_id: payment.recovery_id,
        customer_id: payment.customer_id,
        status: 'retrying',
        resumed_at: resumed.body.data.resumed_at,
        next_retry_at: resumed.body.data.next_retry_at,
        reason: 'Resumed through the API',
      });
      expect(resumedEvent.data.object.next_retry_at).toEqual(expect.any(String));
      expect(pausedEvent.created_at).toBe(paused.body.data.paused_at);
      expect(Object.keys(pausedEvent.data.object).sort()).toEqual(Object.keys(catalogueEntry('payment.paused')?.sampleObject() ?? {}).sort());
      expect(Object.keys(resumedEvent.data.object).sort()).toEqual(Object.keys(catalogueEntry('payment.resumed')?.sampleObject() ?? {}).sort());
      expect((await storedItem(pausedEvent))?.GSI2PK).toEqual(expect.stringContaining(payment.customer_id));
      const polled = await poll('payment.paused');
      expect(polled.filter((event) => event.data.object.payment_id === payment.id)).toEqual([
        expect.objectContaining({ id: pausedEvent.id, type: 'payment.paused', types: ['payment.paused'], merchant_id: tenant.merchant.id }),
      ]);
    });

    it('records none for a refused pause or resume (409) or another merchant (404)', async () => {
      // Prepare
      const payment = await seedPayment(tenant.merchant.id);
      const resumeActive = await post(`/payments/${payment.id}/resume`);
      await post(`/payments/${payment.id}/pause`);
      // Act
      const pauseAgain = await post(`/payments/${payment.id}/pause`);
      await expectOtherMerchantGets404(`${stack.api_url}/payments/${payment.id}/resume`, { method: 'POST' });
      // Assess
      expect([resumeActive.status, pauseAgain.status]).toEqual([409, 409]);
      expect(changesOnly(await eventsAbout('payment_id', payment.id)).map((event) => event.types)).toEqual([['payment.paused']]);
    });

    it("records one per payment changed by B's pause-all and resume-all, none for a payment it skips", async () => {
      // Prepare
      const customer = { email: `pause-all-${Math.random().toString(36).slice(2, 8)}@example.com` };
      const open = [await seedPayment(tenant.merchant.id, { customer }), await seedPayment(tenant.merchant.id, { customer })];
      const closed = await seedPayment(tenant.merchant.id, { customer, retryAllowed: false });
      const customerId = closed.customer_id;
      // Act
      const pausedAll = await post(`/customers/${customerId}/pause-all`);
      const pausedAgain = await post(`/customers/${customerId}/pause-all`);
      const resumedAll = await post(`/customers/${customerId}/resume-all`);
      await expectOtherMerchantGets404(`${stack.api_url}/customers/${customerId}/pause-all`, { method: 'POST' });
      // Assess
      expect([pausedAll.status, pausedAgain.status, resumedAll.status]).toEqual([200, 200, 200]);
      expect(pausedAgain.body.data.paused_count).toBe(0);
      for (const payment of open)
        expect(changesOnly(await eventsAbout('payment_id', payment.id)).map((event) => event.types)).toEqual([['payment.paused'], ['payment.resumed']]);
      expect((await eventsAbout('payment_id', closed.id)).map((event) => event.types)).toEqual([['payment.terminal', 'recovery.failed']]);
      expect(changesOnly(await eventsAbout('customer_id', customerId)).map((event) => event.data.object.reason)).toEqual([
        "Paused with all of the customer's payments",
        "Paused with all of the customer's payments",
        "Resumed with all of the customer's payments",
        "Resumed with all of the customer's payments",
      ]);
    });
  });

  describe('payment.recovered and payment.terminal on paths other than a retry of ours', () => {
    const ingest = (body: Record<string, unknown>) => post('/ingest/payment-event', { currency: 'usd', ...body });

    it('records payment.recovered once, with both names and no retry, when the provider reports the payment paid', async () => {
      // Prepare
      const customer = { email: 'paid-elsewhere@example.com' };
      const payment = await seedPayment(tenant.merchant.id, { customer, providerPaymentId: 'ch_paid_by_provider', amount: 2500 });
      const paid = { event_type: 'payment_succeeded', amount_cents: 2500, customer_email: customer.email };
      // Act
      const first = await ingest({ ...paid, metadata: { payment_id: 'ch_paid_by_provider', event_id: 'evt_paid_1' } });
      const again = await ingest({ ...paid, metadata: { payment_id: 'ch_paid_by_provider', event_id: 'evt_paid_2' } });
      // Assess
      expect([first.status, again.status]).toEqual([200, 200]);
      expect(first.body.data.affected_payment_ids).toEqual([payment.id]);
      expect(again.body.data.affected_payment_ids).toEqual([]);
      const events = changesOnly(await eventsAbout('payment_id', payment.id));
      expect(events.map((event) => event.types)).toEqual([['payment.recovered', 'recovery.succeeded']]);
      expect(events[0]?.data.object).toEqual({
        payment_id: payment.id,
        recovery_id: payment.recovery_id,
        retry_number: null,
        gateway: null,
        amount: 2500,
        currency: 'usd',
        provider_charge_id: null,
        recovery_method: 'provider',
      });
      expect(Object.keys(events[0]?.data.object ?? {}).sort()).toEqual(Object.keys(catalogueEntry('payment.recovered')?.sampleObject() ?? {}).sort());
      expect((await poll('recovery.succeeded')).filter((event) => event.data.object.payment_id === payment.id)).toEqual([
        expect.objectContaining({ type: 'recovery.succeeded', types: ['payment.recovered', 'recovery.succeeded'] }),
      ]);
    });

    it('records payment.terminal once when a cancelled subscription ends its open recovery, and none for a payment already ended', async () => {
      // Prepare
      const customer = { email: 'cancelled-sub@example.com' };
      const open = await seedPayment(tenant.merchant.id, { customer, subscriptionId: 'sub_cancelled' });
      const paused = await seedPayment(tenant.merchant.id, { customer, subscriptionId: 'sub_cancelled' });
      await post(`/payments/${paused.id}/pause`);
      const ended = await seedPayment(tenant.merchant.id, { customer, subscriptionId: 'sub_cancelled', retryAllowed: false });
      // Act
      const response = await ingest({
        event_type: 'subscription_cancelled',
        amount_cents: 0,
        customer_email: customer.email,
        metadata: { subscription_id: 'sub_cancelled', event_id: 'evt_sub_cancelled_1' },
      });
      // Assess
      expect(response.status).toBe(200);
      expect([...(response.body.data.affected_payment_ids as string[])].sort()).toEqual([open.id, paused.id].sort());
      for (const payment of [open, paused]) {
        const terminal = (await eventsAbout('payment_id', payment.id)).filter((event) => event.types.includes('payment.terminal'));
        expect(terminal.map((event) => [event.types, event.data.object])).toEqual([
          [
            ['payment.terminal', 'recovery.failed'],
            {
              payment_id: payment.id,
              recovery_id: payment.recovery_id,
              retry_number: null,
              gateway: null,
              reason: expect.stringMatching(/^Subscription cancelled \(event evt_/),
            },
          ],
        ]);
      }
      // Its own payment.terminal, recorded with the failure (a decline that forbids retries), and nothing more.
      expect((await eventsAbout('payment_id', ended.id)).map((event) => [event.types, event.data.object])).toEqual([
        [
          ['payment.terminal', 'recovery.failed'],
          { payment_id: ended.id, recovery_id: ended.recovery_id, retry_number: null, gateway: null, reason: ended.state_history.at(-1)?.reason },
        ],
      ]);
    });
  });

  describe('recovery.retry_scheduled', () => {
    it('records one when a retry is asked for through the API, and none when the request is refused (409)', async () => {
      // Prepare
      const payment = await seedPayment(tenant.merchant.id);
      // Act
      const asked = await post(`/payments/${payment.id}/retry`);
      const again = await post(`/payments/${payment.id}/retry`);
      // Assess
      expect([asked.status, again.status]).toEqual([202, 409]);
      const scheduled = (await eventsAbout('payment_id', payment.id)).filter((event) => event.types.includes('recovery.retry_scheduled'));
      const stored = await getPayment(tenant.merchant.id, payment.id);
      expect(scheduled.map((event) => event.data.object)).toEqual([
        { payment_id: payment.id, recovery_id: payment.recovery_id, retry_number: 1, gateway: null, scheduled_at: payment.next_retry_at },
        { payment_id: payment.id, recovery_id: payment.recovery_id, retry_number: 1, gateway: null, scheduled_at: stored?.next_retry_at },
      ]);
      expect((await poll('recovery.retry_scheduled')).filter((event) => event.data.object.payment_id === payment.id)).toHaveLength(2);
    });
  });

  describe('campaign.activated and campaign.paused', () => {
    const CAMPAIGN = { name: 'Soft declines', trigger: 'soft_decline', steps: [{ action: 'retry', delay_hours: 24 }] };

    it("records each once as the merchant's event, with the campaign's object, and none for refused or other merchants' actions", async () => {
      // Prepare
      const created = await post('/campaigns', CAMPAIGN);
      const id = created.body.data.id as string;
      // Act
      const activated = await post(`/campaigns/${id}/activate`);
      const activatedAgain = await post(`/campaigns/${id}/activate`);
      const paused = await post(`/campaigns/${id}/pause`);
      const pausedAgain = await post(`/campaigns/${id}/pause`);
      await expectOtherMerchantGets404(`${stack.api_url}/campaigns/${id}/activate`, { method: 'POST' });
      const archived = await post(`/campaigns/${id}/archive`);
      // Assess
      expect([created.status, activated.status, activatedAgain.status, paused.status, pausedAgain.status, archived.status]).toEqual([
        201, 200, 409, 200, 409, 200,
      ]);
      const events = await eventsAbout('campaign_id', id);
      expect(events.map((event) => event.types)).toEqual([['campaign.activated'], ['campaign.paused']]);
      const [activatedEvent, pausedEvent] = events as [OutboundEvent, OutboundEvent];
      const campaign = { campaign_id: id, name: 'Soft declines', trigger: activated.body.data.trigger };
      expect(activatedEvent.data.object).toEqual({ ...campaign, status: 'active', previous_status: 'draft', activated_at: activated.body.data.activated_at });
      expect(pausedEvent.data.object).toEqual({ ...campaign, status: 'paused', previous_status: 'active', paused_at: paused.body.data.paused_at });
      expect(Object.keys(activatedEvent.data.object).sort()).toEqual(Object.keys(catalogueEntry('campaign.activated')?.sampleObject() ?? {}).sort());
      expect(Object.keys(pausedEvent.data.object).sort()).toEqual(Object.keys(catalogueEntry('campaign.paused')?.sampleObject() ?? {}).sort());
      expect((await storedItem(activatedEvent))?.GSI2PK).toBeUndefined();
      expect((await poll('campaign.activated')).filter((event) => event.data.object.campaign_id === id)).toEqual([
        expect.objectContaining({ id: activatedEvent.id, type: 'campaign.activated', types: ['campaign.activated'] }),
      ]);
      expect((await poll('campaign.paused')).filter((event) => event.data.object.campaign_id === id)).toHaveLength(1);
    });

    it('records none when an unknown campaign id is activated or paused', async () => {
      // Prepare
      const before = (await listOutboundEvents(tenant.merchant.id, 1000)).length;
      // Act
      const activated = await post('/campaigns/camp_01JZZZZZZZZZZZZZZZZZZZZZZZ/activate');
      const paused = await post(`/campaigns/${'x'.repeat(10_000)}/pause`);
      // Assess
      expect(activated.status).toBe(404);
      expect([paused.status, paused.body.error?.code]).toEqual([404, 'resource_not_found']);
      expect(await listOutboundEvents(tenant.merchant.id, 1000)).toHaveLength(before);
    });
  });

  describe('dunning.sent', () => {
    it('records it once when the consumer marks the message sent, filed under the customer, with the message object', async () => {
      // Prepare
      const payment = await seedPayment(tenant.merchant.id, { customer: { email: 'dunned@example.com' } });
      // Act
      const queued = await post(`/recoveries/${payment.recovery_id}/dunning`);
      await stack.runtime.queues.drain();
      const cooldown = await post(`/recoveries/${payment.recovery_id}/dunning`);
      await stack.runtime.queues.drain();
      // Assess
      expect([queued.status, cooldown.status]).toEqual([202, 409]);
      const messageId = queued.body.data.message_id as string;
      const message = await getMessage(tenant.merchant.id, messageId);
      expect(message?.status).toBe('sent');
      const events = await eventsAbout('message_id', messageId);
      expect(events).toHaveLength(1);
      const [sent] = events as [OutboundEvent];
      expect(sent.types).toEqual(['dunning.sent']);
      expect(sent.data.object).toEqual({
        message_id: messageId,
        payment_id: payment.id,
        recovery_id: payment.recovery_id,
        customer_id: payment.customer_id,
        channel: 'email',
        purpose: 'dunning',
        step_index: null,
        template_id: null,
        sent_at: message?.sent_at,
      });
      expect(Object.keys(catalogueEntry('dunning.sent')?.sampleObject() ?? {})).toEqual(expect.arrayContaining(Object.keys(sent.data.object)));
      expect((await storedItem(sent))?.GSI2PK).toEqual(expect.stringContaining(payment.customer_id));
      expect((await poll('dunning.sent')).filter((event) => event.data.object.message_id === messageId)).toHaveLength(1);
      expect((await eventsAbout('payment_id', payment.id)).filter((event) => event.types.includes('dunning.sent'))).toHaveLength(1);
    });

    it('records none for a message the consumer cancels (the payment paused before the send) or a refused request (409)', async () => {
      // Prepare
      const payment = await seedPayment(tenant.merchant.id, { customer: { email: 'cancelled@example.com' } });
      const queued = await post(`/recoveries/${payment.recovery_id}/dunning`);
      await post(`/payments/${payment.id}/pause`);
      // Act
      await stack.runtime.queues.drain();
      const refused = await post(`/recoveries/${payment.recovery_id}/dunning`);
      // Assess
      expect([queued.status, refused.status]).toEqual([202, 409]);
      expect((await getMessage(tenant.merchant.id, queued.body.data.message_id as string))?.status).toBe('cancelled');
      expect(changesOnly(await eventsAbout('payment_id', payment.id)).map((event) => event.types)).toEqual([['payment.paused']]);
    });
  });
});
