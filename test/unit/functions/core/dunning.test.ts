import { dunningRefusal } from '#core/dunning';

describe('dunningRefusal', () => {
  it.each(['pending', 'retrying'] as const)('allows dunning when the recovery is %s', (status) => {
    // Act and assess
    expect(dunningRefusal(status)).toBeUndefined();
  });

  it.each([
    ['recovered', 'it is recovered'],
    ['terminal', 'it is terminal'],
    ['paused', 'it is paused: no dunning emails until it is resumed'],
  ] as const)('refuses dunning naming the status when the recovery is %s', (status, reason) => {
    // Act and assess
    expect(dunningRefusal(status)).toBe(reason);
  });
});
