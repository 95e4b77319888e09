import { checkTemplateContent, type TemplateContent } from '#core/templates/template';
import { PLACEHOLDERS, placeholdersUsed, templatePlaceholderProblems } from '#core/templates/placeholders';

describe('templatePlaceholderProblems', () => {
  it('finds nothing wrong in a template using only the 13 placeholders', () => {
    // Prepare
    const source = PLACEHOLDERS.map((name, index) => (index % 2 === 0 ? `{{${name}}}` : `{{ ${name} }}`)).join(' ');
    // Act and assess
    expect(templatePlaceholderProblems(source)).toEqual([]);
  });

  it('reports an unknown placeholder with its offset, line and column', () => {
    // Act
    const problems = templatePlaceholderProblems('Hello,\nyour {{ plan }} and {{amount}}');
    // Assess
    expect(problems).toEqual([{ kind: 'unknown_placeholder', name: 'plan', index: 12, line: 2, column: 6 }]);
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', '#if amount', '> partial', 'amount.length', 'AMOUNT'])('refuses {{%s}}', (name) => {
    // Act
    const problems = templatePlaceholderProblems(`x {{${name}}}`);
    // Assess
    expect(problems).toEqual([{ kind: 'unknown_placeholder', name, index: 2, line: 1, column: 3 }]);
  });

  it('reports an unclosed {{, also when another {{ opens before any }}', () => {
    // Act
    const atEnd = templatePlaceholderProblems('Pay {{amount');
    const beforeNext = templatePlaceholderProblems('a {{ b {{amount}}');
    // Assess
    expect(atEnd).toEqual([{ kind: 'unclosed_braces', index: 4, line: 1, column: 5 }]);
    expect(beforeNext).toEqual([{ kind: 'unclosed_braces', index: 2, line: 1, column: 3 }]);
  });

  it('treats a lone }} as text', () => {
    // Act and assess
    expect(templatePlaceholderProblems('a }} b')).toEqual([]);
  });
});

describe('placeholdersUsed', () => {
  it('lists the known placeholders once each, in the spec order', () => {
    // Act and assess
    expect(placeholdersUsed('{{amount}} {{customer_name}}', null, '{{ amount }} {{nope}}')).toEqual(['customer_name', 'amount']);
  });
});

describe('checkTemplateContent', () => {
  const email: TemplateContent = {
    name: 'n',
    channel: 'email',
    subject: 'Pay {{amount}}',
    html: '<p>{{update_payment_url}}</p>',
    text: 'x',
    whatsapp_content_sid: null,
  };

  it('accepts a valid email template', () => {
    // Act and assess
    expect(() => checkTemplateContent(email)).not.toThrow();
  });

  it.each([
    ['subject', { subject: 'Pay {{ amount_due }}' }, 422],
    ['html', { html: '<p>{{__proto__}}</p>' }, 422],
    ['text', { text: 'a {{ b' }, 422],
    ['subject', { subject: null }, 400],
    ['html', { html: null }, 400],
    ['whatsapp_content_sid', { whatsapp_content_sid: `HX${'a'.repeat(32)}` }, 422],
  ] as const)('refuses a bad %s with its param', (param, change, status) => {
    // Act
    let thrown: unknown;
    try {
      checkTemplateContent({ ...email, ...change });
    } catch (error) {
      thrown = error;
    }
    // Assess
    expect(thrown).toMatchObject({ param, statusCode: status });
  });

  it('names the unknown placeholder and where it is in the message', () => {
    // Act and assess
    expect(() => checkTemplateContent({ ...email, text: 'line 1\nline {{ plan }}' })).toThrow('unknown placeholder {{plan}} at line 2, column 6');
  });

  it('refuses a subject or html on an sms template, and text over 1,600 characters', () => {
    // Prepare
    const sms: TemplateContent = { name: 'n', channel: 'sms', subject: null, html: null, text: 'x', whatsapp_content_sid: null };
    // Act and assess
    expect(() => checkTemplateContent(sms)).not.toThrow();
    expect(() => checkTemplateContent({ ...sms, subject: 's' })).toThrow(expect.objectContaining({ param: 'subject', statusCode: 422 }));
    expect(() => checkTemplateContent({ ...sms, html: '<p>' })).toThrow(expect.objectContaining({ param: 'html', statusCode: 422 }));
    expect(() => checkTemplateContent({ ...sms, text: 'x'.repeat(1601) })).toThrow(expect.objectContaining({ param: 'text', statusCode: 422 }));
    expect(() => checkTemplateContent({ ...sms, channel: 'whatsapp', whatsapp_content_sid: `HX${'0'.repeat(32)}` })).not.toThrow();
  });
});
