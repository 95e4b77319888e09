import { fromHeader } from '#adapters/email/ses';
import { refusalOf } from '#adapters/messaging/messaging-sender';
import { twilioFormOf } from '#adapters/messaging/twilio';

describe('sending rules of the channel adapters', () => {
  it('refuses a free-form WhatsApp and nothing else', () => {
    // Act / Assess
    expect(refusalOf({ channel: 'whatsapp', contentSid: null })).toMatch(/24 h session window/);
    expect(refusalOf({ channel: 'whatsapp', contentSid: '' })).toMatch(/content SID/);
    expect(refusalOf({ channel: 'whatsapp', contentSid: 'HX1' })).toBeUndefined();
    expect(refusalOf({ channel: 'sms', contentSid: null })).toBeUndefined();
  });

  it("builds Twilio's form: whatsapp: prefixes, ContentSid and ContentVariables for WhatsApp, Body for SMS, and the status callback", () => {
    // Act
    const whatsapp = twilioFormOf(
      {
        merchantId: 'm',
        customerId: 'c',
        messageId: 'msg_1',
        channel: 'whatsapp',
        to: '+447700900123',
        text: 'ignored',
        contentSid: 'HX1',
        contentVariables: { 1: 'Ada' },
      },
      '+14155238886',
      'https://hooks.example.com/api/v1/messaging/status',
    );
    const sms = twilioFormOf(
      { merchantId: 'm', customerId: 'c', messageId: 'msg_2', channel: 'sms', to: '+14155550123', text: 'Hello' },
      '+15005550006',
      undefined,
    );
    // Assess
    expect(Object.fromEntries(whatsapp)).toEqual({
      To: 'whatsapp:+447700900123',
      From: 'whatsapp:+14155238886',
      ContentSid: 'HX1',
      ContentVariables: '{"1":"Ada"}',
      StatusCallback: 'https://hooks.example.com/api/v1/messaging/status',
    });
    expect(Object.fromEntries(sms)).toEqual({ To: '+14155550123', From: '+15005550006', Body: 'Hello' });
  });

  it("puts the merchant's name in From, quoted, or RFC 2047-encoded when it is not ASCII", () => {
    // Act / Assess
    expect(fromHeader('billing@example.com', undefined)).toBe('billing@example.com');
    expect(fromHeader('billing@example.com', 'Acme "Ltd"')).toBe('"Acme \\"Ltd\\"" <billing@example.com>');
    expect(fromHeader('billing@example.com', 'Café Zoë')).toBe(`=?UTF-8?B?${Buffer.from('Café Zoë').toString('base64')}?= <billing@example.com>`);
  });
});
