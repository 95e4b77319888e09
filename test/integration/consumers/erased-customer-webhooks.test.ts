/**
 * A provider's late re-delivery of an event for a customer erased since (DELETE /customers/{id})
 * over real HTTP, DynamoDB Local and the inbound-webhooks consumer (driven by `drain()`): the
 * tombstone refuses it. No customer, payment, retry or dead letter comes of it, the stored
 * delivery (which names the customer) is deleted, and the refusal is counted on the tombstone.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '#data/client';
import { recordFailedPayment } from '#data/payment-repository';
import { setProviderSecret } from '#data/provider-secret-repository';
import { getWebhookLog } from '#data/webhook-log-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { originOf, startTestStack } from '#test/fixtures/local-stack';
import { failedPaymentInput } from '#test/fixtures/payments';
import { type Delivery, type ProviderCase, providerCases } from '#test/fixtures/provider-webhooks';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

type Item = Record<string, unknown>;

interface Payment {
  id: string;
  customer_id: string;
  provider_payment_id: string | null;
}

describe('a late provider re-delivery for an erased customer', () => {
  let stack: LocalStack;

  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const post = (path: string, delivery: Delivery) =>
    call<{ data: { id: string } }>(`${originOf(stack)}${path}`, { method: 'POST', rawBody: delivery.body, headers: delivery.headers });
  const publicUrl = (path: string): string => `https://${new URL(originOf(stack)).host}${path}`;
  const paymentsOf = async (tenant: Tenant): Promise<Payment[]> =>
    (await call<{ data: Payment[] }>(`${stack.api_url}/payments?per_page=100`, { key: tenant.key })).body.data;
  const customerTotal = async (tenant: Tenant): Promise<number> =>
    (await call<{ pagination: { total: number } }>(`${stack.api_url}/customers`, { key: tenant.key })).body.pagination.total;

  async function merchantItems(merchantId: string): Promise<Item[]> {
    const items: Item[] = [];
    let startKey: Item | undefined;
    do {
      const page = await documentClient.send(
        new ScanCommand({
          TableName: process.env.TABLE_NAME,
          FilterExpression: 'PK = :pk',
          ExpressionAttributeValues: { ':pk': `M#${merchantId}` },
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      );
      items.push(...((page.Items ?? []) as Item[]));
      startKey = page.LastEvaluatedKey as Item | undefined;
    } while (startKey !== undefined);
    return items;
  }

  /**
   * Delivers the provider's failed payment, drains, erases its customer, then delivers the same
   * event again (the intake stores one payload per provider event, so the replay is answered with
   * the first delivery's id and stores nothing) and a later event about the same failure (new
   * event id: it reaches the consumer, which must refuse it), and drains.
   */
  async function eraseThenRedeliver(c: ProviderCase, prepare: (tenant: Tenant) => Promise<void> = async () => undefined) {
    const tenant = await newTenant(['admin'], UNLIMITED);
    await setProviderSecret(tenant.merchant.id, c.psp, c.secret);
    await prepare(tenant);
    const path = c.path(tenant.merchant.id);
    await post(path, c.failed(publicUrl(path)));
    await stack.runtime.queues.drain();
    const recorded = (await paymentsOf(tenant)).find((payment) => payment.provider_payment_id === c.expected.providerPaymentId) as Payment;
    const erased = await call(`${stack.api_url}/customers/${recorded.customer_id}`, { method: 'DELETE', key: tenant.key });
    const replay = await post(path, c.failed(publicUrl(path)));
    const again = await post(path, (c.laterEvent as NonNullable<ProviderCase['laterEvent']>)(publicUrl(path)));
    const drained = await stack.runtime.queues.drain();
    return { tenant, recorded, erased, replay, again, drained };
  }

  it('refuses a later Stripe event that carries the email: nothing recorded, no dead letter, the stored delivery deleted, the refusal counted', async () => {
    // Prepare
    const stripe = providerCases.find((c) => c.psp === 'stripe') as ProviderCase;
    // Act
    const { tenant, recorded, erased, replay, again, drained } = await eraseThenRedeliver(stripe);
    // Assess
    expect(recorded.customer_id).toMatch(/^cust_/);
    expect(erased.status).toBe(200);
    expect([replay.status, again.status]).toEqual([200, 200]);
    expect(await getWebhookLog(tenant.merchant.id, replay.body.data.id)).toBeUndefined();
    expect(drained).toMatchObject({ failed: 0 });
    expect(stack.runtime.queues.deadLetters('inbound-webhooks').filter((letter) => letter.body.includes(tenant.merchant.id))).toEqual([]);
    expect(await paymentsOf(tenant)).toEqual([]);
    expect(await customerTotal(tenant)).toBe(0);
    expect(await getWebhookLog(tenant.merchant.id, again.body.data.id)).toBeUndefined();
    const items = await merchantItems(tenant.merchant.id);
    // The erasure's customer.deleted event (the merchant's, `{ customer_id }` only) is the one item naming the id.
    const deleted = items.filter((item) => item.entity === 'outbound_event' && JSON.stringify(item.types) === '["customer.deleted"]');
    expect(deleted.map((item) => item.data)).toEqual([{ object: { customer_id: recorded.customer_id } }]);
    const text = JSON.stringify(items.filter((item) => !deleted.includes(item)));
    for (const needle of [
      'jenny.rosen@example.com',
      'Jenny Rosen',
      'cus_QWxv3kqYz8N1rT',
      'pi_3PfXh2LkdIwHu7ix0xHbW2Kq',
      recorded.customer_id,
      recorded.id.replace(/^pe_/, ''),
    ])
      expect(text).not.toContain(needle);
    const tombstones = items.filter((item) => item.entity === 'erasure_tombstone');
    expect(tombstones.map((item) => item.kind).sort()).toEqual(['email', 'provider_customer_id']);
    expect(tombstones.find((item) => item.kind === 'email')?.refused_count).toBe(1);
  });

  it('refuses a later Paddle event that names only the provider customer id, before any lookup: no dead letter, nothing recorded', async () => {
    // Prepare: Paddle sends no email; the customer is known from an earlier event with its provider customer id.
    const paddle = providerCases.find((c) => c.psp === 'paddle') as ProviderCase;
    const known = (tenant: Tenant) =>
      recordFailedPayment(
        failedPaymentInput(tenant.merchant.id, {
          customer: { email: 'known-paddle@example.com', name: null, provider_customer_id: paddle.expected.providerCustomerId ?? null },
          psp: 'paddle',
          providerPaymentId: 'earlier-paddle',
        }),
      ).then(() => undefined);
    // Act
    const { tenant, erased, replay, again, drained } = await eraseThenRedeliver(paddle, known);
    // Assess
    expect(erased.status).toBe(200);
    expect([replay.status, again.status]).toEqual([200, 200]);
    expect(drained).toMatchObject({ failed: 0 });
    expect(stack.runtime.queues.deadLetters('inbound-webhooks').filter((letter) => letter.body.includes(tenant.merchant.id))).toEqual([]);
    expect(await paymentsOf(tenant)).toEqual([]);
    expect(await customerTotal(tenant)).toBe(0);
    expect(await getWebhookLog(tenant.merchant.id, again.body.data.id)).toBeUndefined();
    const tombstones = (await merchantItems(tenant.merchant.id)).filter((item) => item.entity === 'erasure_tombstone');
    expect(tombstones.find((item) => item.kind === 'provider_customer_id')?.refused_count).toBe(1);
  });
});
