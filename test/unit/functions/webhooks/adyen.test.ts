import { hmacValidator } from '@adyen/api-library';
import { adyenWebhook } from '#webhooks/adyen';
import { type InboundWebhook, WebhookPayloadError } from '#webhooks/types';

const HMAC_KEY = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';
const OTHER_KEY = '0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF';
const NOW = new Date('2026-03-10T12:00:00Z');
const validator = new hmacValidator();

type Item = Record<string, unknown> & { additionalData?: Record<string, string> };
type SdkItem = Parameters<typeof validator.validateHMAC>[0];

/** AUTHORISATION refused, as Adyen's standard webhook documents it (shopper details and raw acquirer response enabled). */
const refusedItem = (): Item => ({
  additionalData: {
    shopperReference: 'shopper_4417',
    shopperEmail: 'grace.hopper@example.com',
    shopperName: 'Grace Hopper',
    refusalReasonRaw: '51 : Insufficient funds/over credit limit',
    merchantAdviceCode: '01 : New account information available',
    'recurring.recurringDetailReference': '8415718415172204',
    recurringProcessingModel: 'Subscription',
  },
  amount: { currency: 'EUR', value: 1130 },
  eventCode: 'AUTHORISATION',
  eventDate: '2026-03-10T11:59:58+01:00',
  merchantAccountCode: 'AcmeSubscriptionsECOM',
  merchantReference: 'renewal-2026-03-4417',
  paymentMethod: 'mc',
  pspReference: 'QFQTPCQ8HXSKGK82',
  reason: 'Not enough balance',
  success: 'false',
});

/** A body whose items the SDK signed, as Adyen sends it. */
const notification = (items: Item[], key = HMAC_KEY): string =>
  JSON.stringify({
    live: 'false',
    notificationItems: items.map((item) => ({
      NotificationRequestItem: { ...item, additionalData: { ...item.additionalData, hmacSignature: validator.calculateHmac(item as unknown as SdkItem, key) } },
    })),
  });

const inbound = (body: string, headers: Record<string, string> = {}): InboundWebhook => ({
  rawBody: Buffer.from(body, 'utf8'),
  headers,
  url: 'https://recovery.example.com/adyen/merchant_1',
});

