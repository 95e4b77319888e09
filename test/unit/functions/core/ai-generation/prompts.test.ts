/** The prompts of POST /ai/generate (core/ai-generation/prompts.ts) and their price (pricing.ts). */
import { costUsd, MODEL_PRICES, priceOf } from '#core/ai-generation/pricing';
import { preparePrompt, PROMPT_TEMPLATES, renderTemplate, SERVICE_RULES, templateKeys, UnknownContextKeyError } from '#core/ai-generation/prompts';
import { CARD_NUMBER_MASK, EMAIL_MASK, NAME_MASK } from '#core/ai-generation/redact';

describe('preparePrompt: A use cases', () => {
  it('puts the service rules and the language before the merchant system prompt', () => {
    // Act
    const prepared = preparePrompt({ useCase: 'campaign_copy', system: 'Be brief.', prompt: 'Spring sale', maxTokens: 500, temperature: 0.7, language: 'fr' });
    // Assess
    expect(prepared.system).toBe(`${SERVICE_RULES}\n\nBe brief.\n\nAnswer in this language: fr.`);
    expect(prepared).toMatchObject({ purpose: 'campaign_copy', prompt: 'Spring sale', maxTokens: 500, temperature: 0.7, cacheable: false });
  });

  it.each([
    ['decline_explanation', true],
    ['retry_scoring', true],
    ['email_personalization', false],
    ['weekly_digest', false],
  ] as const)('caches %s: %s', (useCase, cacheable) => {
    // Assess
    expect(preparePrompt({ useCase, system: 's', prompt: 'p', maxTokens: 50, temperature: 0 }).cacheable).toBe(cacheable);
  });

  it('keeps the name for personalisation, masks it for a decline explanation, and masks emails and cards for both', () => {
    // Prepare
    const prompt = 'customer_name: Jane Doe\nemail jane@example.com\ncard 4242 4242 4242 4242';
    // Act
    const personal = preparePrompt({ useCase: 'email_personalization', system: 's', prompt, maxTokens: 50, temperature: 0 });
    const explanation = preparePrompt({ useCase: 'decline_explanation', system: 's', prompt, maxTokens: 50, temperature: 0 });
    // Assess
    expect(personal.prompt).toBe(`customer_name: Jane Doe\nemail ${EMAIL_MASK}\ncard ${CARD_NUMBER_MASK}`);
    expect(explanation.prompt).toBe(`customer_name: ${NAME_MASK}\nemail ${EMAIL_MASK}\ncard ${CARD_NUMBER_MASK}`);
    expect(explanation.removed).toEqual({ cards: 1, cardFields: 0, emails: 1, names: 1 });
  });

  it('redacts the system prompt as well', () => {
    // Act
    const prepared = preparePrompt({ useCase: 'weekly_digest', system: 'Card on file 4242424242424242', prompt: 'p', maxTokens: 50, temperature: 0 });
    // Assess
    expect(prepared.system).toContain(`Card on file ${CARD_NUMBER_MASK}`);
    expect(prepared.system).not.toContain('4242424242424242');
  });
});

describe('renderTemplate: B templates', () => {
  it('fills the template from its context keys, formatting amounts in the currency', () => {
    // Act
    const rendered = renderTemplate('dunning_email', {
      customer_name: 'Jane',
      amount_cents: 4999,
      currency: 'usd',
      product_name: 'Pro',
      tone: null,
      language: 'de',
    });
    // Assess
    expect(rendered.prompt).toBe('Write the body of the dunning email.\n\nCurrency: usd\nCustomer name: Jane\nProduct: Pro\nAmount due: $49.99');
    expect(rendered.language).toBe('de');
  });

  it('refuses a context key the template does not read, prototype names included', () => {
    // Assess
    expect(() => renderTemplate('report_summary', { customer_name: 'Jane' })).toThrow(UnknownContextKeyError);
    expect(() => renderTemplate('report_summary', JSON.parse('{"constructor": "x"}'))).toThrow(UnknownContextKeyError);
  });

  it('reads no customer email in any template, and a customer name only in dunning_email and win_back', () => {
    // Assess
    for (const template of PROMPT_TEMPLATES) expect(templateKeys(template)).not.toContain('customer_email');
    expect(PROMPT_TEMPLATES.filter((template) => templateKeys(template).includes('customer_name'))).toEqual(['dunning_email', 'win_back']);
  });

  it('is never cached and masks emails written in context values', () => {
    // Act
    const prepared = preparePrompt({ template: 'win_back', context: { offer: 'write to jane@example.com for 20% off' }, maxTokens: 500, temperature: 0.7 });
    // Assess
    expect(prepared.cacheable).toBe(false);
    expect(prepared.prompt).toContain(`Offer: write to ${EMAIL_MASK} for 20% off`);
  });
});

describe('costUsd', () => {
  it('prices input and output tokens apart, per million', () => {
    // Assess
    expect(costUsd('anthropic.claude-3-haiku-20240307-v1:0', { input: 1000, output: 500, total: 1500 })).toBe(0.000875);
  });

  it('prices a cross-region inference profile as its model', () => {
    // Assess
    expect(priceOf('us.anthropic.claude-3-haiku-20240307-v1:0')).toEqual(MODEL_PRICES['anthropic.claude-3-haiku-20240307-v1:0']);
  });

  it('prices every token as output when the model gave only a total, and the local model at 0', () => {
    // Assess
    expect(costUsd('amazon.nova-lite-v1:0', { total: 1_000_000 })).toBe(0.24);
    expect(costUsd('local-deterministic-model', { input: 10, output: 10, total: 20 })).toBe(0);
  });

  it('is null for a model without a price', () => {
    // Assess
    expect(costUsd('some.unknown-model', { total: 10 })).toBeNull();
  });
});
