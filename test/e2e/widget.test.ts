/**
 * The recovery widget end to end, in Debian's Chromium: a merchant's page (a loopback server of
 * its own, another origin than the edge host) includes `/widget.js` with attributes its server
 * signed; the banner shows the amount owed; the dialog opens from the keyboard, keeps focus inside,
 * closes on Esc and gives focus back; its link goes through `/update-payment/{token}`, which
 * records the click and hands over to the merchant's provider page (another loopback server). The
 * banner, the dialog and the update page's error page pass the axe audit with no serious
 * violation. Screenshots go where `screenshotPath` says: `.local/test-output/e2e/` (or TEST_OUTPUT_DIR).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { sha256Hex, signWidget } from '#core/hosted';
import { setBranding, setUpdatePaymentPage } from '#data/hosted-settings-repository';
import { createMerchant } from '#data/merchant-repository';
import { getUpdatePaymentLink } from '#data/update-payment-token-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { rotateWidgetSecret } from '#services/widget';
import { launchBrowser, screenshotPath, seriousAxeViolations } from '#test/fixtures/browser';
import { originOf, startTestStack } from '#test/fixtures/local-stack';
import { HARD_DECLINE, seedPayment } from '#test/fixtures/payments';

/** A loopback server answering every GET with the page `render` makes. */
async function pageServer(render: () => string): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(render());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('the recovery widget in Chromium', () => {
  let stack: LocalStack;
  let browser: Browser;
  const servers: Server[] = [];

  beforeAll(async () => {
    stack = await startTestStack();
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    for (const server of servers) server.close();
    await stack?.stop();
  });

  const focusedText = (page: Page): Promise<string | null> =>
    page.evaluate(
      () => (globalThis as unknown as { document: { activeElement: { textContent: string | null } | null } }).document.activeElement?.textContent ?? null,
    );
  const focusInDialog = (page: Page): Promise<boolean> =>
    page.evaluate(() => {
      const doc = (globalThis as unknown as { document: { activeElement: unknown; querySelector(s: string): { contains(n: unknown): boolean } | null } })
        .document;
      return doc.querySelector('[role="dialog"]')?.contains(doc.activeElement) ?? false;
    });

  it('shows the banner, opens the dialog from the keyboard, and hands over to the provider page through the update link', async () => {
    // Prepare: the merchant (secret, branding, provider page), a customer owing $49.99, and the merchant's page signing per view.
    const merchant = await createMerchant({ name: 'Streamly' });
    const { widget_secret: secret } = await rotateWidgetSecret(merchant.id);
    await setBranding(merchant.id, { primary_color: '#5b21b6' });
    const provider = await pageServer(
      () => '<!doctype html><html lang="en"><head><title>Provider card page</title></head><body><main><h1>Update your card</h1></main></body></html>',
    );
    servers.push(provider.server);
    await setUpdatePaymentPage(merchant.id, `${provider.url}/card?customer={provider_customer_id}`);
    await seedPayment(merchant.id, {
      ...HARD_DECLINE,
      amount: 4999,
      currency: 'usd',
      customer: { email: 'eve@example.com', name: 'Eve', psp: 'stripe', provider_customer_id: 'cus_Eve' },
    });
    const shop = await pageServer(() => {
      const timestamp = Math.floor(Date.now() / 1000);
      const signature = signWidget(secret, merchant.id, 'cus_Eve', timestamp);
      return [
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Streamly account</title></head><body><main><h1>Your account</h1>',
        `<script src="${originOf(stack)}/widget.js" data-merchant="${merchant.id}" data-customer="cus_Eve" data-timestamp="${timestamp}" data-signature="${signature}" async></script>`,
        '</main></body></html>',
      ].join('');
    });
    servers.push(shop.server);
    const page = await browser.newPage();

    // Act: the banner
    await page.goto(shop.url);
    const banner = page.getByRole('region', { name: 'Payment problem' });
    await banner.waitFor({ timeout: 15_000 });
    const bannerText = await banner.textContent();
    await page.screenshot({ path: screenshotPath('widget-banner.png') });
    const bannerViolations = await seriousAxeViolations(page);
    // Act: the dialog, keyboard only
    await page.keyboard.press('Tab');
    const opener = await focusedText(page);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Update your payment method' });
    await dialog.waitFor();
    const modal = await dialog.getAttribute('aria-modal');
    const dialogText = await dialog.textContent();
    const focusedOnOpen = await focusInDialog(page);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+Tab');
    const focusKeptInside = await focusInDialog(page);
    await page.screenshot({ path: screenshotPath('widget-dialog.png') });
    const dialogViolations = await seriousAxeViolations(page);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    const focusAfterEsc = await focusedText(page);
    // Act: the link, from the keyboard again
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    const href = (await page.getByRole('link', { name: 'Update payment method' }).getAttribute('href')) as string;
    await Promise.all([page.waitForURL(`${provider.url}/**`), page.getByRole('link', { name: 'Update payment method' }).press('Enter')]);
    const landed = page.url();
    const link = await getUpdatePaymentLink(sha256Hex(href.split('/').pop() as string));
    await page.close();

    // Assess
    expect(bannerText).toContain('Your payment of $49.99 failed.');
    expect(bannerViolations).toEqual([]);
    expect(opener).toBe('Update payment method');
    expect(modal).toBe('true');
    expect(dialogText).toContain('$49.99 to Streamly');
    expect(focusedOnOpen).toBe(true);
    expect(focusKeptInside).toBe(true);
    expect(dialogViolations).toEqual([]);
    expect(focusAfterEsc).toBe('Update payment method');
    expect(href).toMatch(new RegExp(`^${originOf(stack)}/update-payment/[A-Za-z0-9_-]{43}$`));
    expect(landed).toBe(`${provider.url}/card?customer=cus_Eve`);
    expect(link).toMatchObject({ merchant_id: merchant.id, clicks: 1, clicked_at: expect.any(String) });
  }, 90_000);

  it('shows nothing when the signature is not accepted', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Forged Co' });
    await rotateWidgetSecret(merchant.id);
    const shop = await pageServer(
      () =>
        `<!doctype html><html lang="en"><head><title>Shop</title></head><body><main><h1>Shop</h1><script src="${originOf(stack)}/widget.js" data-merchant="${merchant.id}" data-customer="cus_x" data-timestamp="${Math.floor(Date.now() / 1000)}" data-signature="${'ab'.repeat(32)}"></script></main></body></html>`,
    );
    servers.push(shop.server);
    const page = await browser.newPage();
    // Act
    const refused = page.waitForResponse((response) => response.url().endsWith('/api/widget/init'));
    await page.goto(shop.url);
    const status = (await refused).status();
    const banners = await page.getByRole('region', { name: 'Payment problem' }).count();
    await page.close();
    // Assess
    expect(status).toBe(401);
    expect(banners).toBe(0);
  }, 60_000);

  it("serves the update page's error page accessibly", async () => {
    // Prepare: axe is injected as a script, which the page's own CSP (no script at all) would refuse.
    const page = await browser.newPage({ bypassCSP: true });
    // Act
    const response = await page.goto(`${originOf(stack)}/update-payment/${'Z'.repeat(43)}`);
    const heading = await page.getByRole('heading', { level: 1 }).textContent();
    await page.screenshot({ path: screenshotPath('update-payment-not-found.png') });
    const violations = await seriousAxeViolations(page);
    await page.close();
    // Assess
    expect(response?.status()).toBe(404);
    expect(heading).toBe('This link has expired or is not valid');
    expect(violations).toEqual([]);
  }, 60_000);

  it('serves the script with a long cache, as JavaScript', async () => {
    // Act
    const response = await fetch(`${originOf(stack)}/widget.js`);
    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=86400, stale-while-revalidate=604800');
    expect(response.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
  });
});
