import { formatMoney } from '#core/money';

describe('formatMoney', () => {
  it.each([
    [4999, 'usd', '$49.99'],
    [1250, 'eur', '€12.50'],
    [5000, 'jpy', '¥5,000'],
    [123456, 'gbp', '£1,234.56'],
    [1050, 'huf', 'HUF\u00a010.50'],
    [0, 'usd', '$0.00'],
  ])('formats %i %s as %s', (amount, currency, expected) => {
    // Act and assess
    expect(formatMoney(amount, currency)).toBe(expected);
  });
});
