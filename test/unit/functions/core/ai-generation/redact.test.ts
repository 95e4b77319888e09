/** What a prompt keeps of card data, email addresses and names (core/ai-generation/redact.ts). */
import { CARD_FIELD_MASK, CARD_NUMBER_MASK, EMAIL_MASK, NAME_MASK, passesLuhn, redactPrompt } from '#core/ai-generation/redact';

const STRICT = { keepNames: false, keepEmails: false };

describe('passesLuhn', () => {
  it.each([
    ['4242424242424242', true],
    ['5555555555554444', true],
    ['378282246310005', true],
    ['4242424242424241', false],
    ['', false],
  ])('%s → %s', (digits, expected) => {
    // Assess
    expect(passesLuhn(digits)).toBe(expected);
  });
});

describe('redactPrompt: card data', () => {
  it.each([
    ['plain', 'card 4242424242424242 declined', `card ${CARD_NUMBER_MASK} declined`],
    ['spaced groups', 'card 4242 4242 4242 4242 declined', `card ${CARD_NUMBER_MASK} declined`],
    ['dashed groups', 'card 5555-5555-5555-4444.', `card ${CARD_NUMBER_MASK}.`],
    ['15-digit Amex', 'amex 3782 822463 10005', `amex ${CARD_NUMBER_MASK}`],
    ['19 digits', 'pan 6011000990139424009 end', `pan ${CARD_NUMBER_MASK} end`],
    ['beside an order number', 'order 12 4242 4242 4242 4242', `order 12 ${CARD_NUMBER_MASK}`],
  ])('%s', (_name, input, expected) => {
    // Act
    const result = redactPrompt(input, STRICT);
    // Assess
    expect(result.text).toBe(expected);
    expect(result.text).not.toMatch(/4242 ?4242|5555|822463|0139424/);
  });

  it('keeps digit runs that are not Luhn-valid card numbers, or too short or long', () => {
    // Prepare
    const input = 'order 4242424242424241, invoice 123456789012, amount 4999, id 42424242424242424242424, pan-like 6011000990139424000';
    // Act
    const result = redactPrompt(input, STRICT);
    // Assess
    expect(result.text).toBe(input);
    expect(result.removed.cards).toBe(0);
  });

  it.each([
    ['cvv: 123', `cvv: ${CARD_FIELD_MASK}`],
    ['CVC2=9876', `CVC2=${CARD_FIELD_MASK}`],
    ['"cvv": "321"', `"cvv": "${CARD_FIELD_MASK}"`],
    ['security code is 456', `security code is ${CARD_FIELD_MASK}`],
    ['card_verification_value: 777', `card_verification_value: ${CARD_FIELD_MASK}`],
    ['exp: 12/29', `exp: ${CARD_FIELD_MASK}`],
    ['expiry date 04/2031', `expiry date ${CARD_FIELD_MASK}`],
  ])('masks the labelled card field in %s', (input, expected) => {
    // Act
    const result = redactPrompt(input, { keepNames: true, keepEmails: true });
    // Assess
    expect(result.text).toBe(expected);
    expect(result.removed.cardFields).toBe(1);
  });

  it('strips card data even when names and emails are kept', () => {
    // Act
    const result = redactPrompt('Jane, card 4111 1111 1111 1111 cvv 123', { keepNames: true, keepEmails: true });
    // Assess
    expect(result.text).toBe(`Jane, card ${CARD_NUMBER_MASK} cvv ${CARD_FIELD_MASK}`);
    expect(result.removed).toEqual({ cards: 1, cardFields: 1, emails: 0, names: 0 });
  });
});

describe('redactPrompt: email addresses and names', () => {
  it('masks every email address unless kept', () => {
    // Prepare
    const input = 'Write to jane.doe+billing@example.co.uk and ops@acme.io';
    // Act
    const masked = redactPrompt(input, STRICT);
    const kept = redactPrompt(input, { keepNames: false, keepEmails: true });
    // Assess
    expect(masked.text).toBe(`Write to ${EMAIL_MASK} and ${EMAIL_MASK}`);
    expect(masked.removed.emails).toBe(2);
    expect(kept.text).toBe(input);
  });

  it.each([
    ['customer_name: Jane Doe', `customer_name: ${NAME_MASK}`],
    ['Customer name: Jane Doe\nplan: pro', `Customer name: ${NAME_MASK}\nplan: pro`],
    ['{"first_name": "Jane", "plan": "pro"}', `{"first_name": "${NAME_MASK}", "plan": "pro"}`],
    ['{"name": "Jane Doe"}', `{"name": "${NAME_MASK}"}`],
    ['name: Jane Doe', `name: ${NAME_MASK}`],
    ['cardholder=JANE DOE;', `cardholder=${NAME_MASK};`],
  ])('masks the labelled name in %s', (input, expected) => {
    // Act
    const result = redactPrompt(input, STRICT);
    // Assess
    expect(result.text).toBe(expected);
    expect(result.removed.names).toBe(1);
  });

  it('keeps labelled names when the use case needs them, and other labels always', () => {
    // Prepare
    const input = 'customer_name: Jane Doe\ncampaign name: Spring';
    // Act
    const kept = redactPrompt(input, { keepNames: true, keepEmails: false });
    const masked = redactPrompt(input, STRICT);
    // Assess
    expect(kept.text).toBe(input);
    expect(masked.text).toBe(`customer_name: ${NAME_MASK}\ncampaign name: Spring`);
  });
});

describe('redactPrompt: idempotence', () => {
  it('leaves an already redacted prompt as it is', () => {
    // Prepare
    const once = redactPrompt('customer_name: Jane Doe, card 4242424242424242 cvv 123, jane@example.com', STRICT).text;
    // Act
    const twice = redactPrompt(once, STRICT);
    // Assess
    expect(twice.text).toBe(once);
    expect(twice.removed).toEqual({ cards: 0, cardFields: 0, emails: 0, names: 0 });
  });
});
