/**
 * The unsubscribe page in a real browser (Debian's Chromium through playwright-core): the link an
 * email carries opens a confirmation page, whose button posts the RFC 8058 one-click body; the
 * customer is then unsubscribed and the page says so. A forged link is a 404 page.
 */
import { type Browser, chromium } from 'playwright-core';
import { getUnsubscribe } from '#data/channel-repository';
import { createMerchant } from '#data/merchant-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { linksFor } from '#services/message-links';
import { startTestStack } from '#test/fixtures/local-stack';
import { dunningEmailFor } from '#test/fixtures/messages';
import { seedPaymentThrough } from '#test/fixtures/payments';

/** Debian's package installs it here (.ci/run installs it); CHROMIUM_PATH points elsewhere. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe('the unsubscribe page in Chromium', () => {
  let stack: LocalStack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startTestStack();
    // --no-sandbox: CI runs as root, where Chromium's sandbox cannot start.
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('confirms, unsubscribes on the button, and says so; the customer then gets nothing', async () => {
    // Prepare: an email's unsubscribe link, as the notifications consumer makes it.
    const merchant = await createMerchant({ name: 'Browser Co' });
    const payment = await seedPaymentThrough(merchant.id, [], { customer: { email: 'grace@example.com', name: 'Grace Hopper' } });
    const message = await dunningEmailFor(payment);
    const { unsubscribe_url: link } = await linksFor(message);
    const page = await browser.newPage();
    const posted: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posted.push(request.postData() ?? '');
    });

    // Act
    const opened = await page.goto(link);
    const before = await getUnsubscribe(merchant.id, payment.customer_id);
    const question = await page.locator('h1').textContent();
    await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Unsubscribe' }).click()]);
    const answer = await page.locator('h1').textContent();
    const after = await getUnsubscribe(merchant.id, payment.customer_id);
    await page.close();

    // Assess
    expect(opened?.status()).toBe(200);
    expect(question).toBe('Unsubscribe');
    expect(before).toBeUndefined();
    expect(posted).toEqual(['List-Unsubscribe=One-Click']);
    expect(answer).toBe('You are unsubscribed');
    expect(after).toMatchObject({ customer_id: payment.customer_id, channel: 'email', message_id: message.id });
  }, 60_000);

  it('answers a forged link with a 404 page and unsubscribes no one', async () => {
    // Prepare
    const page = await browser.newPage();
    // Act
    const opened = await page.goto(`${stack.api_url.replace(/\/api\/v1$/, '')}/unsubscribe/eyJmb3JnZWQiOnRydWV9.${'A'.repeat(43)}`);
    // Assess
    expect(opened?.status()).toBe(404);
    await page.close();
  }, 60_000);
});
