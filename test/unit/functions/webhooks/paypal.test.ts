import { sign as rsaSign } from 'node:crypto';
import * as CRC32 from 'crc-32';
import * as selfsigned from 'selfsigned';
import { type CertificateFetcher, crc32, createCertificateFetcher, createPaypalCertificateFetcher, createPaypalWebhook, paypalWebhook } from '#webhooks/paypal';
import { type InboundWebhook, WebhookPayloadError } from '#webhooks/types';

// PayPal has no offline signing helper: these tests make an RSA key pair and self-signed certificate
// with `selfsigned`, sign `transmission_id|transmission_time|webhook_id|crc32(body)` as PayPal does
// (CRC-32 from the `crc-32` package, unsigned decimal), and serve the certificate through the
// module's CertificateFetcher port.
const WEBHOOK_ID = '8PT597110X687430LKGECATA';
const NOW = new Date('2026-03-10T12:00:00Z');
const CERT_URL = 'https://api.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-1d93a270';

type Pems = { readonly cert: string; readonly private: string };
let signer: Pems;
let stranger: Pems;
let expired: Pems;

beforeAll(async () => {
  const attributes = [{ name: 'commonName', value: 'messageverificationcerts.paypal.com' }];
  const validity = { notBeforeDate: new Date('2026-01-01T00:00:00Z'), notAfterDate: new Date('2027-01-01T00:00:00Z'), algorithm: 'sha256', keySize: 2048 };
  [signer, stranger, expired] = await Promise.all([
    selfsigned.generate(attributes, validity),
    selfsigned.generate(attributes, validity),
    selfsigned.generate(attributes, { ...validity, notAfterDate: new Date('2026-02-01T00:00:00Z') }),
  ]);
});

const servingCertificate = (pem: () => string): jest.Mock<Promise<string>, [string]> => jest.fn(async (_url: string) => pem());

type Delivery = { body: string; transmissionTime?: string; webhookId?: string; key?: string; certUrl?: string };

function deliver({
  body,
  transmissionTime = '2026-03-10T11:59:58Z',
  webhookId = WEBHOOK_ID,
  key = signer.private,
  certUrl = CERT_URL,
}: Delivery): InboundWebhook {
  const transmissionId = '69cd13f0-d67a-11e5-baa3-778b53f4ae55';
  const crc = CRC32.buf(Buffer.from(body, 'utf8')) >>> 0;
  const signature = rsaSign('sha256', Buffer.from(`${transmissionId}|${transmissionTime}|${webhookId}|${crc}`, 'utf8'), key).toString('base64');
  return {
    rawBody: Buffer.from(body, 'utf8'),
    headers: {
      'paypal-transmission-id': transmissionId,
      'paypal-transmission-time': transmissionTime,
      'paypal-transmission-sig': signature,
      'paypal-cert-url': certUrl,
      'paypal-auth-algo': 'SHA256withRSA',
      'paypal-auth-version': 'v2',
    },
    url: 'https://recovery.example.com/paypal/merchant_1',
  };
}

/** BILLING.SUBSCRIPTION.PAYMENT.FAILED: the resource is the subscription with billing_info.last_failed_payment (Subscriptions v1). */
const paymentFailed = JSON.stringify({
  id: 'WH-4SW78779LY2325805-07E03580SX1414828',
  event_version: '1.0',
  create_time: '2026-03-10T11:59:55.000Z',
  resource_type: 'subscription',
  resource_version: '2.0',
  event_type: 'BILLING.SUBSCRIPTION.PAYMENT.FAILED',
  summary: 'Subscription payment failed',
  resource: {
    id: 'I-BW452GLLEP1G',
    plan_id: 'P-5ML4271244454362WXNWU5NQ',
    status: 'ACTIVE',
    subscriber: { email_address: 'customer@example.com', payer_id: '2J6QB8YJQSJRJ', name: { given_name: 'John', surname: 'Doe' } },
    billing_info: {
      outstanding_balance: { currency_code: 'EUR', value: '24.90' },
      last_failed_payment: {
        amount: { currency_code: 'EUR', value: '24.90' },
        time: '2026-03-10T11:59:50Z',
        reason_code: 'PAYER_CANNOT_PAY',
        next_payment_retry_time: '2026-03-15T10:00:00Z',
      },
      failed_payments_count: 1,
    },
  },
});

