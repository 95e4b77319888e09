import { verifyStandardWebhook } from '../../../../../functions/api/delivery-callbacks/signatures';

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
