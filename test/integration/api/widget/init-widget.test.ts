/**
 * POST /api/widget/init over HTTP: A's unwrapped body for a customer with an open failed payment
 * (by our id or the provider's), nothing owed otherwise; the signature checked in full (genuine,
 * fresh within 300 s, accepted once, the merchant's own secret); bad input 400/422 with `param`,
 * never a 500. The per-IP limit has a file of its own (init-widget-rate-limit.test.ts): every
 * request here shares 127.0.0.1's window, so this file stays under 30.
 */
import { WidgetInitResponse } from '#api/widget/schemas';
import { signWidget } from '#core/hosted';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { customerBodyOf } from '#core/customers';
import { documentClient } from '#data/client';
import { getCustomer } from '#data/customer-repository';
import { customerKeys } from '#data/keys';
import { setBranding } from '#data/hosted-settings-repository';
import { createMerchant } from '#data/merchant-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { rotateWidgetSecret } from '#services/widget';
import { call } from '#test/fixtures/http';
import { originOf, startTestStack } from '#test/fixtures/local-stack';
import { env } from '#shared/env';
import { HARD_DECLINE, seedPayment, seedPaymentThrough } from '#test/fixtures/payments';

/** Makes a customer look as it was written before it carried its open payments. */
async function forgetOpenPaymentRefs(merchantId: string, customerId: string): Promise<void> {
  const body = customerBodyOf(customerId) as string;
  await documentClient.send(
    new UpdateCommand({ TableName: env.TABLE_NAME, Key: customerKeys.customer(merchantId, body), UpdateExpression: 'REMOVE open_payment_refs' }),
  );
}

interface InitBody {
  has_failed_payment: boolean;
  amount_cents: number;
  currency: string | null;
  update_url: string | null;
  branding: { logo_url: string | null; primary_color: string | null; merchant_name: string | null };
  error?: { code: string; message: string; param?: string };
}

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

