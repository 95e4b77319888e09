import type { Browser } from 'playwright-core';
import { launchBrowser, seriousAxeViolations } from '#test/fixtures/browser';

/** The browser fixture itself: Debian's Chromium drives a page, and the axe audit finds what it should. */
describe('headless Chromium and the axe audit', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterAll(() => browser.close());

  it('reports a serious violation on an inaccessible page and none on an accessible one', async () => {
    // Prepare
    const page = await browser.newPage();
    // Act
    await page.setContent(
      '<!doctype html><html><head><title>Bad</title></head><body><main><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><input type="text"></main></body></html>',
    );
    const bad = await seriousAxeViolations(page);
    await page.setContent(
      '<!doctype html><html lang="en"><head><title>Good</title></head><body><main><h1>Update your card</h1><label for="n">Name</label><input id="n" type="text"></main></body></html>',
    );
    const good = await seriousAxeViolations(page);
    // Assess
    expect(bad.map((violation) => violation.id)).toEqual(expect.arrayContaining(['image-alt', 'label']));
    expect(good).toEqual([]);
  }, 30_000);
});
