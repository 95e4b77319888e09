import { createHmac } from 'node:crypto';
import { authorizeNetWebhook } from '#webhooks/authorize-net';
import { type InboundWebhook, WebhookPayloadError } from '#webhooks/types';

// The official authorizenet SDK has no webhook helper: deliveries are signed here per Authorize.Net's
// documented scheme, X-ANET-Signature = "sha512=" + uppercase hex HMAC-SHA512(raw body), keyed by the
// merchant's Signature Key as text.
const SIGNATURE_KEY = '7C1D34A5B9E8F2C06D4A1B3E5F7092C84D6E8F0A1B2C3D4E5F60718293A4B5C6D7E8F90A1B2C3D4E5F60718293A4B5C6D7E8F90A1B2C3D4E5F6071829';
const NOW = new Date('2026-03-10T12:00:00Z');

const sign = (body: string, key = SIGNATURE_KEY): string => `sha512=${createHmac('sha512', key).update(body, 'utf8').digest('hex').toUpperCase()}`;

const inbound = (body: string, headers: Record<string, string>): InboundWebhook => ({
  rawBody: Buffer.from(body, 'utf8'),
  headers,
  url: 'https://recovery.example.com/authorize_net/merchant_1',
});

const signed = (body: string): InboundWebhook => inbound(body, { 'x-anet-signature': sign(body) });

/** net.authorize.payment.authcapture.created as the Webhooks guide shows it, here declined (responseCode 2). */
const declinedCapture = JSON.stringify({
  notificationId: 'd0e8e7fe-c3e7-4add-a480-27bc5ce28e27',
  eventType: 'net.authorize.payment.authcapture.created',
  eventDate: '2026-03-10T11:59:58.0080095Z',
  webhookId: '63d6fea2-aa13-4b1d-a204-f5fbc15942b7',
  payload: { responseCode: 2, authCode: '', avsResponse: 'Y', authAmount: 45.0, entityName: 'transaction', id: '60020981676' },
});