describe('paypal webhook', () => {
  it("accepts a delivery when the certificate's key signed id|time|webhook id|crc32", async () => {
    // Prepare
    const fetchCertificate = servingCertificate(() => signer.cert);
    // Act
    const verification = await createPaypalWebhook({ fetchCertificate }).verify(deliver({ body: paymentFailed }), { secret: WEBHOOK_ID }, NOW);
    // Assess
    expect(verification).toEqual({ ok: true });
    expect(fetchCertificate).toHaveBeenCalledWith(CERT_URL);
  });

  it('refuses a delivery when the body was changed after signing', async () => {
    // Prepare
    const request = deliver({ body: paymentFailed });
    const tampered = { ...request, rawBody: Buffer.from(paymentFailed.replace('24.90', '0.01'), 'utf8') };
    // Act
    const verification = await createPaypalWebhook({ fetchCertificate: servingCertificate(() => signer.cert) }).verify(tampered, { secret: WEBHOOK_ID }, NOW);
    // Assess
    expect(verification).toEqual({ ok: false, reason: 'PAYPAL-TRANSMISSION-SIG does not match' });
  });

  it('refuses a delivery when it was signed for another webhook id', async () => {
    // Prepare
    const request = deliver({ body: paymentFailed, webhookId: '1JE4291016473214C' });
    // Act
    const verification = await createPaypalWebhook({ fetchCertificate: servingCertificate(() => signer.cert) }).verify(request, { secret: WEBHOOK_ID }, NOW);
    // Assess
    expect(verification.ok).toBe(false);
  });

  it('refuses a delivery when it was signed by a key other than the certificate’s', async () => {
    // Prepare
    const request = deliver({ body: paymentFailed, key: stranger.private });
    // Act
    const verification = await createPaypalWebhook({ fetchCertificate: servingCertificate(() => signer.cert) }).verify(request, { secret: WEBHOOK_ID }, NOW);
    // Assess
    expect(verification.ok).toBe(false);
  });

  it.each([
    ['in the past', '2026-03-10T11:54:59Z'],
    ['in the future', '2026-03-10T12:05:01Z'],
  ])('refuses a delivery when its transmission time is %s beyond the tolerance', async (_label, transmissionTime) => {
    // Prepare
    const request = deliver({ body: paymentFailed, transmissionTime });
    // Act
    const verification = await createPaypalWebhook({ fetchCertificate: servingCertificate(() => signer.cert) }).verify(request, { secret: WEBHOOK_ID }, NOW);
    // Assess
    expect(verification).toEqual({ ok: false, reason: 'PAYPAL-TRANSMISSION-TIME is more than 300 s from now' });
  });

  it('refuses a delivery when the transmission signature header is missing', async () => {
    // Prepare
    const { 'paypal-transmission-sig': _dropped, ...headers } = deliver({ body: paymentFailed }).headers;
    const request = { ...deliver({ body: paymentFailed }), headers };
    // Act
    const verification = await createPaypalWebhook({ fetchCertificate: servingCertificate(() => signer.cert) }).verify(request, { secret: WEBHOOK_ID }, NOW);
    // Assess
    expect(verification).toEqual({ ok: false, reason: 'missing PAYPAL-TRANSMISSION-* or PAYPAL-CERT-URL header' });
  });

  it.each([
    'https://evil.example.com/v1/notifications/certs/CERT-1',
    'https://api.paypal.com.evil.example/v1/notifications/certs/CERT-1',
    'http://api.paypal.com/v1/notifications/certs/CERT-1',
    'https://api.paypal.com:8443/v1/notifications/certs/CERT-1',
    'https://user@api.paypal.com/v1/notifications/certs/CERT-1',
    'https://api.paypal.com/v1/oauth2/token',
    'not a url',
  ])('refuses without fetching when the certificate URL is off PayPal’s hosts or path: %s', async (certUrl) => {
    // Prepare
    const fetchCertificate = servingCertificate(() => signer.cert);
    // Act
    const verification = await createPaypalWebhook({ fetchCertificate }).verify(deliver({ body: paymentFailed, certUrl }), { secret: WEBHOOK_ID }, NOW);
    // Assess
    expect(verification).toEqual({ ok: false, reason: 'PAYPAL-CERT-URL is not an https URL on a PayPal API host' });
    expect(fetchCertificate).not.toHaveBeenCalled();
  });

  it('refuses without throwing when the certificate cannot be fetched, is not a certificate, or has expired', async () => {
    // Prepare
    const fetchers: CertificateFetcher[] = [() => Promise.reject(new Error('ECONNRESET')), async () => 'not a certificate', async () => expired.cert];
    // Act
    const verifications = await Promise.all(
      fetchers.map((fetchCertificate) =>
        createPaypalWebhook({ fetchCertificate }).verify(deliver({ body: paymentFailed, key: expired.private }), { secret: WEBHOOK_ID }, NOW),
      ),
    );
    // Assess
    expect(verifications.map((verification) => verification.ok)).toEqual([false, false, false]);
    expect(verifications[2]).toEqual({ ok: false, reason: 'the PayPal signing certificate is not valid now' });
  });

  it('maps the event to payment_failed with the last failed payment and subscriber when a subscription payment fails', () => {
    // Act
    const events = createPaypalWebhook({ fetchCertificate: servingCertificate(() => signer.cert) }).normalise(deliver({ body: paymentFailed }));
    // Assess
    expect(events).toEqual([
      {
        psp: 'paypal',
        providerEventId: 'WH-4SW78779LY2325805-07E03580SX1414828',
        type: 'payment_failed',
        occurredAt: '2026-03-10T11:59:55.000Z',
        payment: { amount: 2490, currency: 'eur', declineCode: 'PAYER_CANNOT_PAY', subscriptionId: 'I-BW452GLLEP1G' },
        customer: { providerCustomerId: '2J6QB8YJQSJRJ', email: 'customer@example.com', name: 'John Doe' },
      },
    ]);
  });

  it('maps the event to payment_succeeded for the billing agreement when a sale completes', () => {
    // Prepare
    const body = JSON.stringify({
      id: 'WH-2WR32451HC0233532-67976317FL4543714',
      create_time: '2026-03-15T10:00:04.000Z',
      event_type: 'PAYMENT.SALE.COMPLETED',
      resource_type: 'sale',
      resource: { id: '80021663DE681814L', state: 'completed', amount: { total: '24.90', currency: 'EUR' }, billing_agreement_id: 'I-BW452GLLEP1G' },
    });
    // Act
    const events = createPaypalWebhook({ fetchCertificate: servingCertificate(() => signer.cert) }).normalise(deliver({ body }));
    // Assess
    expect(events).toEqual([
      {
        psp: 'paypal',
        providerEventId: 'WH-2WR32451HC0233532-67976317FL4543714',
        type: 'payment_succeeded',
        occurredAt: '2026-03-15T10:00:04.000Z',
        payment: { amount: 2490, currency: 'eur', providerPaymentId: '80021663DE681814L', subscriptionId: 'I-BW452GLLEP1G' },
      },
    ]);
  });

  it('returns no events when the event type is one the service does not use', () => {
    // Prepare
    const body = JSON.stringify({
      id: 'WH-1',
      create_time: '2026-03-15T10:00:04.000Z',
      event_type: 'CUSTOMER.DISPUTE.CREATED',
      resource: { dispute_id: 'PP-D-1' },
    });
    // Act
    const events = createPaypalWebhook({ fetchCertificate: servingCertificate(() => signer.cert) }).normalise(deliver({ body }));
    // Assess
    expect(events).toEqual([]);
  });

  it('throws WebhookPayloadError when a verified failure carries no resource or an unreadable amount', () => {
    // Prepare
    const webhook = createPaypalWebhook({ fetchCertificate: servingCertificate(() => signer.cert) });
    const noResource = deliver({ body: JSON.stringify({ id: 'WH-1', event_type: 'BILLING.SUBSCRIPTION.PAYMENT.FAILED' }) });
    const badAmount = deliver({ body: paymentFailed.replace(/"value":"24.90"/g, '"value":"24,90"') });
    // Act
    const readNoResource = (): unknown => webhook.normalise(noResource);
    const readBadAmount = (): unknown => webhook.normalise(badAmount);
    // Assess
    expect(readNoResource).toThrow(WebhookPayloadError);
    expect(readBadAmount).toThrow(WebhookPayloadError);
  });

  it('computes the same unsigned CRC-32 as the crc-32 package when given ASCII, multi-byte or empty input', () => {
    // Prepare
    const samples = ['', paymentFailed, '\u00e9\u4e2d\ud83d\ude00'].map((sample) => Buffer.from(sample, 'utf8'));
    // Act
    const ours = samples.map((sample) => crc32(sample));
    // Assess
    expect(ours).toEqual(samples.map((sample) => CRC32.buf(sample) >>> 0));
  });
});

