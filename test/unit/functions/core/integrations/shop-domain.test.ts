import { MAX_SHOP_DOMAIN_LENGTH, normaliseShopDomain } from '#core/integrations/shop-domain';

describe('normaliseShopDomain', () => {
  it.each([
    ['shop.example.com', 'shop.example.com'],
    ['acme.myshopify.com', 'acme.myshopify.com'],
    ['Acme.MyShopify.com', 'acme.myshopify.com'],
    ['my-store.co.uk', 'my-store.co.uk'],
    ['xn--bcher-kva.example.de', 'xn--bcher-kva.example.de'],
    ['shop.xn--p1ai', 'shop.xn--p1ai'],
    ['a1.io', 'a1.io'],
    [`${'abcdefghi.'.repeat(25)}com`, `${'abcdefghi.'.repeat(25)}com`],
  ])('admits %s as %s', (input, expected) => {
    // Act
    const domain = normaliseShopDomain(input);
    // Assess
    expect(domain).toBe(expected);
  });

  it.each([
    ['', 'empty'],
    ['https://acme.myshopify.com', 'a scheme'],
    ['acme.myshopify.com/admin', 'a path'],
    ['acme.myshopify.com:443', 'a port'],
    ['user:pass@acme.myshopify.com', 'credentials'],
    ['acme.myshopify.com.', 'a trailing dot'],
    ['myshopify', 'a single label'],
    ['192.168.0.1', 'an IPv4 address'],
    ['[::1]', 'an IPv6 address'],
    ['shop.localhost', 'a loopback name'],
    ['shop.internal', 'a private name'],
    ['printer.local', 'an mDNS name'],
    ['-acme.example.com', 'a label starting with a hyphen'],
    ['acme-.example.com', 'a label ending with a hyphen'],
    ['ac_me.example.com', 'an underscore'],
    ['acme..example.com', 'an empty label'],
    ['acme .example.com', 'a space'],
    ['bücher.example.de', 'a non-ASCII label (send its xn-- form)'],
    ['shop.c0m', 'a top-level label with a digit'],
    ['shop.c', 'a one-letter top-level label'],
    [`${'a'.repeat(64)}.example.com`, 'a label over 63 characters'],
    [`${'abcdefghi.'.repeat(25)}coms`, `over ${MAX_SHOP_DOMAIN_LENGTH} characters`],
  ])('refuses %j (%s)', (input) => {
    // Act
    const domain = normaliseShopDomain(input);
    // Assess
    expect(domain).toBeUndefined();
  });
});
