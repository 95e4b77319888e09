/**
 * The hosted cancel page (GET /cancel/{token}) in headless Chromium: a customer answers the
 * survey, is branched to an offer, declines and cancels; another accepts an offer (saved); a
 * keyboard-only walk under the page's strict Content-Security-Policy; an axe audit with no serious
 * violation on every step; a link that holds no token shows its own 400 page. Screenshots go
 * where `screenshotPath` says (`.local/test-output/e2e/`, or TEST_OUTPUT_DIR), as `cancel-flow-*.png`;
 * the README's `docs/images/cancel-page-offer.png` is a copy of `cancel-flow-2-discount-offer.png`.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { LocalStack } from '#lib/local/local-stack';
import { contrastRatio, parseHexColor } from '#core/contrast';
import { setBranding } from '#data/hosted-settings-repository';
import { launchBrowser, screenshotPath, seriousAxeViolations } from '#test/fixtures/browser';
import { createFlow, SURVEY_FLOW } from '#test/fixtures/cancel-flows';
import { seedCustomerPayment } from '#test/fixtures/customers';
import { call } from '#test/fixtures/http';
import { originOf, startTestStack } from '#test/fixtures/local-stack';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

interface Started {
  data: { token: string; url: string };
}
interface SessionBody {
  data: { state: string; outcome: string | null; accepted_offer: { type: string } | null; reason: string | null };
}

describe('the hosted cancel page', () => {
  let stack: LocalStack;
  let browser: Browser;
  let tenant: Tenant;

  /** A new customer's session of the tenant's (or another merchant's) active flow: its token and page URL. */
  async function startSession(of: Tenant = tenant): Promise<Started['data']> {
    const customer = await seedCustomerPayment(of.merchant.id, { email: `e2e${Math.random().toString(36).slice(2, 8)}@example.com` });
    const started = await call<Started>(`${originOf(stack)}/api/cancel-session/start`, {
      method: 'POST',
      key: of.key,
      body: { merchant_id: of.merchant.id, customer_id: customer.customer_id },
    });
    return started.body.data;
  }

  const sessionOf = async (token: string) => (await call<SessionBody>(`${originOf(stack)}/api/cancel-session/${token}`)).body.data;

  /** Clicks and waits for the reload that shows the next step. */
  async function submit(page: Page, action: () => Promise<void>): Promise<void> {
    await Promise.all([page.waitForEvent('load'), action()]);
  }

  async function expectAccessible(page: Page, shot: string): Promise<void> {
    await page.screenshot({ path: screenshotPath(`cancel-flow-${shot}.png`), fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
  }

  /** axe is injected as a script tag, which the page's CSP would refuse: audits run in a context that bypasses it. */
  const auditContext = (): Promise<BrowserContext> => browser.newContext({ bypassCSP: true });

  beforeAll(async () => {
    stack = await startTestStack();
    browser = await launchBrowser();
    tenant = await newTenant(['admin'], UNLIMITED);
    // The name its customers know it by (the page's header, and the README's screenshot).
    await setBranding(tenant.merchant.id, { merchant_name: 'Acme Fitness' });
    await createFlow(stack.api_url, tenant, SURVEY_FLOW, true);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('walks a survey to the offer it branches to; the customer declines and cancels; every step passes axe', async () => {
    // Prepare
    const { token, url } = await startSession();
    const context = await auditContext();
    const page = await context.newPage();
    // Act and assess, step by step
    await page.goto(url);
    await expect(page.locator('h1').textContent()).resolves.toBe('Why do you want to cancel?');
    await expectAccessible(page, '1-survey');
    await page.getByLabel('It is too expensive').check();
    await submit(page, () => page.getByRole('button', { name: 'Continue' }).click());
    await expect(page.locator('.offer').textContent()).resolves.toBe('30% off for 3 months');
    await expectAccessible(page, '2-discount-offer');
    await submit(page, () => page.getByRole('button', { name: 'No thanks, continue to cancel' }).click());
    await expect(page.locator('h1').textContent()).resolves.toBe('Take a break instead');
    await expectAccessible(page, '3-pause-offer');
    await submit(page, () => page.getByRole('button', { name: 'No thanks, continue to cancel' }).click());
    await expect(page.locator('h1').textContent()).resolves.toBe('Confirm your cancellation');
    await expectAccessible(page, '4-confirm');
    await submit(page, () => page.getByRole('button', { name: 'Cancel my subscription' }).click());
    await expect(page.locator('h1').textContent()).resolves.toBe('Your cancellation is confirmed');
    await expectAccessible(page, '5-cancelled');
    expect(await sessionOf(token)).toMatchObject({ state: 'completed', outcome: 'cancelled', reason: 'too_expensive', accepted_offer: null });
    await context.close();
  }, 90_000);

  it("shows the merchant's branding: its name, and its colour darkened until white text on it reads at 4.5:1", async () => {
    // Prepare: a merchant whose brand yellow fails contrast with white text
    const branded = await newTenant(['admin'], UNLIMITED);
    await createFlow(stack.api_url, branded, SURVEY_FLOW, true);
    await setBranding(branded.merchant.id, { merchant_name: 'Sunbeam Yoga', primary_color: '#fde047' });
    const { url } = await startSession(branded);
    const context = await auditContext();
    const page = await context.newPage();
    // Act
    await page.goto(url);
    const header = await page.locator('header').textContent();
    // The page's style sets `:root{--brand:<colour>}`.
    const brand = ((await page.locator('style').first().textContent()) ?? '').match(/--brand:(#[0-9a-fA-F]{6})/)?.[1] ?? '';
    // Assess
    expect(header).toContain('Sunbeam Yoga');
    expect(brand).toMatch(/^#[0-9a-f]{6}$/i);
    expect(brand.toLowerCase()).not.toBe('#fde047');
    expect(contrastRatio(parseHexColor(brand) ?? [0, 0, 0], [255, 255, 255])).toBeGreaterThanOrEqual(4.5);
    await expectAccessible(page, '0-branded');
    await context.close();
  }, 60_000);

  it('saves a customer who accepts the offer their answer leads to', async () => {
    // Prepare
    const { token, url } = await startSession();
    const context = await auditContext();
    const page = await context.newPage();
    // Act
    await page.goto(url);
    await page.getByLabel('I am taking a break').check();
    await submit(page, () => page.getByRole('button', { name: 'Continue' }).click());
    const offer = await page.locator('.offer').textContent();
    await submit(page, () => page.getByRole('button', { name: 'Accept offer' }).click());
    // Assess
    expect(offer).toBe('Pause your subscription for 2 months');
    await expect(page.locator('h1').textContent()).resolves.toBe('Your subscription will be paused');
    await expectAccessible(page, '6-saved');
    expect(await sessionOf(token)).toMatchObject({ state: 'completed', outcome: 'saved_pause', accepted_offer: { type: 'pause' } });
    await context.close();
  }, 60_000);

  it('works with the keyboard alone under its strict Content-Security-Policy, focus visible and moved to each new step', async () => {
    // Prepare
    const { token, url } = await startSession();
    const page = await browser.newPage();
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') blocked.push(message.text());
    });
    // Act
    const response = await page.goto(url);
    await page.keyboard.press('Tab');
    const firstFocus = await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { id: string } } }).document.activeElement.id);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    const outline = await page.evaluate(() => {
      const doc = (globalThis as unknown as { document: { activeElement: unknown } }).document;
      return (globalThis as unknown as { getComputedStyle(e: unknown): { outlineStyle: string } }).getComputedStyle(doc.activeElement).outlineStyle;
    });
    await submit(page, () => page.keyboard.press('Enter'));
    const focusedAfterStep = await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { id: string } } }).document.activeElement.id);
    await page.keyboard.press('Tab');
    await submit(page, () => page.keyboard.press('Enter'));
    // Assess
    expect(response?.headers()['content-security-policy']).toMatch(/default-src 'none'; script-src 'nonce-[^']+'; style-src 'nonce-[^']+'; connect-src 'self'/);
    expect(firstFocus).toBe('reason-0');
    expect(outline).not.toBe('none');
    expect(focusedAfterStep).toBe('title');
    await expect(page.locator('h1').textContent()).resolves.toBe('Your subscription will be paused');
    expect(await sessionOf(token)).toMatchObject({ outcome: 'saved_pause', reason: 'taking_a_break' });
    expect(blocked).toEqual([]);
    await page.close();
  }, 60_000);

  it('shows an accessible 404 page for a token that opens no session, and a 400 page for a link that holds no token', async () => {
    // Prepare
    const context = await auditContext();
    const page = await context.newPage();
    const { token } = await startSession();
    // Act and assess
    const unknown = await page.goto(`${originOf(stack)}/cancel/${'A'.repeat(43)}`);
    expect(unknown?.status()).toBe(404);
    await expect(page.locator('h1').textContent()).resolves.toBe('This link has expired');
    await expectAccessible(page, '7-expired');
    // A link with a character more than the token (pasted with what followed it) holds no token.
    const lengthened = await page.goto(`${originOf(stack)}/cancel/${token}x`);
    expect(lengthened?.status()).toBe(400);
    await expect(page.locator('h1').textContent()).resolves.toBe('This link is not complete');
    await expectAccessible(page, '8-invalid-link');
    await context.close();
  }, 30_000);
});
