/**
 * Recovery attribution (core/recovery-method.ts) through the real paths, on DynamoDB Local with the
 * local stack's queues: the retry executor's attempt (services/attempt-retry.ts), provider events
 * through ingest, a card update, and campaign messages sent by the hourly job and the
 * notifications consumer.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type CampaignFields, newCampaign } from '#core/campaigns/lifecycle';
import type { CampaignRecord } from '#core/campaigns/types';
import { customerBodyOf } from '#core/customers';
import type { IngestEvent } from '#core/ingest/ingest-event';
import type { PaymentRecord } from '#core/payments';
import { changeCampaignStatus, createCampaign } from '#data/campaign-repository';
import { documentClient } from '#data/client';
import { getEnrollment } from '#data/enrollment-repository';
import { createMerchant } from '#data/merchant-repository';
import { customerKeys } from '#data/keys';
import { getPayment } from '#data/payment-repository';
import { handler as hourly } from '#jobs/hourly';
import type { LocalStack } from '#lib/local/local-stack';
import { attemptRetry } from '#services/attempt-retry';
import { ingestPaymentEvent } from '#services/ingest-payment-event';
import { env } from '#shared/env';
import { startTestStack } from '#test/fixtures/local-stack';

jest.setTimeout(60_000);

let sequence = 0;
const unique = (prefix: string): string => `${prefix}${(sequence += 1)}${Math.random().toString(36).slice(2, 8)}`;
/** A merchant of its own (the message consumer renders with the merchant's record). */
const merchant = async (): Promise<string> => (await createMerchant({ name: unique('Attribution ') })).id;

interface Failure {
  readonly merchantId: string;
  readonly email: string;
  readonly providerPaymentId: string;
  readonly paymentId: string;
}

const event = (f: Pick<Failure, 'email' | 'providerPaymentId'>, type: IngestEvent['type'], overrides: Partial<IngestEvent> = {}): IngestEvent => ({
  type,
  amount: 2500,
  currency: 'usd',
  customerEmail: f.email,
  declineCode: type === 'payment_failed' ? 'insufficient_funds' : null,
  eventId: unique('evt_'),
  psp: 'stripe',
  providerPaymentId: f.providerPaymentId,
  metadata: {},
  ...overrides,
});

/** A failed payment ingested as a provider would report it (`declineCode` insufficient_funds unless told). */
async function failure(merchantId: string, declineCode = 'insufficient_funds'): Promise<Failure> {
  const f = { email: `${unique('buyer')}@example.com`, providerPaymentId: unique('pi_') };
  const result = await ingestPaymentEvent(merchantId, event(f, 'payment_failed', { declineCode }));
  return { ...f, merchantId, paymentId: result.payment_event_id as string };
}

const paid = (f: Failure) => ingestPaymentEvent(f.merchantId, event(f, 'payment_succeeded'));
const cardUpdated = (f: Failure) => ingestPaymentEvent(f.merchantId, event(f, 'payment_method_updated', { amount: 0, providerPaymentId: undefined }));
const current = async (f: Failure): Promise<PaymentRecord> => (await getPayment(f.merchantId, f.paymentId)) as PaymentRecord;

/** Runs the retry executor's attempt of the payment at its planned time. */
async function retryNow(f: Failure) {
  const payment = await current(f);
  return attemptRetry(f.merchantId, f.paymentId, payment.psp, { now: new Date(payment.next_retry_at as string) });
}

/** An active campaign whose first step, a message on `action`, goes out at once at any hour. */
async function activeCampaign(merchantId: string, action: 'email' | 'sms', stopOnCardUpdate = true): Promise<CampaignRecord> {
  const fields: CampaignFields = {
    name: `Reach out by ${action}`,
    trigger: 'payment_failed',
    filters: {},
    // A second step two days later keeps the enrollment active after the first message.
    steps: [
      { action, delay_hours: 0, template_id: action === 'email' ? 'tmpl_soft_decline_1' : 'tmpl_card_update_sms' },
      { action: 'email', delay_hours: 48, template_id: 'tmpl_soft_decline_2' },
    ],
    delay_hours: 0,
    start_hour: 0,
    end_hour: 23,
    stop_on_card_update: stopOnCardUpdate,
  };
  const draft = await createCampaign(newCampaign(merchantId, fields, new Date()));
  return changeCampaignStatus(merchantId, draft.id, 'activate');
}

