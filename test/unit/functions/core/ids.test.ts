import { isPossibleId, MAX_PATH_ID_BYTES } from '#core/ids';

describe('isPossibleId', () => {
  it.each([
    ['an id the service issues', 'pe_01JAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a provider charge id', 'ch_3Nx9Lq2eZvKYlo2C'],
    ['an email with a plus part', 'jane.doe+billing@example.com'],
    ['an email with non-ASCII letters', 'gina.müller@example.de'],
    ['a provider reference with a slash and an inner space', 'cus_Ann/42 x'],
    ['a value of exactly the byte limit', 'x'.repeat(MAX_PATH_ID_BYTES)],
  ])('admits %s', (_name, value) => {
    // Act and assess
    expect(isPossibleId(value)).toBe(true);
  });

  it.each([
    ['an empty value', ''],
    ['a value one byte over the limit', 'x'.repeat(MAX_PATH_ID_BYTES + 1)],
    ['a value over the limit in bytes, not characters', '€'.repeat(107)],
    ['a 10 KB value', 'm'.repeat(10 * 1024)],
    ['a leading space', ' pe_1'],
    ['a trailing space', 'pe_1 '],
    ['a tab', 'pe\t1'],
    ['a line break', 'pe_1\n'],
    ['a NUL', 'pe_1\u0000'],
    ['a no-break space', 'pe\u00a01'],
    ['a zero-width joiner (format character)', 'pe\u200d1'],
    ['an unpaired surrogate', 'pe_\ud800'],
  ])('refuses %s', (_name, value) => {
    // Act and assess
    expect(isPossibleId(value)).toBe(false);
  });
});
