import { expiryMonthsAt } from '#services/card-expiry-checks';

describe('expiryMonthsAt', () => {
  it.each([
    ['2041-05-20T08:00:00Z', ['2041-05', '2041-06']],
    ['2041-12-31T08:00:00Z', ['2041-12', '2042-01']],
    ['2042-01-01T00:00:00Z', ['2042-01', '2042-02']],
  ])('reads the run month and the next at %s', (now, months) => {
    // Act
    const read = expiryMonthsAt(new Date(now));
    // Assess
    expect(read).toEqual(months);
  });
});
