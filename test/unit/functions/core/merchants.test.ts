import { ApiKeyNotFoundError, newApiKeyId } from '#core/api-keys';
import { DEFAULT_RATE_LIMITS, MerchantNotFoundError, newMerchantSchema, newMerchantId, UnknownPspError } from '#core/merchants';
import { AppError } from '#core/errors';

describe('newMerchantId', () => {
  it('returns merch_ and 22 base62 characters, different each time, when called twice', () => {
    // Act
    const ids = [newMerchantId(), newMerchantId()];
    // Assess
    expect(ids[0]).toMatch(/^merch_[0-9A-Za-z]{22}$/);
    expect(ids[0]).not.toBe(ids[1]);
  });
});

describe('newApiKeyId', () => {
  it('returns key_ and 22 base62 characters when called', () => {
    // Act
    const id = newApiKeyId();
    // Assess
    expect(id).toMatch(/^key_[0-9A-Za-z]{22}$/);
  });
});

describe('newMerchantSchema()', () => {
  it('fills the engine tier and 100/100 limits when only a name is given', () => {
    // Act
    const merchant = newMerchantSchema().parse({ name: '  Acme  ' });
    // Assess
    expect(merchant).toEqual({ name: 'Acme', plan_tier: 'engine', rate_limits: { read_per_minute: 100, write_per_minute: 100 } });
    expect(DEFAULT_RATE_LIMITS).toEqual({ read_per_minute: 100, write_per_minute: 100 });
  });

  it.each([{ name: '   ' }, { name: 'Acme', plan_tier: 'gold' }, { name: 'Acme', rate_limits: { read_per_minute: 0, write_per_minute: 5 } }])(
    'refuses %j when a field is out of range',
    (input) => {
      // Act
      const result = newMerchantSchema().safeParse(input);
      // Assess
      expect(result.success).toBe(false);
    },
  );
});

describe('MerchantNotFoundError', () => {
  it('is a 404 resource_not_found AppError naming itself when thrown', () => {
    // Act
    const error = new MerchantNotFoundError('merch_x');
    // Assess
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ name: 'MerchantNotFoundError', statusCode: 404, code: 'resource_not_found', param: 'merchant_id', expose: true });
    expect(error.message).toContain('merch_x');
  });
});

describe('ApiKeyNotFoundError', () => {
  it('is a 404 resource_not_found AppError naming itself when thrown', () => {
    // Act
    const error = new ApiKeyNotFoundError('key_x');
    // Assess
    expect(error).toMatchObject({ name: 'ApiKeyNotFoundError', statusCode: 404, code: 'resource_not_found', param: 'key_id' });
  });
});

describe('UnknownPspError', () => {
  it('is a 422 validation_error on psp when thrown', () => {
    // Act
    const error = new UnknownPspError('venmo');
    // Assess
    expect(error.toJSON()).toEqual({ code: 'validation_error', message: 'Unknown psp "venmo"', param: 'psp' });
    expect(error.name).toBe('UnknownPspError');
  });
});