describe('paypal certificate fetcher', () => {
  const okResponse = (body: string): Response => new Response(body, { status: 200 });

  it('serves later requests from its cache when a PayPal certificate URL was fetched once', async () => {
    // Prepare
    const fetchImpl = jest.fn(async (_input: string | URL | Request, _init?: RequestInit) => okResponse(signer.cert));
    const fetchCertificate = createPaypalCertificateFetcher(fetchImpl as unknown as typeof fetch);
    // Act
    const first = await fetchCertificate(CERT_URL);
    const second = await fetchCertificate(CERT_URL);
    // Assess
    expect(first).toBe(signer.cert);
    expect(second).toBe(signer.cert);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    expect(fetchImpl).toHaveBeenCalledWith(CERT_URL, expect.objectContaining({ redirect: 'error' }));
  });

  it('refuses without fetching when the URL is on another domain', async () => {
    // Prepare
    const fetchImpl = jest.fn(async () => okResponse(signer.cert));
    const fetchCertificate = createPaypalCertificateFetcher(fetchImpl as unknown as typeof fetch);
    // Act
    const fetching = fetchCertificate('https://evil.example.com/v1/notifications/certs/CERT-1');
    // Assess
    await expect(fetching).rejects.toThrow('not on a PayPal API host');
    expect(fetchImpl).not.toHaveBeenCalled();
  });

  it.each([
    'http://127.0.0.1:40123/v1/notifications/certs/CERT-1',
    'https://127.0.0.1/v1/notifications/certs/CERT-1',
    'http://localhost:40123/v1/notifications/certs/CERT-1',
  ])('refuses a loopback certificate URL without fetching, as the production fetcher: %s', async (url) => {
    // Prepare
    const fetchImpl = jest.fn(async () => okResponse(signer.cert));
    const fetchCertificate = createPaypalCertificateFetcher(fetchImpl as unknown as typeof fetch);
    // Act
    const fetching = fetchCertificate(url);
    // Assess
    await expect(fetching).rejects.toThrow('not on a PayPal API host');
    expect(fetchCertificate.admits?.(url)).toBe(false);
    expect(fetchImpl).not.toHaveBeenCalled();
  });

  it('refuses a delivery naming a loopback certificate URL in the production module', async () => {
    // Prepare
    const request = deliver({ body: paymentFailed, certUrl: 'http://127.0.0.1:40123/v1/notifications/certs/CERT-1' });
    // Act
    const verification = await paypalWebhook.verify(request, { secret: WEBHOOK_ID }, NOW);
    // Assess
    expect(verification).toEqual({ ok: false, reason: 'PAYPAL-CERT-URL is not an https URL on a PayPal API host' });
  });

  it('admits only the exact origins it is given when built with allowedOrigins, and no PayPal host', async () => {
    // Prepare
    const fetchImpl = jest.fn(async (_input: string | URL | Request, _init?: RequestInit) => okResponse(signer.cert));
    const fetchCertificate = createCertificateFetcher({ allowedOrigins: ['http://127.0.0.1:40123'], fetchImpl: fetchImpl as unknown as typeof fetch });
    const allowed = 'http://127.0.0.1:40123/v1/notifications/certs/CERT-1';
    // Act
    const pem = await fetchCertificate(allowed);
    const refused = ['http://127.0.0.1:40124/v1/notifications/certs/CERT-1', 'http://127.0.0.1:40123/v1/oauth2/token', CERT_URL];
    const outcomes = await Promise.allSettled(refused.map((url) => fetchCertificate(url)));
    // Assess
    expect(pem).toBe(signer.cert);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    expect(fetchImpl).toHaveBeenCalledWith(allowed, expect.objectContaining({ redirect: 'error' }));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected']);
  });

  it('fetches again when the previous download failed', async () => {
    // Prepare
    const fetchImpl = jest
      .fn()
      .mockResolvedValueOnce(new Response('busy', { status: 503 }))
      .mockResolvedValueOnce(okResponse(signer.cert));
    const fetchCertificate = createPaypalCertificateFetcher(fetchImpl as unknown as typeof fetch);
    // Act
    const failed = fetchCertificate(CERT_URL);
    await expect(failed).rejects.toThrow('HTTP 503');
    const retried = await fetchCertificate(CERT_URL);
    // Assess
    expect(retried).toBe(signer.cert);
    expect(fetchImpl).toHaveBeenCalledTimes(2);
  });
});

