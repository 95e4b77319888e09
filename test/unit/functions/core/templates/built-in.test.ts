import { CAMPAIGN_TEMPLATES } from '#core/campaigns/templates';
import { builtInTemplate, builtInTemplates } from '#core/templates/built-in';
import { renderTemplate } from '#core/templates/render';
import { checkTemplateContent } from '#core/templates/template';
import { templatePlaceholderProblems } from '#core/templates/placeholders';
import { placeholderValuesFor } from '#core/templates/values';

const IDS = [
  'tmpl_dunning_default',
  'tmpl_soft_decline_1',
  'tmpl_soft_decline_2',
  'tmpl_soft_decline_final',
  'tmpl_card_update_1',
  'tmpl_card_update_2',
  'tmpl_card_update_final',
  'tmpl_card_update_sms',
  'tmpl_card_expiring_1',
  'tmpl_card_expiring_2',
  'tmpl_high_value_1',
  'tmpl_high_value_2',
  'tmpl_high_value_sms',
];
const SMS = ['tmpl_card_update_sms', 'tmpl_high_value_sms'];
const templates = [...builtInTemplates().values()];

describe('built-in templates', () => {
  it('are exactly the ids the campaign templates reference', () => {
    // Act and assess
    expect([...builtInTemplates().keys()].sort()).toEqual([...IDS].sort());
    expect(templates.filter((t) => t.channel === 'sms').map((t) => t.id)).toEqual(SMS);
  });

  it.each(templates.map((t) => [t.id, t] as const))('%s has no unknown placeholder and passes the save checks', (_id, template) => {
    // Act and assess
    for (const part of [template.subject, template.html, template.text]) if (part !== null) expect(templatePlaceholderProblems(part)).toEqual([]);
    expect(() => checkTemplateContent(template)).not.toThrow();
    expect(template).toMatchObject({ built_in: true, merchant_id: null });
    expect(template.placeholders).toContain('update_payment_url');
  });

  it.each(templates.filter((t) => t.channel === 'email').map((t) => [t.id, t] as const))('%s carries the update link in html and text', (_id, template) => {
    // Prepare
    const values = placeholderValuesFor({
      payment: { amount: 4999, currency: 'usd' },
      customer: { name: 'Ada' },
      merchant: { name: 'Acme & Co' },
      links: { update_payment_url: 'https://edge.example/update/t0k' },
    });
    // Act
    const rendered = renderTemplate({ ...template, channel: 'email' }, values);
    // Assess
    expect(rendered.subject.length).toBeGreaterThan(0);
    expect(rendered.html).toContain('href="https://edge.example/update/t0k"');
    expect(rendered.html).toContain('Acme &amp; Co');
    expect(rendered.text).toContain('https://edge.example/update/t0k');
    expect(rendered.text).not.toMatch(/[<>]/);
    expect(rendered.html).not.toContain('{{');
  });

  it.each(SMS)('%s is at most 320 characters and carries the update link', (id) => {
    // Prepare
    const template = builtInTemplate(id);
    // Act
    const rendered = renderTemplate(
      { channel: 'sms', text: template?.text ?? '' },
      { update_payment_url: 'https://e.x/u/1', amount: '$49.99', merchant_name: 'Acme' },
    );
    // Assess
    expect(template?.subject).toBeNull();
    expect(template?.html).toBeNull();
    expect(template?.text.length).toBeLessThanOrEqual(320);
    expect(rendered.text).toContain('https://e.x/u/1');
  });

  it('keeps the manual dunning wording of core/dunning.ts', () => {
    // Act
    const template = builtInTemplate('tmpl_dunning_default');
    const rendered = renderTemplate(
      { channel: 'email', subject: template?.subject ?? null, html: template?.html ?? null, text: template?.text ?? '' },
      placeholderValuesFor({ payment: { amount: 4999, currency: 'usd' }, customer: { name: 'Ada Lovelace' }, merchant: { name: 'Acme' }, links: {} }),
    );
    // Assess
    expect(rendered.subject).toBe('Your payment of $49.99 to Acme did not go through');
    expect(rendered.text).toContain('Hello Ada Lovelace,\n\nWe could not collect your payment of $49.99 to Acme.');
  });

  it('is not found by prototype names', () => {
    // Act and assess
    expect(builtInTemplate('__proto__')).toBeUndefined();
    expect(builtInTemplate('constructor')).toBeUndefined();
  });
});

describe('the built-in templates the campaign templates name', () => {
  it.each(
    CAMPAIGN_TEMPLATES.flatMap((campaign) =>
      campaign.steps.filter((step) => step.template_id !== null).map((step) => [campaign.id, step.template_id, step] as const),
    ),
  )('%s: %s is a built-in of its step channel', (_campaign, _id, step) => {
    // Act
    const template = builtInTemplate(step.template_id ?? '');
    // Assess
    expect(template?.channel).toBe(step.action);
  });
});
