import { cancelPage, offerText, pagePolicy } from '#api/cancel-sessions/page';
import { normaliseSteps } from '#core/cancel-flows';
import { accessibleBrandColor } from '#core/contrast';
import { sessionRecord } from '#test/fixtures/cancel-flows';

const session = () =>
  sessionRecord({
    steps: normaliseSteps([
      {
        id: 'why',
        step_type: 'survey',
        title: '<script>alert(1)</script>',
        options: [
          { value: 'a"><img src=x>', label: 'A & B' },
          { value: 'b', label: 'B' },
        ],
      },
    ]),
  });

describe('the hosted cancel page', () => {
  it("escapes the merchant's texts and the customer's answers into the HTML", () => {
    // Act
    const html = cancelPage(session(), 'T'.repeat(43), { merchantName: 'Acme <b>', primaryColor: null }, 'n0nce');
    // Assess
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('value="a&quot;&gt;&lt;img src=x&gt;"');
    expect(html).toContain('Acme &lt;b&gt;');
    expect(html.match(/<script nonce="n0nce">/g)).toHaveLength(1);
  });

  it('draws buttons in a darker shade of a brand colour too light for white text', () => {
    // Act
    const html = cancelPage(session(), 'T'.repeat(43), { merchantName: 'Acme', primaryColor: '#ffcc00' }, 'n');
    // Assess
    expect(html).toContain(`--brand:${accessibleBrandColor('#ffcc00')}`);
    expect(html).not.toContain('--brand:#ffcc00');
  });

  it('allows only its own nonce and its own origin', () => {
    // Assess
    expect(pagePolicy('abc')).toBe(
      "default-src 'none'; script-src 'nonce-abc'; style-src 'nonce-abc'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
  });

  it('words each offer type for the customer', () => {
    // Assess
    expect(offerText({ type: 'discount', value: 20, duration_months: null })).toBe('20% off your next invoice');
    expect(offerText({ type: 'discount', value: 30, duration_months: 1 })).toBe('30% off for 1 month');
    expect(offerText({ type: 'pause', value: 3, duration_months: null })).toBe('Pause your subscription for 3 months');
    expect(offerText({ type: 'downgrade', value: 'Basic', duration_months: null })).toBe('Switch to Basic');
  });
});
