import { renderTemplate } from '#core/templates/render';
import { formatRetryDate, placeholderValuesFor } from '#core/templates/values';
import { PLACEHOLDERS } from '#core/templates/placeholders';

describe('placeholderValuesFor', () => {
  it('builds all 13 values from the payment, customer, merchant and links', () => {
    // Act
    const values = placeholderValuesFor({
      payment: {
        amount: 4999,
        currency: 'usd',
        customer_email: 'ada@example.com',
        psp: 'stripe',
        decline_code: 'card_declined',
        decline_subcategory: 'generic',
        next_retry_at: '2026-11-28T09:00:00.000Z',
        invoice_id: 'in_123',
        metadata: { subscription_name: 'Pro plan' },
      },
      customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
      merchant: { name: 'Acme', support_email: 'help@acme.test' },
      links: { update_payment_url: 'https://edge.example/update/abc' },
    });
    // Assess
    expect(Object.keys(values).sort()).toEqual([...PLACEHOLDERS].sort());
    expect(values).toMatchObject({
      customer_name: 'Ada Lovelace',
      customer_email: 'ada@example.com',
      amount: '$49.99',
      amount_cents: '4999',
      currency: 'USD',
      decline_code: 'card_declined',
      retry_date: 'November 28, 2026',
      merchant_name: 'Acme',
      update_payment_url: 'https://edge.example/update/abc',
      support_email: 'help@acme.test',
      subscription_name: 'Pro plan',
      invoice_id: 'in_123',
    });
    expect(values.decline_reason).toMatch(/declined/i);
  });

  it('formats jpy without decimals and keeps the integer in amount_cents', () => {
    // Act
    const values = placeholderValuesFor({ payment: { amount: 5000, currency: 'jpy' }, merchant: { name: 'Acme' }, links: {} });
    // Assess
    expect(values.amount).toBe('¥5,000');
    expect(values.amount_cents).toBe('5000');
    expect(values.currency).toBe('JPY');
  });

  it('renders what is missing as empty strings', () => {
    // Prepare
    const values = placeholderValuesFor({
      payment: { amount: 100, currency: 'eur', invoice_id: null, next_retry_at: null },
      merchant: { name: 'Acme' },
      links: {},
    });
    // Act
    const rendered = renderTemplate(
      { channel: 'sms', text: '[{{customer_name}}|{{retry_date}}|{{invoice_id}}|{{support_email}}|{{update_payment_url}}|{{subscription_name}}]' },
      values,
    );
    // Assess
    expect(rendered.text).toBe('[|||||]');
  });
});

describe('formatRetryDate', () => {
  it('gives a UTC date, or empty for null and garbage', () => {
    // Act and assess
    expect(formatRetryDate('2026-01-01T23:30:00.000Z')).toBe('January 1, 2026');
    expect(formatRetryDate(null)).toBe('');
    expect(formatRetryDate('not a date')).toBe('');
  });
});
