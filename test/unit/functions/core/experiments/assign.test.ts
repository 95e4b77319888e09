import { assignArm, bucketOf, fnv32a } from '#core/experiments/assign';

/**
 * Expected values are GrowthBook's own test cases (growthbook/growthbook
 * packages/sdk-js/test/cases/fnv.json and the `hash` section of test/cases.json, version 2).
 */
describe('fnv32a', () => {
  it.each([
    ['a', 220],
    ['b', 77],
    ['ab', 946],
    ['def', 652],
    ['8952klfjas09ujkasdf', 549],
    ['123', 11],
    ['___)((*":&', 563],
  ])("gives GrowthBook's value for %j (modulo 1000)", (text, expected) => {
    // Act
    const hash = fnv32a(text);
    // Assess
    expect(hash % 1000).toBe(expected);
    expect(Number.isInteger(hash) && hash >= 0 && hash < 2 ** 32).toBe(true);
  });
});

describe('bucketOf (GrowthBook hash v2)', () => {
  it.each([
    ['seed', 'a', 0.0505],
    ['seed', 'b', 0.2696],
    ['foo', 'ab', 0.2575],
    ['foo', 'def', 0.2019],
    ['89123klj', '8952klfjas09ujkasdf', 0.124],
    ['90850943850283058242805', '123', 0.7516],
    ['()**(%$##$%#$#', '___)((*":&', 0.0128],
  ])('gives %j + %j the bucket %d, as GrowthBook does', (seed, value, expected) => {
    // Act
    const bucket = bucketOf(seed, value);
    // Assess
    expect(bucket).toBe(expected);
  });
});

describe('assignArm', () => {
  const paymentIds = Array.from({ length: 10_000 }, (_, i) => `pe_${i.toString(36).padStart(6, '0')}_${(i * 7919) % 10_007}`);

  it('gives the same arm for the same test and payment, every time', () => {
    // Act
    const first = paymentIds.map((id) => assignArm('abt_stable', id, 0.5));
    const second = paymentIds.map((id) => assignArm('abt_stable', id, 0.5));
    // Assess
    expect(second).toEqual(first);
  });

  it.each([0.05, 0.3, 0.5, 0.7, 0.95])('assigns about %d of 10,000 payments to A (within 2 points)', (split) => {
    // Act
    const toA = paymentIds.filter((id) => assignArm('abt_split', id, split) === 'A').length;
    // Assess
    expect(Math.abs(toA / paymentIds.length - split)).toBeLessThan(0.02);
  });

  it('assigns a payment by its bucket: A below the split, B at or above it', () => {
    // Prepare
    const bucket = bucketOf('seed', 'b'); // 0.2696
    // Act and assess
    expect(assignArm('seed', 'b', 0.2697)).toBe('A');
    expect(assignArm('seed', 'b', bucket)).toBe('B');
  });

  it('splits two tests independently: the arm in one says little about the arm in the other', () => {
    // Act
    const same = paymentIds.filter((id) => assignArm('abt_one', id, 0.5) === assignArm('abt_two', id, 0.5)).length;
    // Assess
    expect(Math.abs(same / paymentIds.length - 0.5)).toBeLessThan(0.02);
  });
});
