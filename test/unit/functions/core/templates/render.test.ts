import { escapeHtml, headerSafe, renderTemplate, withUnsubscribeLink } from '#core/templates/render';

describe('renderTemplate', () => {
  it('substitutes placeholders, with or without spaces inside the braces', () => {
    // Prepare
    const template = {
      channel: 'email' as const,
      subject: 'Pay {{ amount }}',
      html: '<p>{{amount}} to {{merchant_name}}</p>',
      text: '{{amount}} to {{  merchant_name  }}',
    };
    // Act
    const rendered = renderTemplate(template, { amount: '$49.99', merchant_name: 'Acme' });
    // Assess
    expect(rendered).toEqual({ subject: 'Pay $49.99', html: '<p>$49.99 to Acme</p>', text: '$49.99 to Acme' });
  });

  it('HTML-escapes values in the html part and leaves them as they are in the text part', () => {
    // Prepare
    const hostile = `<script>alert("x")</script> & 'quotes'`;
    const template = { channel: 'email' as const, subject: 'Hi', html: '<a title="{{customer_name}}">{{customer_name}}</a>', text: 'Hi {{customer_name}}' };
    // Act
    const rendered = renderTemplate(template, { customer_name: hostile });
    // Assess
    const escaped = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;';
    expect(rendered.html).toBe(`<a title="${escaped}">${escaped}</a>`);
    expect(rendered.html).not.toContain('<script>');
    expect(rendered.text).toBe(`Hi ${hostile}`);
  });

  it('removes CR, LF and other control characters from the subject (no header injection)', () => {
    // Prepare
    const template = { channel: 'email' as const, subject: 'Payment for {{customer_name}}', html: '', text: '' };
    // Act
    const rendered = renderTemplate(template, { customer_name: 'Ada\r\nBcc: victim@example.com\u0000\u2028x' });
    // Assess
    expect(rendered.subject).toBe('Payment for Ada Bcc: victim@example.com x');
    expect(rendered.subject).not.toMatch(/[\p{Cc}\u2028]/u);
  });

  it('renders a missing value as the empty string', () => {
    // Act
    const rendered = renderTemplate({ channel: 'sms', text: '[{{invoice_id}}] [{{retry_date}}]' }, {});
    // Assess
    expect(rendered).toEqual({ text: '[] []' });
  });

  it('never reads the prototype chain: unknown and prototype names render as empty', () => {
    // Prepare
    const values = Object.create({ amount: 'inherited' }) as Record<string, string>;
    // Act
    const rendered = renderTemplate({ channel: 'sms', text: '{{__proto__}}{{constructor}}{{toString}}{{amount}}|' }, values);
    // Assess
    expect(rendered.text).toBe('|');
  });

  it('keeps an unclosed {{ as literal text, escaped in html', () => {
    // Act
    const rendered = renderTemplate({ channel: 'email', subject: 's', html: '<b>{{ <i>', text: 'a {{ b' }, {});
    // Assess
    expect(rendered).toEqual({ subject: 's', html: '<b>{{ &lt;i&gt;', text: 'a {{ b' });
  });

  it('answers text only for sms and whatsapp', () => {
    // Act
    const sms = renderTemplate({ channel: 'sms', text: 'Pay {{amount}}' }, { amount: '¥5,000' });
    const whatsapp = renderTemplate({ channel: 'whatsapp', text: '<b>{{amount}}</b>' }, { amount: '<1>' });
    // Assess
    expect(sms).toEqual({ text: 'Pay ¥5,000' });
    expect(whatsapp).toEqual({ text: '<b><1></b>' });
  });
});

describe('escapeHtml and headerSafe', () => {
  it('escape the five HTML-significant characters', () => {
    // Act and assess
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
  });

  it('keeps one line of words', () => {
    // Act and assess
    expect(headerSafe('  a\tb\r\n\r\nc  ')).toBe('a b c');
  });
});

describe('withUnsubscribeLink', () => {
  it('adds the link before </body> in html (escaped) and as a last paragraph in text', () => {
    // Act
    const email = withUnsubscribeLink({ subject: 's', html: '<html><body><p>x</p></body></html>', text: 'x\n' }, 'https://e.x/u?a=1&b="2"');
    // Assess
    expect(email.html).toBe(
      '<html><body><p>x</p><p style="font-size:12px;color:#6b7280">Don\'t want these emails? <a href="https://e.x/u?a=1&amp;b=&quot;2&quot;">Unsubscribe</a>.</p>\n</body></html>',
    );
    expect(email.text).toBe('x\n\nUnsubscribe: https://e.x/u?a=1&b="2"\n');
  });

  it('appends to html without a body element', () => {
    // Act and assess
    expect(withUnsubscribeLink({ subject: 's', html: '<p>x</p>', text: 'x' }, 'https://e.x/u').html).toMatch(/^<p>x<\/p>\n<p .*Unsubscribe<\/a>\.<\/p>\n$/);
  });
});

describe('renderTemplate with an empty value before punctuation', () => {
  it('drops the space in front of it, and keeps it before words', () => {
    // Act
    const rendered = renderTemplate(
      { channel: 'email', subject: 'Hi {{customer_name}}!', html: '<p>Hello {{customer_name}},</p>', text: 'Hello {{customer_name}}, {{customer_name}} pays' },
      {},
    );
    // Assess
    expect(rendered).toEqual({ subject: 'Hi!', html: '<p>Hello,</p>', text: 'Hello,  pays' });
  });
});