describe('POST /api/widget/init', () => {
  let stack: LocalStack;
  const url = (): string => `${originOf(stack)}/api/widget/init`;
  const init = (body: unknown, headers?: Record<string, string>) => call<InitBody>(url(), { method: 'POST', body, ...(headers ? { headers } : {}) });

  /** A merchant with a widget secret, and the body its server would sign for a customer now (or at `timestamp`). */
  async function signedMerchant(name = 'Widget Co') {
    const merchant = await createMerchant({ name });
    const { widget_secret: secret } = await rotateWidgetSecret(merchant.id);
    const signed = (customerId: string, timestamp = nowSeconds()) => ({
      merchant_id: merchant.id,
      customer_id: customerId,
      timestamp,
      signature: signWidget(secret, merchant.id, customerId, timestamp),
    });
    return { merchant, secret, signed };
  }

  beforeAll(async () => {
    stack = await startTestStack();
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  it("answers the customer's open failed payment, its link and the branding, unwrapped, readable from the merchant's origin", async () => {
    // Prepare
    const { merchant, signed } = await signedMerchant('Acme Streaming');
    await setBranding(merchant.id, { primary_color: '#aa3300', logo_url: 'https://cdn.example.com/acme.png' });
    const payment = await seedPayment(merchant.id, { ...HARD_DECLINE, amount: 1999, currency: 'eur', customer: { email: 'ada@example.com', name: 'Ada' } });
    // Act
    const response = await init(signed(payment.customer_id), { Origin: 'https://shop.example.com' });
    // Assess
    expect(response.status).toBe(200);
    expect(WidgetInitResponse.safeParse(response.body).success).toBe(true);
    expect(response.body).toEqual({
      has_failed_payment: true,
      amount_cents: 1999,
      currency: 'eur',
      update_url: expect.stringMatching(new RegExp(`^${originOf(stack)}/update-payment/[A-Za-z0-9_-]{43}$`)),
      branding: { logo_url: 'https://cdn.example.com/acme.png', primary_color: '#aa3300', merchant_name: 'Acme Streaming' },
    });
    expect(response.headers.get('access-control-allow-origin')).toBe('https://shop.example.com');
    expect(response.headers.get('vary')).toBe('Origin');
  });

  it("finds the customer by the provider's customer id too", async () => {
    // Prepare
    const { merchant, signed } = await signedMerchant();
    await seedPayment(merchant.id, {
      amount: 500,
      currency: 'jpy',
      customer: { email: 'kenji@example.com', name: 'Kenji', psp: 'stripe', provider_customer_id: 'cus_Stripe42' },
    });
    // Act
    const response = await init(signed('cus_Stripe42'));
    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ has_failed_payment: true, amount_cents: 500, currency: 'jpy' });
  });

  it('answers the newest payment still open, from the list its customer carries or, for a customer written before it, from its payments', async () => {
    // Prepare: three failed payments of one customer; the newest is recovered
    const { merchant, signed } = await signedMerchant();
    const customer = { email: 'grace@example.com', name: 'Grace' };
    const at = (day: number) => new Date(`2026-11-0${day}T10:00:00.000Z`);
    await seedPayment(merchant.id, { amount: 700, currency: 'usd', customer }, at(1));
    const middle = await seedPayment(merchant.id, { amount: 800, currency: 'gbp', customer }, at(2));
    await seedPaymentThrough(merchant.id, ['recover'], { amount: 900, currency: 'usd', customer }, at(3));
    const carried = (await getCustomer(merchant.id, middle.customer_id))?.open_payment_refs;
    const signedAt = nowSeconds();
    // Act: two signatures one second apart, so the second is not a replay of the first
    const fromList = await init(signed(middle.customer_id, signedAt));
    await forgetOpenPaymentRefs(merchant.id, middle.customer_id);
    const fromPayments = await init(signed(middle.customer_id, signedAt - 1));
    // Assess
    expect(carried?.map((ref) => ref.id)).toEqual([middle.id, expect.any(String)]);
    for (const response of [fromList, fromPayments]) {
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ has_failed_payment: true, amount_cents: 800, currency: 'gbp' });
    }
  });

  it('answers nothing owed for a customer it does not know (revealing nothing else)', async () => {
    // Prepare
    const { signed } = await signedMerchant('Quiet Co');
    // Act
    const response = await init(signed('cus_nobody'));
    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      has_failed_payment: false,
      amount_cents: 0,
      currency: null,
      update_url: null,
      branding: { logo_url: null, primary_color: null, merchant_name: 'Quiet Co' },
    });
  });

  it('accepts a signature once: the replay is 401 invalid_signature', async () => {
    // Prepare
    const { signed } = await signedMerchant();
    const body = signed('cus_replay');
    // Act
    const first = await init(body);
    const replay = await init(body, { Origin: 'https://shop.example.com' });
    // Assess
    expect(first.status).toBe(200);
    expect(replay.status).toBe(401);
    expect(replay.body.error).toMatchObject({ code: 'invalid_signature', param: 'signature' });
    expect(replay.body.error?.message).toContain('used already');
    expect(replay.headers.get('access-control-allow-origin')).toBe('https://shop.example.com');
  });

  it.each([
    ['301 s in the past', -301],
    ['301 s in the future', 301],
  ])('refuses a timestamp %s (401), and accepts one 290 s away', async (_label, offset) => {
    // Prepare
    const { signed } = await signedMerchant();
    // Act
    const stale = await init(signed('cus_skew', nowSeconds() + offset));
    const fresh = await init(signed('cus_skew', nowSeconds() + Math.sign(offset) * 290));
    // Assess
    expect(stale.status).toBe(401);
    expect(stale.body.error).toMatchObject({ code: 'invalid_signature', param: 'timestamp' });
    expect(fresh.status).toBe(200);
  });

  it("refuses a wrong signature, another merchant's secret, an altered field, and a merchant without a secret (401)", async () => {
    // Prepare
    const ours = await signedMerchant();
    const theirs = await signedMerchant();
    const unsigned = await createMerchant({ name: 'No Secret Co' });
    const timestamp = nowSeconds();
    const good = ours.signed('cus_1', timestamp);
    // Act
    const responses = await Promise.all([
      init({ ...good, signature: 'ab'.repeat(32) }),
      init({ ...good, signature: theirs.signed('cus_1', timestamp).signature }),
      init({ ...good, customer_id: 'cus_2' }),
      init({ ...good, merchant_id: unsigned.id, signature: signWidget('guess', unsigned.id, 'cus_1', timestamp) }),
    ]);
    // Assess
    expect(responses.map((response) => [response.status, response.body.error?.code])).toEqual(Array(4).fill([401, 'invalid_signature']));
  });

  it.each([
    ['a missing signature', (body: Record<string, unknown>) => ({ ...body, signature: undefined }), 400, 'invalid_request', 'signature'],
    ['a timestamp that is not an integer', (body: Record<string, unknown>) => ({ ...body, timestamp: 1764000000.5 }), 422, 'validation_error', 'timestamp'],
    ['a timestamp as a string', (body: Record<string, unknown>) => ({ ...body, timestamp: '1764000000' }), 422, 'validation_error', 'timestamp'],
    ['a signature of the wrong length', (body: Record<string, unknown>) => ({ ...body, signature: 'ab'.repeat(31) }), 422, 'validation_error', 'signature'],
    ['a 10 KB customer id', (body: Record<string, unknown>) => ({ ...body, customer_id: 'c'.repeat(10_240) }), 422, 'validation_error', 'customer_id'],
    [
      'a __proto__ key',
      (body: Record<string, unknown>) => JSON.parse(`{"__proto__":{"x":1},"merchant_id":"${body.merchant_id}"}`),
      400,
      'invalid_request',
      '__proto__',
    ],
  ])('refuses %s with the error envelope naming the field', async (_label, alter, status, code, param) => {
    // Prepare
    const { signed } = await signedMerchant();
    // Act
    const response = await init(alter(signed('cus_bad')));
    // Assess
    expect(response.status).toBe(status);
    expect(response.body.error).toMatchObject({ code, param });
  });

  it('refuses a body that is not JSON with 400', async () => {
    // Act
    const response = await call<InitBody>(url(), { method: 'POST', rawBody: 'merchant_id=x', headers: { 'Content-Type': 'text/plain' } });
    // Assess
    expect(response.status).toBe(400);
    expect(response.body.error?.code).toBe('invalid_request');
  });
});
