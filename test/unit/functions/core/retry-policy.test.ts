import { emptyLedger, withAttempt } from '#core/card-caps';
import type { QuietHours } from '#core/quiet-hours';
import { daysToNextPayday, nextPaydayStart, type PlannedPayment, planNextRetry, policyTimeZoneOf, retryScoreInputOf } from '#core/retry-policy';
import { scoreRetryByRules } from '#core/scoring/rules';

const T = new Date('2026-12-07T15:00:00.000Z');
const HOUR = 3_600_000;
const payment = (overrides: Partial<PlannedPayment> = {}): PlannedPayment => ({
  psp: 'stripe',
  amount: 2500,
  currency: 'usd',
  decline_code: 'processing_error',
  decline_category: 'soft_retry',
  decline_subcategory: 'processing_error',
  retry_count: 0,
  max_retries: 8,
  card_network: null,
  network_code: null,
  advice_code: null,
  created_at: T.toISOString(),
  ...overrides,
});
const plan = (
  p: PlannedPayment,
  extra: {
    quietHours?: QuietHours;
    now?: Date;
    campaignStepDelayHours?: number;
    ledger?: ReturnType<typeof emptyLedger>;
    retryTiming?: { payday_aligned?: boolean };
  } = {},
) => {
  const now = extra.now ?? T;
  return planNextRetry({
    payment: p,
    now,
    quietHours: extra.quietHours,
    ledger: extra.ledger ?? emptyLedger('card'),
    score: scoreRetryByRules(retryScoreInputOf(p, now, policyTimeZoneOf(p, extra.quietHours))),
    campaignStepDelayHours: extra.campaignStepDelayHours,
    ...(extra.retryTiming === undefined ? {} : { retryTiming: extra.retryTiming }),
  });
};

