/** renderTemplateMessage against DynamoDB Local: the seam the sending path renders campaign and dunning messages through. */
import { newTemplate } from '#core/templates/template';
import { createTemplate } from '#data/template-repository';
import { renderTemplateMessage } from '#services/render-template-message';

const merchantId = (): string => `merch_test${Math.random().toString(36).slice(2, 10)}`;
const sources = {
  payment: { amount: 5000, currency: 'jpy', customer_email: 'ada@example.com', invoice_id: 'in_1' },
  customer: { name: 'Ada <Lovelace>' },
  merchant: { name: 'Acme' },
  links: { update_payment_url: 'https://edge.example/update/t0k', unsubscribe_url: 'https://edge.example/unsubscribe/u&1' },
};

describe('renderTemplateMessage', () => {
  it('renders a built-in email with the unsubscribe link in both parts', async () => {
    // Act
    const message = await renderTemplateMessage({ merchantId: merchantId(), templateId: 'tmpl_card_update_1', ...sources });
    // Assess
    expect(message?.channel).toBe('email');
    if (message?.channel !== 'email') throw new Error('expected an email');
    expect(message.subject).toBe('Please update your card for Acme');
    expect(message.html).toContain('Ada &lt;Lovelace&gt;');
    expect(message.html).toContain('¥5,000');
    expect(message.html).toMatch(/<a href="https:\/\/edge\.example\/unsubscribe\/u&amp;1">Unsubscribe<\/a>.<\/p>\n<\/body>/);
    expect(message.text).toContain('Hello Ada <Lovelace>,');
    expect(message.text.trimEnd().endsWith('Unsubscribe: https://edge.example/unsubscribe/u&1')).toBe(true);
  });

  it("renders the merchant's own sms template, and nothing for another merchant's or an unknown id", async () => {
    // Prepare
    const owner = merchantId();
    const template = newTemplate(owner, {
      name: 'SMS',
      channel: 'sms',
      subject: null,
      html: null,
      text: '{{amount}} {{update_payment_url}}',
      whatsapp_content_sid: null,
    });
    await createTemplate(template);
    // Act
    const own = await renderTemplateMessage({ merchantId: owner, templateId: template.id, ...sources });
    const foreign = await renderTemplateMessage({ merchantId: merchantId(), templateId: template.id, ...sources });
    const unknown = await renderTemplateMessage({ merchantId: owner, templateId: 'tmpl_nope', ...sources });
    // Assess
    expect(own).toEqual({ channel: 'sms', text: '¥5,000 https://edge.example/update/t0k' });
    expect(foreign).toBeUndefined();
    expect(unknown).toBeUndefined();
  });
});
