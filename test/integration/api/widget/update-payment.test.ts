/**
 * GET /update-payment/{token} over HTTP: the `update_payment_url` a dunning message carries
 * records the click on the message (the `clicked` delivery event the engagement analytics count,
 * once per link) and hands over (303) to the provider page the merchant configured, its
 * placeholders filled in; an unknown, expired or malformed link is a 404 page; a merchant without a
 * provider page a 503 page. Tokens are stored only as hashes.
 */
import { sha256Hex } from '#core/hosted';
import type { MessageRecord } from '#core/messages';
import { setUpdatePaymentPage } from '#data/hosted-settings-repository';
import { createMerchant } from '#data/merchant-repository';
import { getMessage } from '#data/message-repository';
import { getUpdatePaymentLink, putUpdatePaymentLink } from '#data/update-payment-token-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { linksFor } from '#services/message-links';
import { call } from '#test/fixtures/http';
import { originOf, startTestStack } from '#test/fixtures/local-stack';
import { dunningEmailFor } from '#test/fixtures/messages';
import { seedPayment } from '#test/fixtures/payments';

describe('GET /update-payment/{token}', () => {
  let stack: LocalStack;

  beforeAll(async () => {
    stack = await startTestStack();
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  /** A merchant's dunning email for a failed payment, and the update-payment link it carries. */
  async function dunningLink(page: string | null) {
    const merchant = await createMerchant({ name: 'Link Co' });
    if (page !== null) await setUpdatePaymentPage(merchant.id, page);
    const payment = await seedPayment(merchant.id, { customer: { email: 'lin@example.com', name: 'Lin', psp: 'stripe', provider_customer_id: 'cus_Q 1' } });
    const message = await dunningEmailFor(payment);
    const { update_payment_url: link } = await linksFor(message);
    return { merchant, payment, message, link };
  }

  it("records the click and hands over to the merchant's provider page (303), the token kept from it", async () => {
    // Prepare
    const { merchant, payment, message, link } = await dunningLink('https://billing.example.com/update?customer={provider_customer_id}&ref={payment_id}');
    // Act
    const first = await call(link, { redirect: 'manual' });
    const again = await call(link, { redirect: 'manual' });
    const clicked = (await getMessage(merchant.id, message.id)) as MessageRecord;
    const stored = await getUpdatePaymentLink(sha256Hex(link.split('/').pop() as string));
    // Assess
    expect(link).toMatch(new RegExp(`^${originOf(stack)}/update-payment/[A-Za-z0-9_-]{43}$`));
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe(`https://billing.example.com/update?customer=cus_Q%201&ref=${payment.id}`);
    expect(first.headers.get('referrer-policy')).toBe('no-referrer');
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(again.status).toBe(303);
    expect(clicked).toMatchObject({ delivery_status: 'clicked', clicked_at: expect.any(String) });
    expect(clicked.delivery_events?.filter((event) => event.source === 'update_payment_page')).toHaveLength(1);
    expect(stored).toMatchObject({ clicks: 2, clicked_at: expect.any(String) });
  });

  it('stores the link under the hash of its token only, valid 30 days', async () => {
    // Prepare
    const { message, link } = await dunningLink(null);
    const token = link.split('/').pop() as string;
    // Act
    const stored = await getUpdatePaymentLink(sha256Hex(token));
    // Assess
    expect(stored).toMatchObject({
      merchant_id: message.merchant_id,
      customer_id: message.customer_id,
      message_id: message.id,
      payment_id: message.payment_id,
    });
    expect(JSON.stringify(stored)).not.toContain(token);
    expect((stored?.expires_at ?? 0) - Math.floor(Date.parse(stored?.created_at ?? '') / 1000)).toBe(30 * 24 * 3600);
  });

  it('answers an accessible 503 page when the merchant has configured no provider page, the click still recorded', async () => {
    // Prepare
    const { merchant, message, link } = await dunningLink(null);
    // Act
    const response = await call(link, { redirect: 'manual' });
    // Assess
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.text).toContain('<html lang="en">');
    expect(response.text).toContain('<h1>Payment update is not available right now</h1>');
    expect((await getMessage(merchant.id, message.id))?.clicked_at).toEqual(expect.any(String));
  });

  it('answers a 404 page for an unknown token and for an expired link', async () => {
    // Prepare
    const { message } = await dunningLink('https://billing.example.com/update');
    const expiredToken = 'E'.repeat(43);
    await putUpdatePaymentLink(
      {
        merchant_id: message.merchant_id,
        customer_id: message.customer_id,
        payment_id: null,
        message_id: null,
        created_at: '2026-01-01T00:00:00.000Z',
        expires_at: 1_767_225_600,
      },
      sha256Hex(expiredToken),
    );
    // Act
    const responses = await Promise.all([
      call(`${originOf(stack)}/update-payment/${'U'.repeat(43)}`, { redirect: 'manual' }),
      call(`${originOf(stack)}/update-payment/${expiredToken}`, { redirect: 'manual' }),
      call(`${originOf(stack)}/update-payment/not-a-token`, { redirect: 'manual' }),
    ]);
    // Assess
    for (const response of responses) {
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.text).toContain('<h1>This link has expired or is not valid</h1>');
    }
  });

  it('answers a 10 KB token with 404, never a 500', async () => {
    // Act
    const response = await call<{ error: { code: string } }>(`${originOf(stack)}/update-payment/${'x'.repeat(10_240)}`, { redirect: 'manual' });
    // Assess
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('resource_not_found');
  });
});
