/**
 * One-click unsubscribe and the engagement analytics: the first unsubscribe is attributed to the
 * message whose link was used (`unsubscribed_at` on it, which the MSG projection counts); a later
 * use of another message's link changes nothing.
 */
import { createMerchant } from '#data/merchant-repository';
import { createMessage, getMessage } from '#data/message-repository';
import { linksFor } from '#services/message-links';
import { unsubscribeByToken } from '#services/unsubscribe';
import { seedPaymentThrough } from '#test/fixtures/payments';

const tokenOf = (url: string): string => url.slice(url.lastIndexOf('/') + 1);

describe('unsubscribeByToken', () => {
  it('sets unsubscribed_at once, on the message whose link was used first, and on no other', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Unsub Co' });
    const payment = await seedPaymentThrough(merchant.id, [], { customer: { email: 'ada@example.com', name: 'Ada' } });
    const base = {
      merchantId: merchant.id,
      customerId: payment.customer_id,
      paymentId: payment.id,
      recoveryId: payment.recovery_id,
      to: payment.customer_email,
    };
    const first = await createMessage({ ...base, channel: 'email', purpose: 'dunning' });
    const second = await createMessage({ ...base, channel: 'email', purpose: 'dunning' });
    const now = new Date('2026-03-04T05:06:07.000Z');

    // Act
    const used = await unsubscribeByToken(tokenOf((await linksFor(first)).unsubscribe_url), now);
    const again = await unsubscribeByToken(tokenOf((await linksFor(second)).unsubscribe_url), new Date(now.getTime() + 60_000));
    const sameLinkAgain = await unsubscribeByToken(tokenOf((await linksFor(first)).unsubscribe_url), new Date(now.getTime() + 120_000));

    // Assess
    expect(used).toMatchObject({ outcome: 'unsubscribed', alreadyUnsubscribed: false });
    expect(again).toMatchObject({ outcome: 'unsubscribed', alreadyUnsubscribed: true });
    expect(sameLinkAgain).toMatchObject({ outcome: 'unsubscribed', alreadyUnsubscribed: true });
    expect((await getMessage(merchant.id, first.id))?.unsubscribed_at).toBe(now.toISOString());
    expect((await getMessage(merchant.id, second.id))?.unsubscribed_at).toBeUndefined();
  });
});
