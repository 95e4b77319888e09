import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { listOutboxEmails } from '#adapters/email/outbox';
import { handler } from '#consumers/notifications';
import { documentClient } from '#data/client';
import { customerKeys, messageKeys } from '#data/keys';
import { claimMessage, createDunningMessage, getMessage, getMessageByProviderId } from '#data/message-repository';
import { paymentTimeline } from '#data/payment-queries';
import { suppressEmail } from '#data/suppression-repository';
import { clearQuietHoursCache, putQuietHours } from '#data/settings-repository';
import { findDueMessages } from '#data/message-repository';
import { createMerchant } from '#data/merchant-repository';
import { seedPaymentThrough } from '#test/fixtures/payments';
import { sqsEventOf } from '#test/fixtures/recoveries';

describe('the dunning_email processor of the notifications consumer', () => {
  const recordOf = (merchantId: string, messageId: string) => ({ kind: 'dunning_email', merchant_id: merchantId, message_id: messageId });

  it('fails the record, for the DLQ, when the message lacks its ids', async () => {
    // Act
    const result = await handler(sqsEventOf({ kind: 'dunning_email', merchant_id: 'merch_x' }, 'bad-1'));
    // Assess
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'bad-1' }]);
  });

  it('acknowledges and sends nothing when the message no longer exists', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Gone Ltd' });
    // Act
    const result = await handler(sqsEventOf(recordOf(merchant.id, 'msg_01J0000000000000000000000Z')));
    // Assess
    expect(result.batchItemFailures).toEqual([]);
    expect(await listOutboxEmails(merchant.id)).toEqual([]);
  });

  it('fails the record for redelivery when another consumer holds a fresh claim, and sends once after the claim goes stale', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Busy Co' });
    const payment = await seedPaymentThrough(merchant.id, []);
    const message = await createDunningMessage(payment, { templateId: null, subject: null });
    await claimMessage(merchant.id, message.id, new Date(), 60_000);
    // Act
    const whileHeld = await handler(sqsEventOf(recordOf(merchant.id, message.id), 'held'));
    const emailsWhileHeld = await listOutboxEmails(merchant.id);
    const stale = await createDunningMessage(payment, { templateId: null, subject: null });
    await claimMessage(merchant.id, stale.id, new Date(Date.now() - 120_000), 60_000);
    const afterStale = await handler(sqsEventOf(recordOf(merchant.id, stale.id), 'stale'));
    // Assess
    expect(whileHeld.batchItemFailures).toEqual([{ itemIdentifier: 'held' }]);
    expect(emailsWhileHeld).toEqual([]);
    expect(afterStale.batchItemFailures).toEqual([]);
    expect(await getMessage(merchant.id, stale.id)).toMatchObject({ status: 'sent' });
    expect((await listOutboxEmails(merchant.id)).map((email) => email.message_id)).toEqual([stale.id]);
  });

  it("files the message and its outbox email among the customer's data, so erasure finds them", async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Erase Inc' });
    const payment = await seedPaymentThrough(merchant.id, []);
    const message = await createDunningMessage(payment, { templateId: null, subject: null });
    // Act
    await handler(sqsEventOf(recordOf(merchant.id, message.id)));
    const { Items } = await documentClient.send(
      new QueryCommand({
        TableName: process.env.TABLE_NAME as string,
        IndexName: 'GSI2',
        KeyConditionExpression: 'GSI2PK = :pk',
        ExpressionAttributeValues: { ':pk': customerKeys.data(merchant.id, payment.customer_id) },
      }),
    );
    // Assess
    const entities = (Items ?? []).map((item) => item.entity as string);
    expect(entities).toEqual(expect.arrayContaining(['message', 'outbox_email']));
    expect((Items ?? []).filter((item) => item.entity === 'timeline_entry' && item.type === 'dunning_sent')).toHaveLength(1);
  });

  it('marks the message suppressed and sends nothing when the recipient is on the suppression list', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Bounced Co' });
    const payment = await seedPaymentThrough(merchant.id, [], { customer: { email: 'Gone@Example.com', name: 'Gone Away' } });
    const message = await createDunningMessage(payment, { templateId: null, subject: null });
    await suppressEmail({
      merchant_id: merchant.id,
      email: 'gone@example.com',
      customer_id: payment.customer_id,
      reason: 'hard_bounce',
      source_message_id: 'msg_01J0000000000000000000000A',
    });
    // Act
    const result = await handler(sqsEventOf(recordOf(merchant.id, message.id)));
    // Assess
    expect(result.batchItemFailures).toEqual([]);
    expect(await getMessage(merchant.id, message.id)).toMatchObject({
      status: 'suppressed',
      status_reason: expect.stringContaining('hard_bounce'),
      provider_message_id: null,
    });
    expect(await listOutboxEmails(merchant.id)).toEqual([]);
    expect((await paymentTimeline(merchant.id, payment)).filter((entry) => entry.type === 'dunning_sent')).toHaveLength(0);
  });

  it('defers a message that reaches the consumer inside quiet hours set after it was queued to their end, and sends nothing now', async () => {
    // Prepare: queued outside quiet hours; the merchant then makes every hour but the next one quiet.
    const merchant = await createMerchant({ name: 'Night Owl Co' });
    const payment = await seedPaymentThrough(merchant.id, [], { customer: { email: 'owl@example.com', name: 'Owl' } });
    const message = await createDunningMessage(payment, { templateId: null, subject: null });
    expect(message.status).toBe('queued');
    const now = new Date();
    const nextHour = (now.getUTCHours() + 1) % 24;
    await putQuietHours(merchant.id, { startHour: (now.getUTCHours() + 2) % 24, endHour: nextHour, timezone: 'UTC', enabled: true });
    clearQuietHoursCache();
    // Act
    const result = await handler(sqsEventOf(recordOf(merchant.id, message.id)));
    // Assess
    expect(result.batchItemFailures).toEqual([]);
    const deferred = await getMessage(merchant.id, message.id);
    expect(deferred).toMatchObject({ status: 'scheduled', sending_at: null });
    expect(new Date(deferred?.scheduled_at as string).getUTCHours()).toBe(nextHour);
    expect(await listOutboxEmails(merchant.id)).toEqual([]);
    // It is back in the due index, for the every-minute job to release at the end of the quiet hours.
    const due = await findDueMessages(new Date(Date.parse(deferred?.scheduled_at as string) + 1000), 1000);
    expect(due.map((entry) => entry.messageId)).toContain(message.id);
  });

  it("writes the provider message id's global reference to the message when it sends", async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Ref Ltd' });
    const payment = await seedPaymentThrough(merchant.id, []);
    const message = await createDunningMessage(payment, { templateId: null, subject: null });
    // Act
    await handler(sqsEventOf(recordOf(merchant.id, message.id)));
    // Assess
    const sent = await getMessage(merchant.id, message.id);
    const providerMessageId = sent?.provider_message_id as string;
    const { Item } = await documentClient.send(
      new GetCommand({ TableName: process.env.TABLE_NAME as string, Key: messageKeys.providerRef(providerMessageId) }),
    );
    expect(Item).toMatchObject({
      entity: 'message_ref',
      merchant_id: merchant.id,
      message_id: message.id,
      provider: 'outbox',
      GSI2PK: customerKeys.data(merchant.id, payment.customer_id),
    });
    expect(await getMessageByProviderId(providerMessageId)).toMatchObject({ id: message.id, merchant_id: merchant.id, status: 'sent' });
  });
});