describe('retry policy', () => {
  it('retries a processing error within the hour, with the scorer in its reason', () => {
    // Act
    const decision = plan(payment());
    // Assess
    expect(decision).toMatchObject({ action: 'schedule', at: new Date(T.getTime() + HOUR) });
    if (decision.action === 'schedule') expect(decision.reason).toMatch(/^Retry 1 of 8 at 2026-12-07T16:00:00.000Z: scored 0\.\d\d, wait 1 h/);
  });

  it('retries an insufficient-funds decline on its ladder before a distant payday, in the local morning', () => {
    // Act
    const decision = plan(payment({ decline_code: 'insufficient_funds', decline_subcategory: 'balance' }), {
      quietHours: { startHour: 22, endHour: 7, timezone: 'Europe/Paris', enabled: false },
    });
    // Assess: the 15th is the next payday (8 days), so step 1 of the ladder (24 h), then 07:00 in Paris
    expect(daysToNextPayday(T)).toBe(8);
    expect(decision).toMatchObject({ action: 'schedule', at: new Date('2026-12-09T06:00:00.000Z') });
  });

  it("reads paydays and mornings in the customer's time zone when ingest gave it, else the merchant's", () => {
    // Prepare: Monday 14 December 03:00 UTC is Sunday 13 December 19:00 in Los Angeles
    const now = new Date('2026-12-14T03:00:00.000Z');
    const funds = { decline_code: 'insufficient_funds', decline_subcategory: 'balance' } as const;
    const inLosAngeles = payment({ ...funds, customer_timezone: 'America/Los_Angeles' });
    // Act
    const local = plan(inLosAngeles, { now });
    const aligned = plan(inLosAngeles, { now, retryTiming: { payday_aligned: true } });
    const merchants = plan(payment(funds), { now });
    const unreadable = plan(payment({ ...funds, customer_timezone: 'Mars/Olympus' }), { now });
    // Assess: the 15th is 2 local days away; the ladder's 24 h lands at 19:00 on the 14th in LA, so
    // the morning after, on the payday, as when aligned to it. In UTC (the merchant's zone) the
    // payday is 1 day away: 07:00 UTC on the 15th, 23:00 on the 14th in LA.
    expect(retryScoreInputOf(inLosAngeles, now, 'America/Los_Angeles')).toMatchObject({ hourOfDay: 19, dayOfWeek: 0, paydayProximityDays: 2 });
    expect(local).toMatchObject({ action: 'schedule', at: new Date('2026-12-15T15:00:00.000Z') });
    if (local.action === 'schedule') expect(local.reason).toContain('7:00-9:00 America/Los_Angeles');
    expect(aligned).toMatchObject({ action: 'schedule', at: new Date('2026-12-15T15:00:00.000Z') });
    expect(merchants).toMatchObject({ action: 'schedule', at: new Date('2026-12-15T07:00:00.000Z') });
    expect(unreadable).toEqual(merchants);
  });

  it("finds the next payday's local midnight across a daylight-saving change", () => {
    // Act / Assess: New York moves to EDT on 8 March 2026; the 15th starts at 04:00 UTC, not 05:00
    expect(daysToNextPayday(new Date('2026-03-01T12:00:00.000Z'), 'America/New_York')).toBe(14);
    expect(nextPaydayStart(new Date('2026-03-01T12:00:00.000Z'), 'America/New_York')).toEqual(new Date('2026-03-15T04:00:00.000Z'));
    expect(nextPaydayStart(new Date('2026-03-01T12:00:00.000Z'))).toEqual(new Date('2026-03-15T00:00:00.000Z'));
    // In Tokyo it is already the 31st (a payday, but not one at least a day away): the next, 1 January, starts at 15:00 UTC on the 31st
    expect(nextPaydayStart(new Date('2026-12-30T16:00:00.000Z'), 'Asia/Tokyo')).toEqual(new Date('2026-12-31T15:00:00.000Z'));
  });

  it('stops on a do-not-retry advice code, waits a MAC 24-30 exactly, and stops at max_retries', () => {
    // Act / Assess
    expect(plan(payment({ decline_code: 'do_not_honor', card_network: 'mastercard', advice_code: '03' }))).toMatchObject({
      action: 'stop',
      reason: expect.stringMatching(/^Not retried: .*03/),
    });
    expect(plan(payment({ decline_code: 'insufficient_funds', decline_subcategory: 'balance', card_network: 'mastercard', advice_code: '25' }))).toMatchObject({
      action: 'schedule',
      at: new Date(T.getTime() + 24 * HOUR),
    });
    expect(plan(payment({ retry_count: 8 }))).toEqual({ action: 'stop', reason: 'Not retried: all 8 retries were used' });
    expect(plan(payment({ decline_code: 'fraudulent', decline_category: 'terminal', decline_subcategory: 'fraud' }))).toMatchObject({ action: 'stop' });
  });

  it('tries a new card within the hour after a hard decline (the payment reaches the policy only once the card was updated)', () => {
    expect(plan(payment({ decline_code: 'expired_card', decline_category: 'hard_customer', decline_subcategory: 'expired' }))).toMatchObject({
      action: 'schedule',
      at: new Date(T.getTime() + HOUR),
    });
  });

  it('uses the campaign step when a campaign owns the recovery', () => {
    expect(
      plan(payment({ decline_code: 'card_declined', decline_category: 'unknown', decline_subcategory: 'generic' }), { campaignStepDelayHours: 6 }),
    ).toMatchObject({ action: 'schedule', at: new Date(T.getTime() + 6 * HOUR) });
  });

  it('moves a retry out of quiet hours that cross midnight, in the merchant time zone', () => {
    // Prepare: 23:30 in Tokyo (14:30 UTC); quiet 22-7 Tokyo
    const now = new Date('2026-12-07T14:30:00.000Z');
    // Act
    const decision = plan(payment(), { now, quietHours: { startHour: 22, endHour: 7, timezone: 'Asia/Tokyo', enabled: true } });
    // Assess: 07:00 Tokyo = 22:00 UTC
    expect(decision).toMatchObject({ action: 'schedule', at: new Date('2026-12-07T22:00:00.000Z') });
  });

  it('waits for the card-network cap, then for a card update when the card is blocked', () => {
    // Prepare
    const full = Array.from({ length: 10 }, (_, i) => i).reduce(
      (l, i) => withAttempt(l, { at: new Date(T.getTime() - (10 - i) * HOUR).toISOString(), amount: 2500, currency: 'usd' }),
      emptyLedger('card'),
    );
    // Act
    const capped = plan(payment({ card_network: 'mastercard' }), { ledger: full });
    const blockedCard = plan(payment(), {
      ledger: { ...emptyLedger('card'), blocked_until: new Date(T.getTime() + 100 * HOUR).toISOString(), block_reason: 'MAC 21' },
    });
    // Assess: the oldest of the 10 (10 h ago) leaves the 24-hour window in 14 h
    expect(capped).toMatchObject({ action: 'schedule', at: new Date(T.getTime() + 14 * HOUR + 1000) });
    expect(blockedCard).toMatchObject({ action: 'await_card_update', reason: expect.stringContaining('MAC 21') });
  });
});
