import { Webhook } from 'standardwebhooks';
import { generateSigningSecret, rotatedOut, signedHeaders } from '#core/webhooks/signature';

const BODY = JSON.stringify({
  id: 'evt_1',
  type: 'payment.recovered',
  created_at: '2026-11-25T12:00:00.000Z',
  merchant_id: 'merch_1',
  data: { object: { amount: 4900 } },
});

describe('outbound webhook signatures (verified with the standardwebhooks package)', () => {
  it('makes a whsec_ secret of 32 random bytes', () => {
    const secret = generateSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateSigningSecret()).not.toBe(secret);
  });

  it('signs so that a Standard Webhooks receiver accepts the delivery', () => {
    // Prepare
    const secret = generateSigningSecret();
    const now = new Date();

    // Act
    const headers = signedHeaders({ id: 'msg_1', body: BODY, secret, now });

    // Assess
    expect(headers['webhook-id']).toBe('msg_1');
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(now.getTime() / 1000)));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(BODY, headers)).toEqual(JSON.parse(BODY));
  });

  it('is refused for another secret, another body or a stale timestamp', () => {
    // Prepare
    const secret = generateSigningSecret();
    const headers = signedHeaders({ id: 'msg_3', body: BODY, secret, now: new Date() });
    const stale = signedHeaders({ id: 'msg_3', body: BODY, secret, now: new Date(Date.now() - 10 * 60 * 1000) });

    // Act / Assess
    expect(() => new Webhook(generateSigningSecret()).verify(BODY, headers)).toThrow();
    expect(() => new Webhook(secret).verify(`${BODY} `, headers)).toThrow();
    expect(() => new Webhook(secret).verify(BODY, stale)).toThrow();
  });

  it('signs with both the new and the old secret during a rotation, so either verifies', () => {
    // Prepare
    const oldSecret = generateSigningSecret();
    const newSecret = generateSigningSecret();
    const rotatedAt = new Date(Date.now() - 3600 * 1000);
    const previous = rotatedOut(oldSecret, rotatedAt);

    // Act
    const headers = signedHeaders({ id: 'msg_4', body: BODY, secret: newSecret, previous, now: new Date() });

    // Assess
    expect(previous.expires_at).toBe(new Date(rotatedAt.getTime() + 24 * 3600 * 1000).toISOString());
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(newSecret).verify(BODY, headers)).toEqual(JSON.parse(BODY));
    expect(new Webhook(oldSecret).verify(BODY, headers)).toEqual(JSON.parse(BODY));
  });

  it('stops signing with the old secret 24 h after the rotation', () => {
    // Prepare
    const oldSecret = generateSigningSecret();
    const newSecret = generateSigningSecret();
    const previous = rotatedOut(oldSecret, new Date(Date.now() - 24 * 3600 * 1000 - 1000));

    // Act
    const headers = signedHeaders({ id: 'msg_5', body: BODY, secret: newSecret, previous, now: new Date() });

    // Assess
    expect(headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(() => new Webhook(oldSecret).verify(BODY, headers)).toThrow();
    expect(new Webhook(newSecret).verify(BODY, headers)).toEqual(JSON.parse(BODY));
  });
});
