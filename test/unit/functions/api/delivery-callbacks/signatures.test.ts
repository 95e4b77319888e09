import { createHmac } from 'node:crypto';
import twilio from 'twilio';
import { twilioUrlVariants, verifyMailgunSignature, verifyStandardWebhook, verifyTwilioSignature } from '#api/delivery-callbacks/signatures';

describe('verifyStandardWebhook', () => {
  // The Standard Webhooks / Svix reference test vector.
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const body = Buffer.from('{"test": 2432232314}');
  const headers = { id: 'msg_p5jXN8AQM9LWM0D4loKWxJek', timestamp: '1614265330', signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=' };
  const signedAt = new Date(1614265330 * 1000);

  it('accepts the reference vector when one of several signatures matches', () => {
    // Act
    const result = verifyStandardWebhook({ ...headers, signature: `v1,bm90LXRoaXMtb25l ${headers.signature}` }, body, secret, signedAt);
    // Assess
    expect(result).toEqual({ ok: true });
  });

  it('refuses the reference vector when it is older than the tolerance', () => {
    // Act
    const result = verifyStandardWebhook(headers, body, secret, new Date(signedAt.getTime() + 301_000));
    // Assess
    expect(result).toEqual({ ok: false, reason: 'timestamp outside tolerance' });
  });
});

describe('verifyTwilioSignature', () => {
  const token = 'twilio_auth_token_for_unit_tests_0123';
  const path = '/api/v1/messaging/status?source=sms';
  const params = { MessageSid: 'SM0123456789abcdef0123456789abcdef', MessageStatus: 'delivered', To: 'whatsapp:+15550001111', Body: 'a b+c' };
  const form = (): URLSearchParams => new URLSearchParams(new URLSearchParams(params).toString());

  // [URL the service rebuilt, URL Twilio signed]
  const accepted: [string, string][] = [
    [`https://hooks.example.com${path}`, `https://hooks.example.com${path}`],
    [`https://hooks.example.com${path}`, `https://hooks.example.com:443${path}`],
    [`https://hooks.example.com:443${path}`, `https://hooks.example.com${path}`],
    [`http://hooks.example.com${path}`, `http://hooks.example.com:80${path}`],
    [`http://hooks.example.com:80${path}`, `http://hooks.example.com${path}`],
    [`https://[2001:db8::1]${path}`, `https://[2001:db8::1]:443${path}`],
  ];

  it.each(accepted)('accepts a callback rebuilt as %s and signed by the twilio SDK over %s, as the SDK validator does', (rebuilt, signedUrl) => {
    // Prepare
    const signature = twilio.getExpectedTwilioSignature(token, signedUrl, params);
    // Act
    const result = verifyTwilioSignature(rebuilt, form(), signature, token);
    // Assess
    expect(result).toEqual({ ok: true });
    expect(twilio.validateRequest(token, signature, rebuilt, params)).toBe(true);
  });

  // A port other than the scheme's default names another endpoint: it is never added or removed.
  const refused: [string, string][] = [
    [`https://hooks.example.com:8443${path}`, `https://hooks.example.com${path}`],
    [`https://hooks.example.com${path}`, `https://hooks.example.com:8443${path}`],
    [`https://hooks.example.com:80${path}`, `https://hooks.example.com${path}`],
    [`https://hooks.example.com${path}`, `https://hooks.example.com:80${path}`],
    [`http://hooks.example.com${path}`, `http://hooks.example.com:443${path}`],
    [`https://hooks.example.com${path}`, `http://hooks.example.com${path}`],
    [`https://hooks.example.com${path}`, `https://elsewhere.example.com:443${path}`],
  ];

  it.each(refused)('refuses a callback rebuilt as %s but signed over %s', (rebuilt, signedUrl) => {
    // Prepare
    const signature = twilio.getExpectedTwilioSignature(token, signedUrl, params);
    // Act
    const result = verifyTwilioSignature(rebuilt, form(), signature, token);
    // Assess
    expect(result).toEqual({ ok: false, reason: 'signature mismatch' });
  });

  it('refuses a signature over the default-port variant when the parameters were tampered with', () => {
    // Prepare
    const signature = twilio.getExpectedTwilioSignature(token, `https://hooks.example.com:443${path}`, params);
    const tampered = form();
    tampered.set('MessageStatus', 'undelivered');
    // Act
    const result = verifyTwilioSignature(`https://hooks.example.com${path}`, tampered, signature, token);
    // Assess
    expect(result).toEqual({ ok: false, reason: 'signature mismatch' });
  });

  it('refuses a missing signature', () => {
    // Act
    const result = verifyTwilioSignature(`https://hooks.example.com${path}`, form(), undefined, token);
    // Assess
    expect(result).toEqual({ ok: false, reason: 'missing X-Twilio-Signature' });
  });
});

describe('twilioUrlVariants', () => {
  it.each([
    ['https://hooks.example.com/a?b=c:443', ['https://hooks.example.com/a?b=c:443', 'https://hooks.example.com:443/a?b=c:443']],
    ['HTTPS://hooks.example.com:443/a', ['HTTPS://hooks.example.com:443/a', 'HTTPS://hooks.example.com/a']],
    ['http://user:pw@hooks.example.com/a', ['http://user:pw@hooks.example.com/a', 'http://user:pw@hooks.example.com:80/a']],
    ['https://[::1]:443/a', ['https://[::1]:443/a', 'https://[::1]/a']],
    ['https://hooks.example.com:3000/a', ['https://hooks.example.com:3000/a']],
    ['ftp://hooks.example.com/a', ['ftp://hooks.example.com/a']],
  ])('gives %s, then its default-port variant when it has one, keeping the rest as is', (url, expected) => {
    // Act
    const variants = twilioUrlVariants(url);
    // Assess
    expect(variants).toEqual(expected);
  });
});

describe('verifyMailgunSignature', () => {
  const key = 'key-mailgun-unit-test';
  const timestamp = '1770920772';
  const token = 'e0b5477167110d68991efc6b9f89f0a11066af27834600e123';
  const signature = createHmac('sha256', key)
    .update(timestamp + token)
    .digest('hex');
  const at = new Date(Number(timestamp) * 1000);

  it('accepts the HMAC of timestamp+token within the window, in upper or lower case', () => {
    // Act
    const lower = verifyMailgunSignature({ timestamp, token, signature }, key, at);
    const upper = verifyMailgunSignature({ timestamp, token, signature: signature.toUpperCase() }, key, new Date(at.getTime() + 300_000));
    // Assess
    expect([lower, upper]).toEqual([{ ok: true }, { ok: true }]);
  });

  it('refuses a signature over another token, or one older than the window', () => {
    // Act
    const otherToken = verifyMailgunSignature({ timestamp, token: `${token}x`, signature }, key, at);
    const stale = verifyMailgunSignature({ timestamp, token, signature }, key, new Date(at.getTime() + 301_000));
    // Assess
    expect(otherToken).toEqual({ ok: false, reason: 'signature mismatch' });
    expect(stale).toEqual({ ok: false, reason: 'timestamp outside tolerance' });
  });
});
