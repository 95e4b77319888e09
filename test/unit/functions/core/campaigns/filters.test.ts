import { campaignFailure } from '#test/fixtures/campaigns';
import { filterFieldCount, filtersMatch, normaliseCampaignFilters, parseCampaignFilters } from '#core/campaigns/filters';
import { ValidationError } from '#core/errors';

const failure = campaignFailure;

const refusalOf = (text: string): { param?: string; message: string } => {
  try {
    parseCampaignFilters(text);
  } catch (error) {
    if (error instanceof ValidationError) return { ...(error.param === undefined ? {} : { param: error.param }), message: error.message };
    throw error;
  }
  throw new Error('accepted');
};

describe('parseCampaignFilters', () => {
  it('normalises single values to lists and lowercases decline codes', () => {
    // Act
    const filters = parseCampaignFilters(
      '{"amount_min":1000,"amount_max":9000,"currency":"usd","psp":["stripe","adyen"],"decline_category":"soft_retry","decline_code":"Insufficient_Funds","customer_segment":"repeat_failure"}',
    );
    // Assess
    expect(filters).toEqual({
      amount_min: 1000,
      amount_max: 9000,
      currency: ['usd'],
      psp: ['stripe', 'adyen'],
      decline_category: ['soft_retry'],
      decline_code: ['insufficient_funds'],
      customer_segment: ['repeat_failure'],
    });
    expect(filterFieldCount(filters)).toBe(7);
  });

  it('accepts an empty object as no filter', () => {
    // Act and assess
    expect(parseCampaignFilters('{}')).toEqual({});
  });

  it.each([
    ['text that is not JSON', '{amount_min:', 'not JSON'],
    ['JSON that is not an object', '[1]', 'not a JSON object'],
    ['null', 'null', 'not a JSON object'],
    ['an unknown field', '{"colour":"red"}', 'unknown field colour'],
    ['a negative amount', '{"amount_min":-1,"currency":"usd"}', 'amount_min'],
    ['a fractional amount', '{"amount_min":1.5,"currency":"usd"}', 'amount_min'],
    ['an amount without currency', '{"amount_min":100}', 'amount_min'],
    ['an amount with two currencies', '{"amount_max":100,"currency":["usd","eur"]}', 'amount_max'],
    ['amount_min above amount_max', '{"amount_min":500,"amount_max":100,"currency":"usd"}', 'amount_max'],
    ['an unknown currency', '{"currency":"xyz"}', 'currency'],
    ['an unknown psp', '{"psp":["stripe","acme"]}', 'psp'],
    ['a psp given as an empty list', '{"psp":[]}', 'psp'],
    ['an unknown decline category', '{"decline_category":"soft"}', 'decline_category'],
    ['an empty decline code', '{"decline_code":""}', 'decline_code'],
    ['an unknown customer segment', '{"customer_segment":"vip"}', 'customer_segment'],
  ])('refuses %s with 422 naming filters_json and the field', (_name, text, mentioned) => {
    // Act
    const refusal = refusalOf(text);
    // Assess
    expect(refusal.param).toBe('filters_json');
    expect(refusal.message).toContain(mentioned);
  });

  it('names the param it is given for an object form', () => {
    // Act and assess
    expect(() => normaliseCampaignFilters({ nope: 1 }, 'filters')).toThrow(expect.objectContaining({ param: 'filters' }));
  });
});

describe('filtersMatch', () => {
  it.each([
    [{}, failure(), true],
    [{ currency: ['eur'] }, failure(), false],
    [{ currency: ['usd'], amount_min: 5000 }, failure(), false],
    [{ currency: ['usd'], amount_min: 4999, amount_max: 4999 }, failure(), true],
    [{ currency: ['usd'], amount_max: 4000 }, failure(), false],
    [{ psp: ['adyen'] }, failure(), false],
    [{ decline_category: ['soft_retry', 'unknown'] }, failure(), true],
    [{ decline_code: ['insufficient_funds'] }, failure({ decline_code: 'INSUFFICIENT_FUNDS' }), true],
    [{ decline_code: ['insufficient_funds'] }, failure({ decline_code: null }), false],
    [{ customer_segment: ['first_failure'] }, failure(), true],
    [{ customer_segment: ['repeat_failure'] }, failure(), false],
    [{ customer_segment: ['repeat_failure', 'high_value'] }, failure({ lifetime_value_by_currency: { usd: 60_000 } }), true],
  ] as const)('decides %j against the failure: %s', (filters, f, expected) => {
    // Act and assess
    expect(filtersMatch(filters, f)).toBe(expected);
  });
});
