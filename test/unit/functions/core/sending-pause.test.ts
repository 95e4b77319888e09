import { MIN_SENDS_TO_JUDGE, pauseReason, windowDays } from '#core/sending-pause';

describe('the automatic sending pause', () => {
  it.each([
    ['below the minimum of sends, whatever the rates', { sent: MIN_SENDS_TO_JUDGE - 1, bounced: 100, complained: 100 }, undefined],
    ['at 2.5% bounces exactly', { sent: 1000, bounced: 25, complained: 0 }, undefined],
    ['above 2.5% bounces', { sent: 1000, bounced: 26, complained: 0 }, /bounce rate 2\.60%/],
    ['at 0.08% complaints exactly', { sent: 10_000, bounced: 0, complained: 8 }, undefined],
    ['above 0.08% complaints', { sent: 10_000, bounced: 0, complained: 9 }, /complaint rate 0\.09%/],
  ])('judges %s', (_case, counts, expected) => {
    // Act
    const reason = pauseReason(counts);
    // Assess
    if (expected === undefined) expect(reason).toBeUndefined();
    else expect(reason).toMatch(expected);
  });

  it('judges over the 30 UTC days ending today, newest first', () => {
    // Act
    const days = windowDays(new Date('2026-03-01T10:00:00Z'));
    // Assess
    expect(days).toHaveLength(30);
    expect(days.slice(0, 2)).toEqual(['2026-03-01', '2026-02-28']);
    expect(days.at(-1)).toBe('2026-01-31');
  });
});
