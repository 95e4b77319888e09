import { createHmac } from 'node:crypto';
import { ValidationError } from '#core/errors';
import {
  checkBranding,
  checkUpdatePaymentPageUrl,
  looksLikeLinkToken,
  newLinkToken,
  providerPageFor,
  signWidget,
  timestampIsFresh,
  widgetSignatureMatches,
} from '#core/hosted';

describe('widget signatures', () => {
  it('signs "merchant_id.customer_id.timestamp" with HMAC-SHA256, hex', () => {
    // Act
    const signature = signWidget('wsec_test', 'merch_1', 'cus_1', 1764000000);
    // Assess
    expect(signature).toBe(createHmac('sha256', 'wsec_test').update('merch_1.cus_1.1764000000').digest('hex'));
  });

  it('matches its own signature in either case, and nothing altered', () => {
    // Prepare
    const signature = signWidget('wsec_test', 'merch_1', 'cus_1', 1764000000);
    // Act and assess
    expect(widgetSignatureMatches('wsec_test', 'merch_1', 'cus_1', 1764000000, signature)).toBe(true);
    expect(widgetSignatureMatches('wsec_test', 'merch_1', 'cus_1', 1764000000, signature.toUpperCase())).toBe(true);
    expect(widgetSignatureMatches('wsec_test', 'merch_1', 'cus_2', 1764000000, signature)).toBe(false);
    expect(widgetSignatureMatches('wsec_test', 'merch_1', 'cus_1', 1764000001, signature)).toBe(false);
    expect(widgetSignatureMatches('wsec_other', 'merch_1', 'cus_1', 1764000000, signature)).toBe(false);
    expect(widgetSignatureMatches('wsec_test', 'merch_1', 'cus_1', 1764000000, signature.slice(0, 62))).toBe(false);
  });

  it('holds timestamps to 300 s either side of now', () => {
    // Prepare
    const now = new Date(1_764_000_000_000);
    // Act and assess
    expect([-301, -300, 0, 300, 301].map((offset) => timestampIsFresh(1_764_000_000 + offset, now))).toEqual([false, true, true, true, false]);
  });
});

describe('link tokens', () => {
  it('are 43 base64url characters, and only such strings look like one', () => {
    // Act
    const token = newLinkToken();
    // Assess
    expect(looksLikeLinkToken(token)).toBe(true);
    expect(looksLikeLinkToken(`${token}x`)).toBe(false);
    expect(looksLikeLinkToken(`${'a'.repeat(42)}=`)).toBe(false);
  });
});

describe('checkBranding', () => {
  it('normalises the colour and trims the name', () => {
    // Act and assess
    expect(checkBranding({ primary_color: '#A1B2C3', merchant_name: ' Acme ' })).toEqual({ primary_color: '#a1b2c3', merchant_name: 'Acme' });
  });

  it.each([
    [{ logo_url: 'http://cdn.example.com/l.png' }, 'logo_url'],
    [{ logo_url: 'https://user:pw@cdn.example.com/l.png' }, 'logo_url'],
    [{ logo_url: 'javascript:alert(1)' }, 'logo_url'],
    [{ primary_color: '#abc' }, 'primary_color'],
    [{ merchant_name: ' ' }, 'merchant_name'],
  ])('refuses %j naming %s', (change, param) => {
    // Act and assess
    expect(() => checkBranding(change)).toThrow(expect.objectContaining({ param, constructor: ValidationError }));
  });
});

describe('the provider page', () => {
  it('takes https, and http on loopback only', () => {
    // Act and assess
    expect(checkUpdatePaymentPageUrl('https://billing.example.com/x')).toBe('https://billing.example.com/x');
    expect(checkUpdatePaymentPageUrl('http://localhost:3000/x')).toBe('http://localhost:3000/x');
    expect(() => checkUpdatePaymentPageUrl('http://billing.example.com/x')).toThrow(ValidationError);
    expect(() => checkUpdatePaymentPageUrl('ftp://billing.example.com/x')).toThrow(ValidationError);
  });

  it('fills in the placeholders URL-encoded, empty when unknown', () => {
    // Act
    const url = providerPageFor('https://b.example.com/{provider_customer_id}?c={customer_id}&p={payment_id}', {
      customer_id: 'cust_1',
      provider_customer_id: 'cus/a b',
      payment_id: null,
    });
    // Assess
    expect(url).toBe('https://b.example.com/cus%2Fa%20b?c=cust_1&p=');
  });
});
