/**
 * GET /api/widget/branding/{merchant_id} (unwrapped, as every widget response) and
 * GET /api/custom-hostname/branding/{merchant_id} (in the envelope) over HTTP: public, cacheable
 * 5 minutes by CloudFront and browsers and kept 5 minutes in the function; the merchant's name
 * when no display name is set; an unknown merchant 404; hostile ids 404, never a 500.
 */
import { BrandingData } from '#api/widget/schemas';
import { getCustomHostnameBrandingSchemas } from '#api/custom-hostname/schemas';
import { setBranding } from '#data/hosted-settings-repository';
import { createMerchant } from '#data/merchant-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { originOf, startTestStack } from '#test/fixtures/local-stack';

interface ErrorBody {
  error?: { code: string; param?: string };
}

describe('branding', () => {
  let stack: LocalStack;
  const widgetUrl = (id: string): string => `${originOf(stack)}/api/widget/branding/${encodeURIComponent(id)}`;
  const hostnameUrl = (id: string): string => `${originOf(stack)}/api/custom-hostname/branding/${encodeURIComponent(id)}`;

  beforeAll(async () => {
    stack = await startTestStack();
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  it('answers the branding set, publicly cacheable 5 minutes, on both hosts', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Acme Ltd' });
    await setBranding(merchant.id, { logo_url: 'https://cdn.example.com/logo.svg', primary_color: '#112233', merchant_name: 'Acme' });
    // Act
    const widget = await call(widgetUrl(merchant.id));
    const hostname = await call<{ data: unknown; meta: { merchant_id: string } }>(hostnameUrl(merchant.id));
    // Assess
    const expected = { logo_url: 'https://cdn.example.com/logo.svg', primary_color: '#112233', merchant_name: 'Acme' };
    expect(widget.status).toBe(200);
    expect(BrandingData.safeParse(widget.body).success).toBe(true);
    expect(widget.body).toEqual(expected);
    expect(widget.headers.get('cache-control')).toBe('public, max-age=300');
    expect(hostname.status).toBe(200);
    expect(getCustomHostnameBrandingSchemas.responses[200].safeParse(hostname.body).success).toBe(true);
    expect(hostname.body.data).toEqual(expected);
    expect(hostname.body.meta.merchant_id).toBe(merchant.id);
    expect(hostname.headers.get('cache-control')).toBe('public, max-age=300');
  });

  it("falls back to the merchant's account name, and keeps an answer 5 minutes in the function", async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Plain Co' });
    // Act
    const first = await call(widgetUrl(merchant.id));
    await setBranding(merchant.id, { merchant_name: 'Renamed' });
    const cached = await call(widgetUrl(merchant.id));
    // Assess
    expect(first.body).toEqual({ logo_url: null, primary_color: null, merchant_name: 'Plain Co' });
    expect(cached.body).toEqual(first.body);
  });

  it.each([
    ['an unknown merchant', 'merch_doesnotexist'],
    ['a 10 KB id', 'm'.repeat(10_240)],
    ['an id with a control character', 'merch_\u0001x'],
  ])('answers 404 for %s on both hosts, never a 500', async (_label, id) => {
    // Act
    const responses = await Promise.all([call<ErrorBody>(widgetUrl(id)), call<ErrorBody>(hostnameUrl(id))]);
    // Assess
    for (const response of responses) {
      expect(response.status).toBe(404);
      expect(response.body.error).toMatchObject({ code: 'resource_not_found', param: 'merchant_id' });
    }
  });
});
