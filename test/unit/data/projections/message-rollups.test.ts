import { messageRollups, recipientDomainOf } from '#data/projections/message-rollups';

const sentEmail = {
  PK: 'M#merch_1',
  SK: 'MSG#0001',
  entity: 'message',
  id: 'msg_0001',
  merchant_id: 'merch_1',
  customer_id: 'cust_1',
  channel: 'email',
  purpose: 'campaign',
  campaign_id: 'camp_1',
  status: 'sent',
  to: 'Ada@Example.COM',
  sent_at: '2026-03-04T05:06:07.000Z',
};

describe('messageRollups (the MSG projection)', () => {
  it('counts a sent email once in the hour and the day of its sent_at, by campaign, channel and domain', () => {
    // Act
    const contributions = messageRollups(sentEmail);
    // Assess
    expect(contributions).toEqual([
      {
        key: { PK: 'M#merch_1#RU#MSG#H', SK: '2026-03-04T05#camp_1#email#example.com' },
        counters: { sent_count: 1 },
        attributes: {
          entity: 'rollup',
          merchant_id: 'merch_1',
          bucket: '2026-03-04T05',
          dims: { campaign_id: 'camp_1', channel: 'email', domain: 'example.com' },
        },
      },
      {
        key: { PK: 'M#merch_1#RU#MSG#D', SK: '2026-03-04#camp_1#email#example.com' },
        counters: { sent_count: 1 },
        attributes: {
          entity: 'rollup',
          merchant_id: 'merch_1',
          bucket: '2026-03-04',
          dims: { campaign_id: 'camp_1', channel: 'email', domain: 'example.com' },
        },
      },
    ]);
  });

  it('adds one per delivery outcome whose *_at is set, in the bucket the message was sent in', () => {
    // Prepare
    const item = {
      ...sentEmail,
      delivered_at: '2026-03-04T05:07:00.000Z',
      opened_at: '2026-03-05T10:00:00.000Z',
      clicked_at: '2026-03-06T10:00:00.000Z',
      bounced_at: null,
      unsubscribed_at: '2026-03-06T10:01:00.000Z',
    };
    // Act
    const [hour] = messageRollups(item);
    // Assess
    expect(hour?.key.SK).toBe('2026-03-04T05#camp_1#email#example.com');
    expect(hour?.counters).toEqual({ sent_count: 1, delivered_count: 1, opened_count: 1, clicked_count: 1, unsubscribed_count: 1 });
  });

  it('files dunning messages under an empty campaign and SMS under an empty domain', () => {
    // Prepare
    const sms = { ...sentEmail, channel: 'sms', purpose: 'dunning', campaign_id: null, to: '+14155550123', bounced_at: '2026-03-04T06:00:00.000Z' };
    // Act
    const [hour] = messageRollups(sms);
    // Assess
    expect(hour?.key.SK).toBe('2026-03-04T05#-#sms#-');
    expect(hour?.attributes?.dims).toEqual({ campaign_id: '', channel: 'sms', domain: '' });
    expect(hour?.counters).toEqual({ sent_count: 1, bounced_count: 1 });
  });

  it.each([
    ['a message not sent yet', { ...sentEmail, status: 'queued', sent_at: null }],
    ['a suppressed message', { ...sentEmail, status: 'suppressed', sent_at: null }],
    ['another entity', { ...sentEmail, entity: 'payment' }],
  ])('contributes nothing for %s', (_case, item) => {
    // Act, Assess
    expect(messageRollups(item)).toEqual([]);
  });

  it('reads the domain after the last @, lowercased', () => {
    expect(recipientDomainOf('"a@b"@Mail.Example.org')).toBe('mail.example.org');
    expect(recipientDomainOf('no-at-sign')).toBe('');
    expect(recipientDomainOf(undefined)).toBe('');
  });
});
