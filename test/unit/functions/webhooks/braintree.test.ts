import { braintreeWebhook } from '#webhooks/braintree';
import { type InboundWebhook, WebhookPayloadError } from '#webhooks/types';

/** The part of the braintree SDK these tests use (it ships no type declarations). */
interface BraintreeGateway {
  readonly webhookTesting: {
    sampleNotification(kind: string, id: string): { bt_signature: string; bt_payload: string };
    sampleSignature(payload: string): string;
  };
  readonly webhookNotification: { parse(signature: string, payload: string): Promise<{ kind: string; subscription?: { id: string } }> };
}
interface BraintreeSdk {
  readonly BraintreeGateway: new (config: { environment: unknown; merchantId: string; publicKey: string; privateKey: string }) => BraintreeGateway;
  readonly Environment: { readonly Sandbox: unknown };
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const braintree = require('braintree') as BraintreeSdk;

const PUBLIC_KEY = 'k8x2fz7p4r9dq3wm';
const PRIVATE_KEY = '5b0f3c1e9a7d2b8c4e6f0a1d3c5e7b9f';
const SECRET = `${PUBLIC_KEY}:${PRIVATE_KEY}`;
const NOW = new Date('2026-03-10T12:00:00Z');

// No network: sampleNotification and sampleSignature only compute HMACs.
const gatewayFor = (publicKey: string, privateKey: string): BraintreeGateway =>
  new braintree.BraintreeGateway({ environment: braintree.Environment.Sandbox, merchantId: 'merchant_1', publicKey, privateKey });
const gateway = gatewayFor(PUBLIC_KEY, PRIVATE_KEY);

const inbound = (fields: Record<string, string>): InboundWebhook => ({
  rawBody: Buffer.from(new URLSearchParams(fields).toString(), 'utf8'),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  url: 'https://recovery.example.com/braintree/merchant_1',
});

/** A notification of our own XML, signed by the SDK's own signer (as sampleNotification signs its samples). */
const signedXml = (xml: string): InboundWebhook => {
  const payload = `${Buffer.from(xml, 'utf8').toString('base64')}\n`;
  return inbound({ bt_signature: gateway.webhookTesting.sampleSignature(payload), bt_payload: payload });
};

/** subscription_charged_unsuccessfully with a processor-declined transaction, in Braintree's gateway XML. */
const chargedUnsuccessfully = `<notification>
  <timestamp type="datetime">2026-03-10T11:59:57Z</timestamp>
  <kind>subscription_charged_unsuccessfully</kind>
  <subject>
    <subscription>
      <id>gold_monthly_4417</id>
      <status>Past Due</status>
      <failure-count type="integer">1</failure-count>
      <price>49.99</price>
      <transactions type="array">
        <transaction>
          <id>7v3p2kqm</id>
          <status>processor_declined</status>
          <type>sale</type>
          <currency-iso-code>USD</currency-iso-code>
          <amount>49.99</amount>
          <processor-response-code>2001</processor-response-code>
          <processor-response-text>Insufficient Funds</processor-response-text>
          <processor-response-type>soft_declined</processor-response-type>
          <additional-processor-response>51 : INSUFFICIENT FUNDS</additional-processor-response>
          <merchant-advice-code nil="true"/>
          <subscription-id>gold_monthly_4417</subscription-id>
          <customer>
            <id>cust_4417</id>
            <first-name>Ada</first-name>
            <last-name>Lovelace</last-name>
            <email>ada@example.com</email>
          </customer>
          <credit-card>
            <card-type>Visa</card-type>
            <last-4>1881</last-4>
          </credit-card>
        </transaction>
      </transactions>
      <add_ons type="array"/>
      <discounts type="array"/>
    </subscription>
  </subject>
</notification>`;

describe('braintree webhook', () => {
  it('accepts a delivery when the SDK built and signed it with the key pair', async () => {
    // Prepare
    const sample = gateway.webhookTesting.sampleNotification('subscription_charged_unsuccessfully', 'sub_123');
    // Act
    const verification = await braintreeWebhook.verify(inbound(sample), { secret: SECRET }, NOW);
    // Assess
    expect(verification).toEqual({ ok: true });
    await expect(gateway.webhookNotification.parse(sample.bt_signature, sample.bt_payload)).resolves.toMatchObject({
      kind: 'subscription_charged_unsuccessfully',
    });
  });

  it('refuses a delivery when bt_payload was changed after signing', async () => {
    // Prepare
    const sample = gateway.webhookTesting.sampleNotification('subscription_charged_unsuccessfully', 'sub_123');
    const forged = Buffer.from(Buffer.from(sample.bt_payload, 'base64').toString('utf8').replace('49.99', '0.01')).toString('base64');
    // Act
    const verification = await braintreeWebhook.verify(inbound({ bt_signature: sample.bt_signature, bt_payload: forged }), { secret: SECRET }, NOW);
    // Assess
    expect(verification).toEqual({ ok: false, reason: 'bt_signature does not match bt_payload' });
  });

  it('refuses a delivery when it was signed with another private key', async () => {
    // Prepare
    const sample = gatewayFor(PUBLIC_KEY, 'another-private-key').webhookTesting.sampleNotification('subscription_charged_unsuccessfully', 'sub_123');
    // Act
    const verification = await braintreeWebhook.verify(inbound(sample), { secret: SECRET }, NOW);
    // Assess
    expect(verification.ok).toBe(false);
  });

  it('refuses a delivery when its signature names another public key', async () => {
    // Prepare
    const sample = gatewayFor('someone_else', PRIVATE_KEY).webhookTesting.sampleNotification('subscription_charged_unsuccessfully', 'sub_123');
    // Act
    const verification = await braintreeWebhook.verify(inbound(sample), { secret: SECRET }, NOW);
    // Assess
    expect(verification).toEqual({ ok: false, reason: 'bt_signature has no signature for this public key' });
  });

  it('refuses a delivery when bt_signature is missing', async () => {
    // Prepare
    const sample = gateway.webhookTesting.sampleNotification('subscription_charged_unsuccessfully', 'sub_123');
    // Act
    const verification = await braintreeWebhook.verify(inbound({ bt_payload: sample.bt_payload }), { secret: SECRET }, NOW);
    // Assess
    expect(verification).toEqual({ ok: false, reason: 'missing bt_signature' });
  });

  it('refuses without throwing when the form, payload or configured secret is garbage', async () => {
    // Prepare
    const sample = gateway.webhookTesting.sampleNotification('subscription_charged_unsuccessfully', 'sub_123');
    const cases: Array<[InboundWebhook, string]> = [
      [{ ...inbound({}), rawBody: Buffer.from('%%%&&&===') }, SECRET],
      [inbound({ bt_signature: sample.bt_signature, bt_payload: '<notification/>' }), SECRET],
      [inbound({ bt_signature: `${PUBLIC_KEY}|`, bt_payload: sample.bt_payload }), SECRET],
      [inbound({ bt_signature: `${PUBLIC_KEY}|${'a'.repeat(4000)}`, bt_payload: sample.bt_payload }), SECRET],
      [inbound(sample), 'no-colon-here'],
    ];
    // Act
    const verifications = await Promise.all(cases.map(([request, secret]) => braintreeWebhook.verify(request, { secret }, NOW)));
    // Assess
    expect(verifications.map((verification) => verification.ok)).toEqual([false, false, false, false, false]);
    expect(JSON.stringify(verifications)).not.toContain(PRIVATE_KEY);
  });

  it('maps the notification to payment_failed with the processor response code and customer when a subscription charge fails', async () => {
    // Prepare
    const request = signedXml(chargedUnsuccessfully);
    const fields = new URLSearchParams(request.rawBody.toString('utf8'));
    // Act
    const events = braintreeWebhook.normalise(request);
    // Assess
    await expect(gateway.webhookNotification.parse(fields.get('bt_signature') ?? '', fields.get('bt_payload') ?? '')).resolves.toMatchObject({
      kind: 'subscription_charged_unsuccessfully',
      subscription: { id: 'gold_monthly_4417' },
    });
    expect(events).toEqual([
      {
        psp: 'braintree',
        providerEventId: expect.stringMatching(/^[0-9a-f]{64}$/),
        type: 'payment_failed',
        occurredAt: '2026-03-10T11:59:57Z',
        payment: {
          providerPaymentId: '7v3p2kqm',
          amount: 4999,
          currency: 'usd',
          declineCode: '2001',
          networkCode: '51',
          network: 'visa',
          subscriptionId: 'gold_monthly_4417',
        },
        customer: { providerCustomerId: 'cust_4417', email: 'ada@example.com', name: 'Ada Lovelace' },
      },
    ]);
  });

  it('keeps the same providerEventId when the same notification is redelivered', () => {
    // Act
    const [first] = braintreeWebhook.normalise(signedXml(chargedUnsuccessfully));
    const [again] = braintreeWebhook.normalise(signedXml(chargedUnsuccessfully));
    // Assess
    expect(again?.providerEventId).toBe(first?.providerEventId);
  });

  it('maps the SDK sample to payment_succeeded for the subscription when a subscription charge succeeds', () => {
    // Prepare
    const sample = gateway.webhookTesting.sampleNotification('subscription_charged_successfully', 'sub_123');
    // Act
    const events = braintreeWebhook.normalise(inbound(sample));
    // Assess
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ psp: 'braintree', type: 'payment_succeeded', payment: { subscriptionId: 'sub_123' } });
    expect(events[0]?.payment?.declineCode).toBeUndefined();
  });

