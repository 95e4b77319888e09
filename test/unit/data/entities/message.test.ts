import { messageEntity } from '#data/entities/message';

describe('messageEntity', () => {
  it('reads a message stored before channels and campaigns with their defaults (email, dunning, no campaign)', () => {
    // Prepare: an item as the first dunning emails were written
    const old = {
      PK: 'M#merch_1',
      SK: 'MSG#01J0000000000000000000000A',
      entity: 'message',
      GSI2PK: 'M#merch_1#C#cust_1',
      GSI2SK: 'MSG#01J0000000000000000000000A',
      id: 'msg_01J0000000000000000000000A',
      merchant_id: 'merch_1',
      customer_id: 'cust_1',
      payment_id: 'pe_1',
      recovery_id: 'rec_1',
      status: 'sent',
      to: 'ada@example.com',
      template_id: null,
      subject: null,
      sending_at: null,
      sent_at: '2026-01-01T00:00:00.000Z',
      provider: 'outbox',
      provider_message_id: 'obx_01J0000000000000000000000A',
      status_reason: null,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    };
    // Act
    const message = messageEntity.fromItem(old);
    // Assess
    expect(message).toMatchObject({ channel: 'email', purpose: 'dunning', campaign_id: null, step_index: null, variant: null, status: 'sent' });
    expect(message).not.toHaveProperty('PK');
  });

  it('keeps a campaign SMS step as written', () => {
    // Prepare
    const written = messageEntity.toItem({
      id: 'msg_01J0000000000000000000000B',
      merchant_id: 'merch_1',
      customer_id: 'cust_1',
      payment_id: 'pe_1',
      recovery_id: 'rec_1',
      channel: 'sms',
      purpose: 'campaign',
      campaign_id: 'camp_1',
      step_index: 2,
      variant: 'B',
      status: 'queued',
      to: '+14155550123',
      template_id: 'tmpl_1',
      subject: null,
      content_sid: null,
      scheduled_at: null,
      sending_at: null,
      sent_at: null,
      provider: null,
      provider_message_id: null,
      status_reason: null,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    });
    // Act
    const message = messageEntity.fromItem(written);
    // Assess
    expect(message).toMatchObject({ channel: 'sms', purpose: 'campaign', campaign_id: 'camp_1', step_index: 2, variant: 'B', to: '+14155550123' });
  });
});