describe('recovery attribution', () => {
  let stack: LocalStack;

  /** The hourly job at the enrollment's step time, then the notifications queue drained: the campaign's message is sent. */
  async function sendCampaignStep(f: Failure): Promise<void> {
    const enrollment = await getEnrollment(f.merchantId, f.paymentId);
    await hourly({
      schedule: 'hourly',
      scheduled_time: new Date(Math.ceil(Date.parse(enrollment?.next_step_at as string) / 1000) * 1000).toISOString().replace('.000Z', 'Z'),
      execution_id: unique('attr-'),
      attempt_number: 1,
      schedule_arn: 'arn:aws:scheduler:us-east-1:000000000000:schedule/default/hourly',
    });
    await stack.runtime.queues.drain();
  }

  beforeAll(async () => {
    stack = await startTestStack();
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  it('attributes a recovery to retry when our retry charged the card on file', async () => {
    // Prepare
    const f = await failure(await merchant(), 'processing_error');
    // Act
    const result = await retryNow(f);
    // Assess
    expect(result).toMatchObject({ kind: 'attempted', outcome: 'succeeded' });
    expect(await current(f)).toMatchObject({ status: 'recovered', recovery_method: 'retry', card_updated_at: null });
  });

  it('attributes a recovery to provider when the provider reports the payment paid', async () => {
    // Prepare
    const f = await failure(await merchant());
    const before = await current(f);
    // Act
    await paid(f);
    // Assess
    expect(before.recovery_method).toBeNull();
    expect(await current(f)).toMatchObject({ status: 'recovered', recovery_method: 'provider', retry_count: 0 });
  });

  it('attributes a recovery to card_update after the customer updated the card, whoever charged it', async () => {
    // Prepare
    const m = await merchant();
    const byRetry = await failure(m, 'expired_card');
    const byProvider = await failure(m, 'expired_card');
    // Act
    await cardUpdated(byRetry);
    await cardUpdated(byProvider);
    const retried = await retryNow(byRetry);
    await paid(byProvider);
    // Assess
    expect(retried).toMatchObject({ kind: 'attempted', outcome: 'succeeded' });
    expect(await current(byRetry)).toMatchObject({ status: 'recovered', recovery_method: 'card_update', card_updated_at: expect.any(String) });
    expect(await current(byProvider)).toMatchObject({ status: 'recovered', recovery_method: 'card_update' });
  });

  it('attributes a recovery to campaign_email once the campaign has emailed the payment, even when our retry finishes the job', async () => {
    // Prepare
    const m = await merchant();
    const campaign = await activeCampaign(m, 'email');
    const emailed = await failure(m, 'processing_error');
    await sendCampaignStep(emailed);
    const notYet = await failure(m, 'processing_error');
    // Act
    const byRetry = await retryNow(emailed);
    const beforeItsEmail = await retryNow(notYet);
    // Assess
    expect(byRetry).toMatchObject({ kind: 'attempted', outcome: 'succeeded' });
    expect(await current(emailed)).toMatchObject({ status: 'recovered', campaign_id: campaign.id, recovery_method: 'campaign_email' });
    // Enrolled, but nothing sent yet: the campaign had not reached the customer.
    expect(beforeItsEmail).toMatchObject({ kind: 'attempted', outcome: 'succeeded' });
    expect(await current(notYet)).toMatchObject({ status: 'recovered', campaign_id: campaign.id, recovery_method: 'retry' });
  });

  it('attributes a recovery to campaign_sms when the last campaign message was a text', async () => {
    // Prepare: the customer has a phone number on record (as a CRM sync would put there)
    const m = await merchant();
    await activeCampaign(m, 'sms');
    const f = await failure(m);
    const customerId = (await current(f)).customer_id;
    await documentClient.send(
      new UpdateCommand({
        TableName: env.TABLE_NAME,
        Key: customerKeys.customer(m, customerBodyOf(customerId) as string),
        UpdateExpression: 'SET phone = :phone',
        ExpressionAttributeValues: { ':phone': '+14155550123' },
      }),
    );
    // Act
    await sendCampaignStep(f);
    await paid(f);
    // Assess
    expect((await getEnrollment(m, f.paymentId))?.steps[0]).toMatchObject({ action: 'sms', outcome: 'message_queued' });
    expect(await current(f)).toMatchObject({ status: 'recovered', recovery_method: 'campaign_sms' });
  });

  it('gives the recovery to the card update once the card update stopped the campaign', async () => {
    // Prepare
    const m = await merchant();
    await activeCampaign(m, 'email', true);
    const f = await failure(m, 'expired_card');
    await sendCampaignStep(f);
    // Act
    await cardUpdated(f);
    await paid(f);
    // Assess
    expect(await getEnrollment(m, f.paymentId)).toMatchObject({ status: 'stopped', end_reason: 'card_updated' });
    expect(await current(f)).toMatchObject({ status: 'recovered', recovery_method: 'card_update' });
  });
});