describe('adyen webhook', () => {
  it('accepts a batch when the SDK signed every item with the HMAC key', async () => {
    // Prepare
    const body = notification([refusedItem(), { ...refusedItem(), pspReference: 'V4HZ4RBFJGXXGN82', reason: 'Expired Card' }]);
    const sent = JSON.parse(body) as { notificationItems: Array<{ NotificationRequestItem: SdkItem }> };
    // Act
    const verification = await adyenWebhook.verify(inbound(body), { secret: HMAC_KEY }, NOW);
    // Assess
    expect(verification).toEqual({ ok: true });
    expect(sent.notificationItems.map(({ NotificationRequestItem }) => validator.validateHMAC(NotificationRequestItem, HMAC_KEY))).toEqual([true, true]);
  });

  it('refuses a batch when a signed field was changed after signing', async () => {
    // Prepare
    const body = notification([refusedItem()]).replace('"value":1130', '"value":1');
    // Act
    const verification = await adyenWebhook.verify(inbound(body), { secret: HMAC_KEY }, NOW);
    // Assess
    expect(verification).toEqual({ ok: false, reason: 'hmacSignature does not match the notification' });
  });

  it('refuses a batch when one item was signed with another key', async () => {
    // Prepare
    const good = JSON.parse(notification([refusedItem()])) as { notificationItems: unknown[] };
    const bad = JSON.parse(notification([{ ...refusedItem(), pspReference: 'V4HZ4RBFJGXXGN82' }], OTHER_KEY)) as { notificationItems: unknown[] };
    const body = JSON.stringify({ live: 'false', notificationItems: [...good.notificationItems, ...bad.notificationItems] });
    // Act
    const verification = await adyenWebhook.verify(inbound(body), { secret: HMAC_KEY }, NOW);
    // Assess
    expect(verification.ok).toBe(false);
  });

  it('refuses a batch when it was signed with another key', async () => {
    // Act
    const verification = await adyenWebhook.verify(inbound(notification([refusedItem()], OTHER_KEY)), { secret: HMAC_KEY }, NOW);
    // Assess
    expect(verification.ok).toBe(false);
  });

  it('refuses a batch when an item has no hmacSignature', async () => {
    // Prepare
    const body = JSON.stringify({ live: 'false', notificationItems: [{ NotificationRequestItem: refusedItem() }] });
    // Act
    const verification = await adyenWebhook.verify(inbound(body), { secret: HMAC_KEY }, NOW);
    // Assess
    expect(verification).toEqual({ ok: false, reason: 'missing additionalData.hmacSignature' });
  });

  it('refuses without throwing when the body or the configured key is garbage', async () => {
    // Prepare
    const cases: Array<[string, string]> = [
      ['not json', HMAC_KEY],
      ['{"notificationItems":"x"}', HMAC_KEY],
      ['{"notificationItems":[{"NotificationRequestItem":{"additionalData":{"hmacSignature":"%%%"}}}]}', HMAC_KEY],
      [notification([refusedItem()]), 'not-hex'],
      [notification([refusedItem()]), ''],
    ];
    // Act
    const verifications = await Promise.all(cases.map(([body, secret]) => adyenWebhook.verify(inbound(body), { secret }, NOW)));
    // Assess
    expect(verifications.map((verification) => verification.ok)).toEqual([false, false, false, false, false]);
  });

  it('requires the Basic credentials as well when the secret carries them', async () => {
    // Prepare
    const body = notification([refusedItem()]);
    const secret = `${HMAC_KEY}:ws_adyen:p4ss:word`;
    const basic = (userPass: string): Record<string, string> => ({ authorization: `Basic ${Buffer.from(userPass).toString('base64')}` });
    // Act
    const withCredentials = await adyenWebhook.verify(inbound(body, basic('ws_adyen:p4ss:word')), { secret }, NOW);
    const wrongPassword = await adyenWebhook.verify(inbound(body, basic('ws_adyen:guess')), { secret }, NOW);
    const withoutHeader = await adyenWebhook.verify(inbound(body), { secret }, NOW);
    // Assess
    expect(withCredentials).toEqual({ ok: true });
    expect(wrongPassword.ok).toBe(false);
    expect(withoutHeader.ok).toBe(false);
  });

  it('maps the item to payment_failed with the refusal code, raw code, advice code and shopper when an AUTHORISATION is refused', () => {
    // Act
    const events = adyenWebhook.normalise(inbound(notification([refusedItem()])));
    // Assess
    expect(events).toEqual([
      {
        psp: 'adyen',
        providerEventId: 'QFQTPCQ8HXSKGK82:AUTHORISATION:false',
        type: 'payment_failed',
        occurredAt: '2026-03-10T11:59:58+01:00',
        payment: {
          providerPaymentId: 'QFQTPCQ8HXSKGK82',
          amount: 1130,
          currency: 'eur',
          declineCode: '12',
          networkCode: '51',
          adviceCode: '01',
          network: 'mastercard',
        },
        customer: { providerCustomerId: 'shopper_4417', email: 'grace.hopper@example.com', name: 'Grace Hopper' },
      },
    ]);
  });

  it("maps the item to payment_succeeded and skips the batch's unused items when an AUTHORISATION succeeds", () => {
    // Prepare
    const authorised: Item = { ...refusedItem(), success: 'true', reason: '034573:1111:03/2030', pspReference: 'W8KJ4RBFJGXXGN82' };
    const report: Item = {
      amount: { currency: 'EUR', value: 0 },
      eventCode: 'REPORT_AVAILABLE',
      merchantAccountCode: 'AcmeSubscriptionsECOM',
      merchantReference: '',
      pspReference: 'settlement_detail_report_2026_03_09.csv',
      success: 'true',
      eventDate: '2026-03-10T06:00:00+01:00',
    };
    // Act
    const events = adyenWebhook.normalise(inbound(notification([authorised, report])));
    // Assess
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'payment_succeeded', payment: { providerPaymentId: 'W8KJ4RBFJGXXGN82', amount: 1130, currency: 'eur' } });
    expect(events[0]?.payment?.declineCode).toBeUndefined();
  });

  it('returns no events when every item is one the service does not use', () => {
    // Prepare
    const capture: Item = { ...refusedItem(), eventCode: 'CAPTURE', success: 'true', originalReference: 'QFQTPCQ8HXSKGK82' };
    // Act
    const events = adyenWebhook.normalise(inbound(notification([capture])));
    // Assess
    expect(events).toEqual([]);
  });

  it('throws WebhookPayloadError when a verified body has no notification items', () => {
    // Act
    const read = (): unknown => adyenWebhook.normalise(inbound('{"live":"false","notificationItems":[]}'));
    // Assess
    expect(read).toThrow(WebhookPayloadError);
  });
});

describe('adyen notifications of one refused payment', () => {
  // A refused renewal with Auto Rescue on: the AUTHORISATION (success false), redelivered until
  // Adyen gets [accepted], then AUTORESCUE_NEXT_ATTEMPT and finally AUTORESCUE (success false)
  // when the rescue window closes; all about the same payment, the refused pspReference.
  const rescueItem = (eventCode: string, success: string, pspReference: string): Item => ({
    ...refusedItem(),
    eventCode,
    success,
    pspReference,
    originalReference: 'QFQTPCQ8HXSKGK82',
    eventDate: '2026-03-12T09:00:00+01:00',
    reason: eventCode === 'AUTORESCUE' ? 'Not enough balance' : '',
  });

  it('records the refused pspReference once: redeliveries repeat its event id, Auto Rescue notifications record no other failure', () => {
    // Prepare
    const deliveries = [
      notification([refusedItem()]),
      notification([refusedItem()]),
      notification([rescueItem('AUTORESCUE_NEXT_ATTEMPT', 'true', 'ZT8CGWSVGVRZNN82')]),
      notification([rescueItem('AUTORESCUE', 'false', 'ZT8CGWSVGVRZNN82')]),
    ];
    // Act
    const events = deliveries.flatMap((body) => adyenWebhook.normalise(inbound(body)));
    // Assess
    expect(events.map((event) => [event.type, event.providerEventId, event.payment?.providerPaymentId])).toEqual([
      ['payment_failed', 'QFQTPCQ8HXSKGK82:AUTHORISATION:false', 'QFQTPCQ8HXSKGK82'],
      ['payment_failed', 'QFQTPCQ8HXSKGK82:AUTHORISATION:false', 'QFQTPCQ8HXSKGK82'],
    ]);
  });
});
