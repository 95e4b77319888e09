/**
 * DELETE /api/v1/customers/{id} over HTTP: GDPR erasure. A Scan of the whole table, before and
 * after, proves that nothing mentions the customer (its ids, email, name, provider id or any of
 * its payments' ids) afterwards but the `customer.deleted` event, whose object is the id alone:
 * its outbound events are gone and the webhooks' delivery log rows of those events name no
 * customer data; that another customer of the same merchant is untouched, that the
 * counters behind list totals moved with what was deleted, that a response stored under an
 * Idempotency-Key is not replayed after the erasure, and that the tombstone (hashes only) refuses
 * later events for the customer.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { sandboxGateway } from '#adapters/payment-gateways/sandbox';
import { deleteCustomerSchemas } from '#api/customers/schemas';
import { attemptIdempotencyKey } from '#core/payment-gateway';
import type { PaymentRecord } from '#core/payments';
import { documentClient } from '#data/client';
import { customerCounts, getCustomer } from '#data/customer-repository';
import { claimIdempotencyKey, completeIdempotencyKey, customersNamedIn } from '#data/idempotency-repository';
import { listOutboundEvents } from '#data/outbound-event-repository';
import { getPayment, paymentCounterNames, paymentCounters } from '#data/payment-repository';
import { readDeliveryLog, recordWebhookDelivery, type WebhookDeliveryRecord } from '#data/webhook-endpoint-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { moveThrough, seedCustomerPayment, UNLIMITED } from '#test/fixtures/customers';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { expectOtherMerchantGets404, newTenant, type Tenant } from '#test/fixtures/tenants';

type Item = Record<string, unknown>;

interface Body {
  data: { deleted: boolean; customer_id: string; records_deleted: number };
  error?: { code: string; param?: string };
}

/** Every item of the table (this file's own table), read with a Scan: tests may, request paths never do. */
async function scanTable(): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: Item | undefined;
  do {
    const page = await documentClient.send(new ScanCommand({ TableName: process.env.TABLE_NAME, ...(startKey ? { ExclusiveStartKey: startKey } : {}) }));
    items.push(...((page.Items ?? []) as Item[]));
    startKey = page.LastEvaluatedKey as Item | undefined;
  } while (startKey !== undefined);
  return items;
}

/** Items whose stored form mentions any of the texts, case-insensitively, keyed by PK and SK. */
async function itemsMentioning(...texts: string[]): Promise<Map<string, Item>> {
  const found = new Map<string, Item>();
  for (const item of await scanTable()) {
    const text = JSON.stringify(item).toLowerCase();
    if (texts.some((needle) => text.includes(needle.toLowerCase()))) found.set(`${item.PK as string} ${item.SK as string}`, item);
  }
  return found;
}

/**
 * An Idempotency-Key record whose stored response mentions `text`, filed as the pipeline files
 * every stored response (under the customers it names, found from its ids and emails).
 */
async function idempotencyRecordMentioning(merchantId: string, keyHash: string, text: string): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  const body = JSON.stringify({ data: { note: `about ${text}` } });
  await claimIdempotencyKey({ merchantId, keyHash, fingerprint: 'f', now, lockSeconds: 60, retentionSeconds: 86_400 });
  await completeIdempotencyKey(
    merchantId,
    keyHash,
    'f',
    { statusCode: 200, headers: {}, body },
    { customerIds: await customersNamedIn(merchantId, body), expiresAt: now + 86_400 },
  );
}

/** The one item erasure leaves that names the customer: the merchant's `customer.deleted` event, `{ customer_id }` only. */
const isDeletedEvent = (item: Item, customerId: string): boolean =>
  item.entity === 'outbound_event' &&
  JSON.stringify(item.types) === '["customer.deleted"]' &&
  JSON.stringify(item.data) === JSON.stringify({ object: { customer_id: customerId } }) &&
  item.GSI2PK === undefined;

/** The id body shared by a payment's `pe_` and `rec_` ids: what any item about the payment mentions. */
const bodyOfPayment = (id: string): string => id.replace(/^pe_/, '');