describe('authorize_net webhook', () => {
  it('accepts a delivery when X-ANET-Signature is the uppercase HMAC-SHA512 of the body under the Signature Key', async () => {
    // Act
    const verification = await authorizeNetWebhook.verify(signed(declinedCapture), { secret: SIGNATURE_KEY }, NOW);
    // Assess
    expect(verification).toEqual({ ok: true });
  });

  it('accepts a delivery when the hex arrives in lowercase', async () => {
    // Prepare
    const request = inbound(declinedCapture, { 'x-anet-signature': sign(declinedCapture).toLowerCase() });
    // Act
    const verification = await authorizeNetWebhook.verify(request, { secret: SIGNATURE_KEY }, NOW);
    // Assess
    expect(verification).toEqual({ ok: true });
  });

  it('refuses a delivery when the body was changed after signing', async () => {
    // Prepare
    const tampered = inbound(declinedCapture.replace('"responseCode":2', '"responseCode":1'), { 'x-anet-signature': sign(declinedCapture) });
    // Act
    const verification = await authorizeNetWebhook.verify(tampered, { secret: SIGNATURE_KEY }, NOW);
    // Assess
    expect(verification).toEqual({ ok: false, reason: 'X-ANET-Signature does not match the body' });
  });

  it('refuses a delivery when it was signed with another Signature Key', async () => {
    // Prepare
    const request = inbound(declinedCapture, { 'x-anet-signature': sign(declinedCapture, 'A'.repeat(128)) });
    // Act
    const verification = await authorizeNetWebhook.verify(request, { secret: SIGNATURE_KEY }, NOW);
    // Assess
    expect(verification.ok).toBe(false);
  });

  it('refuses a delivery when the X-ANET-Signature header is missing', async () => {
    // Act
    const verification = await authorizeNetWebhook.verify(inbound(declinedCapture, {}), { secret: SIGNATURE_KEY }, NOW);
    // Assess
    expect(verification).toEqual({ ok: false, reason: 'missing X-ANET-Signature header' });
  });

  it('refuses without throwing when the header lacks the sha512= prefix or is truncated', async () => {
    // Prepare
    const bare = sign(declinedCapture).slice('sha512='.length);
    const headers = [bare, 'sha512=', 'sha512=ABC', `sha256=${bare}`];
    // Act
    const verifications = await Promise.all(
      headers.map((header) => authorizeNetWebhook.verify(inbound(declinedCapture, { 'x-anet-signature': header }), { secret: SIGNATURE_KEY }, NOW)),
    );
    // Assess
    expect(verifications.every((verification) => !verification.ok)).toBe(true);
  });

  it('maps the event to a thin payment_failed that asks to fetch the transaction when an authcapture is declined', () => {
    // Act
    const events = authorizeNetWebhook.normalise(signed(declinedCapture));
    // Assess
    expect(events).toEqual([
      {
        psp: 'authorize_net',
        providerEventId: 'd0e8e7fe-c3e7-4add-a480-27bc5ce28e27',
        type: 'payment_failed',
        occurredAt: '2026-03-10T11:59:58.0080095Z',
        payment: { providerPaymentId: '60020981676', amount: 4500 },
        fetch: { resource: 'transaction', id: '60020981676' },
      },
    ]);
  });

  it('maps the event to payment_failed with the subscription, customer profile and amount in cents when an ARB renewal fails', () => {
    // Prepare
    const body = JSON.stringify({
      notificationId: '5c3f7e00-1265-4e8e-abd0-a7d734163881',
      eventType: 'net.authorize.customer.subscription.failed',
      eventDate: '2026-03-10T08:00:02.52Z',
      webhookId: '0b90c2e6-c92c-4a08-a4c5-1e1f1d2b3c4d',
      payload: {
        name: 'Gold plan',
        amount: 29.99,
        status: 'active',
        profile: { customerProfileId: 1929820324, customerPaymentProfileId: 1841987457 },
        entityName: 'subscription',
        id: '5227567',
      },
    });
    // Act
    const [event] = authorizeNetWebhook.normalise(signed(body));
    // Assess
    expect(event).toEqual({
      psp: 'authorize_net',
      providerEventId: '5c3f7e00-1265-4e8e-abd0-a7d734163881',
      type: 'payment_failed',
      occurredAt: '2026-03-10T08:00:02.52Z',
      payment: { amount: 2999, subscriptionId: '5227567' },
      customer: { providerCustomerId: '1929820324' },
      fetch: { resource: 'subscription', id: '5227567' },
    });
    expect(event?.payment?.currency).toBeUndefined();
    expect(event?.payment?.declineCode).toBeUndefined();
  });

  it('maps the event to payment_succeeded when an authcapture is approved', () => {
    // Prepare
    const body = declinedCapture.replace('"responseCode":2', '"responseCode":1');
    // Act
    const [event] = authorizeNetWebhook.normalise(signed(body));
    // Assess
    expect(event).toMatchObject({ type: 'payment_succeeded', payment: { providerPaymentId: '60020981676', amount: 4500 } });
  });

  it('returns no events when the event type is one the service does not use', () => {
    // Prepare
    const body = JSON.stringify({
      notificationId: 'n-1',
      eventType: 'net.authorize.customer.created',
      eventDate: '2026-03-10T08:00:02Z',
      webhookId: 'w-1',
      payload: { entityName: 'customerProfile', id: '394', paymentProfiles: [] },
    });
    // Act
    const events = authorizeNetWebhook.normalise(signed(body));
    // Assess
    expect(events).toEqual([]);
  });

  it('throws WebhookPayloadError when a verified notification has no payload', () => {
    // Prepare
    const request = signed(JSON.stringify({ notificationId: 'n-1', eventType: 'net.authorize.payment.authcapture.created' }));
    // Act
    const read = (): unknown => authorizeNetWebhook.normalise(request);
    // Assess
    expect(read).toThrow(WebhookPayloadError);
  });
});
