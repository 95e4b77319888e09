/**
 * ingestPaymentEvent called without HTTP (as provider webhooks will call it), against DynamoDB
 * Local: the dedupe claim's waiting, lease and release behaviour, which HTTP tests cannot stage.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import { StateConflictError } from '#core/errors';
import { dedupeKeyOf, type IngestEvent } from '#core/ingest/ingest-event';
import { documentClient } from '#data/client';
import { getCustomerByEmail } from '#data/customer-repository';
import { claimIngestEvent, completeIngestEvent } from '#data/ingest-events';
import { ingestPaymentEvent } from '#services/ingest-payment-event';
import { ingestKeys } from '#data/keys';
import { getPayment } from '#data/payment-repository';

const merchant = (): string => `merch_test${Math.random().toString(36).slice(2, 10)}`;
const failedEvent = (overrides: Partial<IngestEvent> = {}): IngestEvent => ({
  type: 'payment_failed',
  amount: 4999,
  currency: 'usd',
  customerEmail: `buyer${Math.random().toString(36).slice(2, 8)}@example.com`,
  declineCode: 'insufficient_funds',
  psp: 'stripe',
  eventId: `evt_sender_${Math.random().toString(36).slice(2, 10)}`,
  metadata: {},
  ...overrides,
});
const keyOf = (event: IngestEvent): string => dedupeKeyOf(event) as string;

async function expireLease(merchantId: string, event: IngestEvent): Promise<void> {
  const hash = createHash('sha256').update(keyOf(event)).digest('hex');
  await documentClient.send(
    new UpdateCommand({
      TableName: process.env.TABLE_NAME as string,
      Key: ingestKeys.event(merchantId, hash),
      UpdateExpression: 'SET lease_until = :past',
      ExpressionAttributeValues: { ':past': 0 },
    }),
  );
}

describe('ingestPaymentEvent', () => {
  it('records a payment and tags its dedupe record for the customer when called without HTTP', async () => {
    // Prepare
    const m = merchant();
    const event = failedEvent({ providerPaymentId: 'ch_direct' });
    // Act
    const result = await ingestPaymentEvent(m, event, new Date('2026-03-01T10:00:00Z'));
    // Assess
    expect(result).toMatchObject({ status: 'processed', recovery_initiated: true });
    const payment = await getPayment(m, result.payment_event_id as string);
    expect(payment).toMatchObject({ provider_payment_id: 'ch_direct', psp: 'stripe', created_at: '2026-03-01T10:00:00.000Z' });
    expect(await claimIngestEvent(m, keyOf(event), 'evt_other', new Date())).toEqual({ state: 'done', result });
  });

  it('waits for a delivery in progress and answers duplicate with its result when it completes', async () => {
    // Prepare
    const m = merchant();
    const event = failedEvent();
    const claim = await claimIngestEvent(m, keyOf(event), 'evt_first', new Date());
    if (claim.state !== 'claimed') throw new Error('the first claim must succeed');
    const stored = {
      event_id: 'evt_first',
      event_type: 'payment_failed',
      status: 'processed',
      recovery_initiated: true,
      payment_event_id: null,
      recovery_id: null,
      affected_payment_ids: [],
    } as const;
    // Act
    const second = ingestPaymentEvent(m, event);
    await new Promise((done) => setTimeout(done, 300));
    await completeIngestEvent(m, keyOf(event), claim.token, stored, undefined);
    // Assess
    expect(await second).toEqual({ ...stored, status: 'duplicate' });
    expect(await getCustomerByEmail(m, event.customerEmail)).toBeUndefined();
  });

  it('answers 409 state_conflict when the delivery in progress does not finish within 5 s', async () => {
    // Prepare
    const m = merchant();
    const event = failedEvent();
    await claimIngestEvent(m, keyOf(event), 'evt_first', new Date());
    // Act
    const outcome = ingestPaymentEvent(m, event);
    // Assess
    await expect(outcome).rejects.toBeInstanceOf(StateConflictError);
    expect(await getCustomerByEmail(m, event.customerEmail)).toBeUndefined();
  }, 15_000);

  it('takes over and processes the event when the delivery in progress died and its lease ran out', async () => {
    // Prepare
    const m = merchant();
    const event = failedEvent();
    await claimIngestEvent(m, keyOf(event), 'evt_dead', new Date());
    await expireLease(m, event);
    // Act
    const result = await ingestPaymentEvent(m, event);
    // Assess
    expect(result).toMatchObject({ status: 'processed', recovery_initiated: true });
    expect(await getCustomerByEmail(m, event.customerEmail)).toMatchObject({ failed_payments: 1 });
  });

  it('releases its claim when processing fails, so a redelivery processes the event', async () => {
    // Prepare: metadata past DynamoDB's 400 KB item limit makes the payment write fail for real
    // (the HTTP schema caps metadata at 16 KB; direct callers such as webhooks are not capped).
    const m = merchant();
    const oversized = failedEvent({ eventId: 'evt_oversized', metadata: { note: 'x'.repeat(420 * 1024) } });
    await expect(ingestPaymentEvent(m, oversized)).rejects.toThrow();
    // Act
    const claim = await claimIngestEvent(m, keyOf(oversized), 'evt_retry', new Date());
    // Assess
    expect(claim.state).toBe('claimed');
  }, 30_000);
});
