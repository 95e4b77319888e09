import { dayOf } from '#core/analytics/period';
import { cardExpiresBefore, upcomingChargeBodyOf, upcomingChargeIdFor } from '#core/upcoming-charges';

describe('cardExpiresBefore', () => {
  it.each([
    ['2041-05-31T23:59:59Z', false],
    ['2041-06-01T00:00:00Z', true],
    ['2041-07-15T00:00:00Z', true],
    ['2041-04-01T00:00:00Z', false],
  ])('says a card valid through May 2041 has expired at a charge due %s: %p', (due, expected) => {
    // Act
    const expired = cardExpiresBefore({ month: 5, year: 2041 }, new Date(due));
    // Assess
    expect(expired).toBe(expected);
  });

  it('rolls a December card over into January', () => {
    // Assess
    expect(cardExpiresBefore({ month: 12, year: 2041 }, new Date('2042-01-01T00:00:00Z'))).toBe(true);
    expect(cardExpiresBefore({ month: 12, year: 2041 }, new Date('2041-12-31T12:00:00Z'))).toBe(false);
  });
});

describe('upcomingChargeIdFor', () => {
  it('names a renewal by psp, subscription and due time, deterministically', () => {
    // Prepare
    const due = new Date('2041-06-02T09:00:00Z');
    // Act
    const id = upcomingChargeIdFor('stripe', 'sub_1', due);
    // Assess
    expect(id).toBe(upcomingChargeIdFor('stripe', 'sub_1', due));
    expect(id).not.toBe(upcomingChargeIdFor('chargebee', 'sub_1', due));
    expect(id).not.toBe(upcomingChargeIdFor('stripe', 'sub_1', new Date('2041-07-02T09:00:00Z')));
    expect(upcomingChargeBodyOf(id)).toHaveLength(26);
    expect(dayOf(due)).toBe('2041-06-02');
  });
});