  it('returns no events when the notification kind is one the service does not use', () => {
    // Prepare
    const sample = gateway.webhookTesting.sampleNotification('disbursement', 'disb_1');
    // Act
    const events = braintreeWebhook.normalise(inbound(sample));
    // Assess
    expect(events).toEqual([]);
  });

  it('throws WebhookPayloadError when a verified payload is not a well-formed notification', () => {
    // Prepare
    const malformed = signedXml('<notification><kind>subscription_canceled</kind>');
    const noSubject = signedXml('<notification><kind>subscription_canceled</kind></notification>');
    // Act
    const readMalformed = (): unknown => braintreeWebhook.normalise(malformed);
    const readNoSubject = (): unknown => braintreeWebhook.normalise(noSubject);
    // Assess
    expect(readMalformed).toThrow(WebhookPayloadError);
    expect(readNoSubject).toThrow(WebhookPayloadError);
  });
});

describe('braintree notifications of one failed subscription charge', () => {
  // A failed renewal sends subscription_charged_unsuccessfully and, as the subscription turns
  // Past Due, subscription_went_past_due; both list the subscription's transactions newest first,
  // the failed charge ahead of the last successful one.
  const notification = (kind: string, timestamp: string): string => `<notification>
  <timestamp type="datetime">${timestamp}</timestamp>
  <kind>${kind}</kind>
  <subject>
    <subscription>
      <id>gold_monthly_4417</id>
      <status>Past Due</status>
      <failure-count type="integer">1</failure-count>
      <days-past-due type="integer">0</days-past-due>
      <price>49.99</price>
      <transactions type="array">
        <transaction>
          <id>7v3p2kqm</id>
          <status>processor_declined</status>
          <type>sale</type>
          <currency-iso-code>USD</currency-iso-code>
          <amount>49.99</amount>
          <processor-response-code>2001</processor-response-code>
          <subscription-id>gold_monthly_4417</subscription-id>
          <customer><id>cust_4417</id><email>ada@example.com</email></customer>
        </transaction>
        <transaction>
          <id>3mq8wz1d</id>
          <status>settled</status>
          <type>sale</type>
          <currency-iso-code>USD</currency-iso-code>
          <amount>49.99</amount>
          <processor-response-code>1000</processor-response-code>
          <subscription-id>gold_monthly_4417</subscription-id>
          <customer><id>cust_4417</id><email>ada@example.com</email></customer>
        </transaction>
      </transactions>
    </subscription>
  </subject>
</notification>`;

  it('names the failed transaction as the payment of subscription_charged_unsuccessfully and subscription_went_past_due', () => {
    // Prepare
    const deliveries = [
      notification('subscription_charged_unsuccessfully', '2026-03-10T11:59:57Z'),
      notification('subscription_went_past_due', '2026-03-10T11:59:58Z'),
    ];
    // Act
    const events = deliveries.flatMap((xml) => braintreeWebhook.normalise(signedXml(xml)));
    // Assess
    expect(events.map((event) => event.type)).toEqual(['payment_failed', 'payment_failed']);
    expect(new Set(events.map((event) => event.providerEventId)).size).toBe(2);
    expect(events.map((event) => [event.payment?.providerPaymentId, event.payment?.amount, event.payment?.declineCode])).toEqual([
      ['7v3p2kqm', 4999, '2001'],
      ['7v3p2kqm', 4999, '2001'],
    ]);
  });
});