/** The payment counters a set of payments should leave: each counts once under each of its names. */
function expectedCounters(payments: readonly PaymentRecord[]): Record<string, number> {
  const counters: Record<string, number> = {};
  for (const payment of payments) for (const name of paymentCounterNames(payment)) counters[name] = (counters[name] ?? 0) + 1;
  return counters;
}
const nonZero = (counters: Readonly<Record<string, number>>) => Object.fromEntries(Object.entries(counters).filter(([, value]) => value !== 0));

describe('DELETE /api/v1/customers/{id}', () => {
  let stack: LocalStack;

  const erase = (tenant: Tenant, id: string, key = tenant.key) => call<Body>(`${stack.api_url}/customers/${encodeURIComponent(id)}`, { method: 'DELETE', key });

  beforeAll(async () => {
    stack = await startTestStack();
  });

  afterAll(async () => {
    await stack.stop();
  });

  describe('erasing a customer with payments in every state', () => {
    let tenant: Tenant;
    let victim: PaymentRecord[];
    let other: PaymentRecord[];
    /** Every payment id of the victim, the one recorded through ingest included. */
    let victimPaymentIds: string[];
    let ingested: { payment_event_id: string; recovery_id: string };
    const VICTIM = { email: 'Victim.Person+gdpr@Example.com', name: 'Victim Person', provider_customer_id: 'cus_VICTIM_7' };
    const VICTIM_EMAIL = 'victim.person+gdpr@example.com';
    let otherBefore: Map<string, Item>;
    let victimBefore: Map<string, Item>;
    let totalsBefore: { payments: number; customers: number };
    let response: Awaited<ReturnType<typeof erase>>;
    /** The delivery log's rows of the victim's outbound events, as the dispatcher logs each attempt. */
    let deliveries: WebhookDeliveryRecord[];

    const victimId = () => victim[0]?.customer_id as string;
    const otherId = () => other[0]?.customer_id as string;
    /** What any item about the victim mentions: its id, its email, or one of its payments' id bodies. */
    const victimNeedles = (): string[] => [victimId(), VICTIM_EMAIL, ...victimPaymentIds.map(bodyOfPayment)];
    /** A payment_failed of the victim, ingested over HTTP: its answer names the payment and recovery, not the customer. */
    const INGEST_BODY = {
      event_type: 'payment_failed',
      amount: 1500,
      currency: 'usd',
      customer_email: VICTIM.email,
      decline_code: 'insufficient_funds',
      metadata: { event_id: 'evt_victim_ingest_1' },
    };
    const ingest = (idempotencyKey: string, body: Record<string, unknown> = INGEST_BODY) =>
      call<{ data: { status: string; payment_event_id: string | null; recovery_id: string | null; affected_payment_ids: string[] } }>(
        `${stack.api_url}/ingest/payment-event`,
        {
          method: 'POST',
          key: tenant.key,
          body,
          headers: { 'Idempotency-Key': idempotencyKey },
        },
      );

    beforeAll(async () => {
      // Prepare
      tenant = await newTenant(['admin'], UNLIMITED);
      const m = tenant.merchant.id;
      victim = [
        await seedCustomerPayment(m, VICTIM, { subscriptionId: 'sub_victim', invoiceId: 'in_victim_1' }),
        await moveThrough(m, await seedCustomerPayment(m, VICTIM, { psp: 'adyen' }), ['retry', 'pause']),
        await moveThrough(
          m,
          await seedCustomerPayment(m, VICTIM, { declineCategory: 'hard_customer', declineSubcategory: 'expired', invoiceId: 'in_victim_2' }),
          ['recover'],
        ),
        await moveThrough(m, await seedCustomerPayment(m, VICTIM), ['terminate']),
      ];
      other = [
        await seedCustomerPayment(m, { email: 'other@example.com', name: 'Other Person' }, { subscriptionId: 'sub_other', invoiceId: 'in_other_1' }),
        await moveThrough(m, await seedCustomerPayment(m, { email: 'other@example.com' }), ['retry', 'recover']),
      ];
      // Responses kept for Idempotency-Keys: an ingested payment of the victim (its answer names
      // only the payment and recovery), a real pause-all of each customer, and stored answers
      // naming the victim's email.
      const ingestedFirst = await ingest('ingest-victim');
      expect(ingestedFirst.status).toBe(200);
      ingested = ingestedFirst.body.data as typeof ingested;
      const pausedVictim = await call(`${stack.api_url}/customers/${victimId()}/pause-all`, {
        method: 'POST',
        key: tenant.key,
        headers: { 'Idempotency-Key': 'pause-victim' },
      });
      const pausedOther = await call(`${stack.api_url}/customers/${otherId()}/pause-all`, {
        method: 'POST',
        key: tenant.key,
        headers: { 'Idempotency-Key': 'pause-other' },
      });
      expect([pausedVictim.status, pausedOther.status]).toEqual([200, 200]);
      await idempotencyRecordMentioning(m, 'a'.repeat(64), VICTIM_EMAIL);
      await idempotencyRecordMentioning(m, 'b'.repeat(64), 'other@example.com');
      // A dunning email to the victim, sent (message, outbox email, provider reference), and a
      // sandbox charge of one of its payments (the gateway's own record: payment id and amount).
      const resumed = await call(`${stack.api_url}/customers/${victimId()}/resume-all`, { method: 'POST', key: tenant.key });
      expect(resumed.status).toBe(200);
      const dunning = await call(`${stack.api_url}/recoveries/${ingested.recovery_id}/dunning`, { method: 'POST', key: tenant.key });
      expect(dunning.status).toBe(202);
      await stack.runtime.queues.drain();
      const charged = victim[1] as PaymentRecord;
      await sandboxGateway.charge(
        {
          merchantId: m,
          paymentId: charged.id,
          psp: charged.psp,
          providerPaymentId: charged.provider_payment_id,
          invoiceId: charged.invoice_id,
          amount: charged.amount,
          currency: charged.currency,
          declineCode: charged.decline_code,
          attemptNumber: 1,
          idempotencyKey: attemptIdempotencyKey(charged.id, 1),
        },
        undefined,
      );
      victim = (await Promise.all(victim.map((payment) => getPayment(m, payment.id)))) as PaymentRecord[];
      other = (await Promise.all(other.map((payment) => getPayment(m, payment.id)))) as PaymentRecord[];
      victimPaymentIds = [...victim.map((payment) => payment.id), ingested.payment_event_id];
      // The victim's outbound events (paused, resumed, dunning sent) delivered to an endpoint: one failed attempt each, logged.
      const victimEvents = (await listOutboundEvents(m, 1000)).filter((event) => event.data.object.customer_id === victimId());
      deliveries = [];
      for (const event of victimEvents)
        deliveries.push(
          await recordWebhookDelivery(
            {
              merchant_id: m,
              endpoint_id: 'we_01JD8Z0000000000000000ERAS',
              event_id: event.id,
              event_type: event.types[0] as string,
              attempt: 1,
              status: 'failed',
              status_code: 500,
              duration_ms: 42,
              error: 'HTTP 500',
              next_attempt_at: null,
            },
            new Date(),
          ),
        );
      expect(new Set(victimEvents.map((event) => event.types.join('+')))).toEqual(
        new Set(['payment.failed', 'payment.paused', 'payment.resumed', 'dunning.sent']),
      );

      // The stream's consumers first (counters, and the vectors of recovered and terminal payments), so the snapshots hold what they write.
      await stack.runtime.stream.drain();
      victimBefore = await itemsMentioning(...victimNeedles());
      otherBefore = await itemsMentioning(otherId(), 'other@example.com');
      const payments = await call<{ pagination: { total: number } }>(`${stack.api_url}/payments`, { key: tenant.key });
      const customers = await call<{ pagination: { total: number } }>(`${stack.api_url}/customers`, { key: tenant.key });
      totalsBefore = { payments: payments.body.pagination.total, customers: customers.body.pagination.total };
      // Act
      response = await erase(tenant, victimId());
    }, 60_000);

    it('answers A fields (B fields a subset) with the number of records erased', async () => {
      // Assess
      expect(response.status).toBe(200);
      expect(deleteCustomerSchemas.responses[200].safeParse(response.body).success).toBe(true);
      // Vectors go through the vector store (S3 Vectors on AWS, outside the table), not counted among the records.
      const vectors = [...victimBefore.values()].filter((item) => item.entity === 'recovery_vector').length;
      expect(vectors).toBeGreaterThan(0);
      expect(response.body.data).toEqual({ deleted: true, customer_id: victimId(), records_deleted: victimBefore.size - vectors });
      // The seed did leave the kinds of items erasure must find: customer, references, payments,
      // timelines, idempotency records, the ingest dedupe record, messages, outbox emails, message
      // references, update-payment links, the manual-dunning cooldown and sandbox charges.
      expect(new Set([...victimBefore.values()].map((item) => item.entity))).toEqual(
        new Set([
          'customer',
          'customer_ref',
          'payment',
          'payment_ref',
          'invoice_ref',
          'subscription_invoice',
          'timeline_entry',
          'idempotency_record',
          'ingest_event',
          'message',
          'outbox_email',
          'message_ref',
          // payment.failed, recorded with each payment for the outbound webhooks.
          'outbound_event',
          'sandbox_charge',
          'dunning_cooldown',
          'customer_search_term',
          // The update-payment link of each message (its token's hash), filed under the customer.
          'update_payment_token',
          // The vectors of the customer's recovered and terminal payments (auto-embedded).
          'recovery_vector',
        ]),
      );
    });

    it("leaves no item anywhere in the table that mentions the customer's id, email, name, provider id or payments, but the customer.deleted event", async () => {
      // Act
      const left = [...(await itemsMentioning(...victimNeedles(), VICTIM.name, VICTIM.provider_customer_id)).values()];
      // Assess
      expect(left).toHaveLength(1);
      expect(isDeletedEvent(left[0] as Item, victimId())).toBe(true);
    });

    it("keeps the delivery log's rows of the customer's events, which name no customer data: the events they point at are gone", async () => {
      // Act
      const log = await readDeliveryLog(tenant.merchant.id, { endpoint_id: 'we_01JD8Z0000000000000000ERAS' }, 200, undefined);
      const outbox = await listOutboundEvents(tenant.merchant.id, 1000);
      // Assess
      expect(deliveries.length).toBeGreaterThanOrEqual(3);
      expect(log.deliveries.map((row) => row.id).sort()).toEqual(deliveries.map((row) => row.id).sort());
      for (const row of log.deliveries) for (const needle of victimNeedles()) expect(JSON.stringify(row)).not.toContain(needle);
      expect(outbox.filter((event) => deliveries.some((row) => row.event_id === event.id))).toEqual([]);
    });

    it("records customer.deleted once, as the merchant's event, in the poll under its one name", async () => {
      // Act
      const polled = await call<{ data: Array<{ type: string; data: { object: Record<string, unknown> } }> }>(
        `${stack.api_url}/automation/poll/customer.deleted`,
        { key: tenant.key },
      );
      // Assess
      expect(polled.status).toBe(200);
      expect(polled.body.data).toEqual([
        expect.objectContaining({
          type: 'customer.deleted',
          types: ['customer.deleted'],
          merchant_id: tenant.merchant.id,
          data: { object: { customer_id: victimId() } },
        }),
      ]);
    });

    it('replays no erased data for an Idempotency-Key sent before the erasure: the request runs again and is refused', async () => {
      // Act
      const replayedIngest = await ingest('ingest-victim');
      const replayedPause = await call(`${stack.api_url}/customers/${victimId()}/pause-all`, {
        method: 'POST',
        key: tenant.key,
        headers: { 'Idempotency-Key': 'pause-victim' },
      });
      const replayedOther = await call(`${stack.api_url}/customers/${otherId()}/pause-all`, {
        method: 'POST',
        key: tenant.key,
        headers: { 'Idempotency-Key': 'pause-other' },
      });
      // Assess
      expect(replayedIngest.status).toBe(200);
      expect(replayedIngest.headers.get('idempotent-replayed')).toBeNull();
      expect(replayedIngest.body.data).toMatchObject({ status: 'refused', payment_event_id: null, recovery_id: null, affected_payment_ids: [] });
      expect(replayedPause.status).toBe(404);
      expect(replayedPause.headers.get('idempotent-replayed')).toBeNull();
      // The 404 echoes the id the caller put in the path, and nothing else of the customer.
      expect(replayedPause.body).toMatchObject({ error: { code: 'resource_not_found', message: `No customer ${victimId()}.` } });
      for (const needle of [...victimNeedles(), VICTIM.name, VICTIM.provider_customer_id]) {
        expect(replayedIngest.text).not.toContain(needle);
        if (needle !== victimId()) expect(replayedPause.text).not.toContain(needle);
      }
      // Another customer's stored answer is still replayed.
      expect(replayedOther.headers.get('idempotent-replayed')).toBe('true');
      // Only the new answer to the replayed pause-all (that 404) names the id, as its path did (and the customer.deleted event).
      const left = [...(await itemsMentioning(...victimNeedles(), VICTIM.name, VICTIM.provider_customer_id)).values()].filter(
        (item) => !isDeletedEvent(item, victimId()),
      );
      expect(left.map((item) => [item.entity, (item.response as { statusCode: number } | undefined)?.statusCode])).toEqual([['idempotency_record', 404]]);
    });

    it('keeps a tombstone of hashes only, which refuses later events for the email or the provider customer id', async () => {
      // Act
      const sameEmail = await ingest('late-email', { ...INGEST_BODY, metadata: { event_id: 'evt_victim_late_2' } });
      const sameProviderId = await ingest('late-provider-id', {
        ...INGEST_BODY,
        customer_email: 'new.address@example.com',
        metadata: { event_id: 'evt_victim_late_3', provider_customer_id: VICTIM.provider_customer_id },
      });
      await stack.runtime.stream.drain();
      // Assess
      expect([sameEmail.body.data.status, sameProviderId.body.data.status]).toEqual(['refused', 'refused']);
      expect(await itemsMentioning('new.address@example.com', VICTIM_EMAIL, VICTIM.provider_customer_id, ...victimPaymentIds.map(bodyOfPayment))).toEqual(
        new Map(),
      );
      const tombstones = (await scanTable()).filter((item) => item.entity === 'erasure_tombstone' && item.PK === `M#${tenant.merchant.id}`);
      expect(tombstones.map((item) => item.kind).sort()).toEqual(['email', 'provider_customer_id']);
      for (const tombstone of tombstones) {
        expect(Object.keys(tombstone).sort()).toEqual(['PK', 'SK', 'entity', 'erased_at', 'kind', 'last_refused_at', 'refused_count'].sort());
        expect(tombstone.SK).toMatch(/^ERASED#[0-9a-f]{64}$/);
      }
      // The replay above and these two: one refusal by email each for the first two, one by provider id.
      expect(Object.fromEntries(tombstones.map((item) => [item.kind, item.refused_count]))).toEqual({ email: 2, provider_customer_id: 1 });
      expect(await customerCounts(tenant.merchant.id)).toEqual({ all: 1, has_failed: 1 });
    });

    it('leaves every item of another customer of the same merchant exactly as it was', async () => {
      // Assess
      expect(otherBefore.size).toBeGreaterThan(8);
      expect(await itemsMentioning(otherId(), 'other@example.com')).toEqual(otherBefore);
      expect(await getCustomer(tenant.merchant.id, otherId())).toMatchObject({ total_payments: 2, open_payments: 1 });
    });

    it('takes the erased payments and customer out of the counters behind list totals', async () => {
      await stack.runtime.stream.drain();
      // Act
      const payments = await call<{ data: Array<{ id: string }>; pagination: { total: number } }>(`${stack.api_url}/payments`, { key: tenant.key });
      const customers = await call<{ data: Array<{ id: string }>; pagination: { total: number } }>(`${stack.api_url}/customers`, { key: tenant.key });
      const openCustomers = await call<{ pagination: { total: number } }>(`${stack.api_url}/customers?has_failed_payment=true`, { key: tenant.key });
      // Assess
      expect(totalsBefore).toEqual({ payments: 7, customers: 2 });
      expect(payments.body.pagination.total).toBe(2);
      expect(payments.body.data.map((payment) => payment.id).sort()).toEqual(other.map((payment) => payment.id).sort());
      expect(customers.body.pagination.total).toBe(1);
      expect(customers.body.data.map((customer) => customer.id)).toEqual([otherId()]);
      expect(openCustomers.body.pagination.total).toBe(1);
      expect(await customerCounts(tenant.merchant.id)).toEqual({ all: 1, has_failed: 1 });
      expect(nonZero(await paymentCounters(tenant.merchant.id))).toEqual(expectedCounters(other));
    });

    it('answers 404 to a second DELETE and to every read of the erased customer', async () => {
      // Act
      const again = await erase(tenant, victimId());
      const reads = await Promise.all(
        [
          `/customers/${victimId()}`,
          `/customers/${VICTIM.provider_customer_id}`,
          `/customers/by-email/${encodeURIComponent(VICTIM_EMAIL)}`,
          `/customers/${victimId()}/payments`,
          `/payments/${victim[0]?.id}`,
          `/payments/${victim[0]?.provider_payment_id}`,
        ].map((path) => call(`${stack.api_url}${path}`, { key: tenant.key })),
      );
      // Assess
      expect(again.status).toBe(404);
      expect(again.body.error?.code).toBe('resource_not_found');
      expect((await listOutboundEvents(tenant.merchant.id, 1000)).filter((event) => event.types.includes('customer.deleted'))).toHaveLength(1);
      expect(reads.map((read) => read.status)).toEqual([404, 404, 404, 404, 404, 404]);
    });
  });

  it('erases a customer with more items than one Query page and many write batches', async () => {
    // Prepare
    const tenant = await newTenant(['admin'], UNLIMITED);
    const m = tenant.merchant.id;
    const who = { email: 'prolific@example.com', provider_customer_id: 'cus_PROLIFIC' };
    for (let i = 0; i < 45; i += 1)
      await moveThrough(m, await seedCustomerPayment(m, who, { invoiceId: `in_prolific_${i}` }), i % 2 === 0 ? ['pause'] : ['retry']);
    const customerId = (await call<{ data: { id: string } }>(`${stack.api_url}/customers/cus_PROLIFIC`, { key: tenant.key })).body.data.id;
    const before = await itemsMentioning(customerId, who.email);
    // Act
    const response = await erase(tenant, 'cus_PROLIFIC');
    await stack.runtime.stream.drain();
    // Assess
    expect(before.size).toBeGreaterThan(200);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ deleted: true, customer_id: customerId, records_deleted: before.size });
    expect([...(await itemsMentioning(customerId, who.email)).values()].filter((item) => !isDeletedEvent(item, customerId))).toEqual([]);
    expect(await customerCounts(m)).toEqual({ all: 0, has_failed: 0 });
    expect(nonZero(await paymentCounters(m))).toEqual({});
  }, 180_000);

  it("answers 404 to another merchant and leaves the customer's data in place", async () => {
    // Prepare
    const tenant = await newTenant(['admin'], UNLIMITED);
    const payment = await seedCustomerPayment(tenant.merchant.id, { email: 'kept@example.com' });
    const before = await itemsMentioning(payment.customer_id);
    // Act
    await expectOtherMerchantGets404(`${stack.api_url}/customers/${payment.customer_id}`, { method: 'DELETE' });
    // Assess
    expect(await itemsMentioning(payment.customer_id)).toEqual(before);
    expect((await listOutboundEvents(tenant.merchant.id, 1000)).filter((event) => event.types.includes('customer.deleted'))).toEqual([]);
  });

  it('answers 404 for an unknown customer id or provider id', async () => {
    // Prepare
    const tenant = await newTenant(['admin'], UNLIMITED);
    // Act
    const unknown = await erase(tenant, 'cust_01JZZZZZZZZZZZZZZZZZZZZZZZ');
    const unknownRef = await erase(tenant, 'cus_nobody');
    // Assess
    expect([unknown.status, unknownRef.status]).toEqual([404, 404]);
    expect(unknown.body.error?.code).toBe('resource_not_found');
  });

  it('answers an id over 255 characters with 404 resource_not_found naming id, as no such id can exist', async () => {
    // Prepare
    const tenant = await newTenant(['admin'], UNLIMITED);
    // Act
    const response = await erase(tenant, 'x'.repeat(256));
    // Assess
    expect(response.status).toBe(404);
    expect(response.body.error).toMatchObject({ code: 'resource_not_found', param: 'id' });
  });
});