describe('paypal events of one failed payment', () => {
  const normalisedAll = (...bodies: string[]) =>
    bodies.flatMap((body) => createPaypalWebhook({ fetchCertificate: servingCertificate(() => signer.cert) }).normalise(deliver({ body })));

  it('names the capture as the payment of both PAYMENT.CAPTURE.DENIED and PAYMENT.CAPTURE.DECLINED for one Orders v2 capture', () => {
    // Prepare
    const capture = {
      id: '7TK53561YB803214S',
      amount: { currency_code: 'USD', value: '49.99' },
      final_capture: true,
      seller_protection: { status: 'ELIGIBLE' },
      processor_response: { avs_code: 'Y', cvv_code: 'M', response_code: '5120' },
      supplementary_data: { related_ids: { order_id: '5O190127TN364715T' } },
      payer: { payer_id: 'QYR5Z8XDVJNXQ', email_address: 'buyer@example.com' },
      create_time: '2026-03-10T11:59:40Z',
      update_time: '2026-03-10T11:59:50Z',
    };
    const event = (id: string, eventType: string, status: string): string =>
      JSON.stringify({
        id,
        event_version: '1.0',
        create_time: '2026-03-10T11:59:51.000Z',
        resource_type: 'capture',
        resource_version: '2.0',
        event_type: eventType,
        resource: { ...capture, status },
      });
    // Act
    const events = normalisedAll(
      event('WH-2WR32451HC0233532-67976317FL4543714', 'PAYMENT.CAPTURE.DECLINED', 'DECLINED'),
      event('WH-58D329510W468432D-8HN650336L201105X', 'PAYMENT.CAPTURE.DENIED', 'DECLINED'),
    );
    // Assess
    expect(
      events.map((normalised) => [normalised.type, normalised.payment?.providerPaymentId, normalised.payment?.amount, normalised.payment?.declineCode]),
    ).toEqual([
      ['payment_failed', '7TK53561YB803214S', 4999, '5120'],
      ['payment_failed', '7TK53561YB803214S', 4999, '5120'],
    ]);
  });

  it('records one failure for a subscription payment that fails and then suspends the subscription', () => {
    // Prepare
    const suspended = JSON.stringify({
      id: 'WH-9C3A8717EW0318236-2X012345TK018200V',
      event_version: '1.0',
      create_time: '2026-03-25T10:00:02.000Z',
      resource_type: 'subscription',
      event_type: 'BILLING.SUBSCRIPTION.SUSPENDED',
      resource: { ...(JSON.parse(paymentFailed) as { resource: object }).resource, status: 'SUSPENDED' },
    });
    // Act
    const events = normalisedAll(paymentFailed, suspended);
    // Assess
    expect(events.map((normalised) => [normalised.type, normalised.payment?.subscriptionId])).toEqual([['payment_failed', 'I-BW452GLLEP1G']]);
  });
});
