import type { CampaignRecord } from '#core/campaigns/types';
import { newCampaign } from '#core/campaigns/lifecycle';
import type { CustomerRecord } from '#core/customers';
import {
  currentStepOf,
  decideOccasionStep,
  decideStep,
  type EnrollmentRecord,
  enrollmentBodyOf,
  isInWindow,
  occasionIdFor,
  stepDueAt,
  stepProgressOf,
  stepTimeFor,
} from '#core/enrollments';
import type { PaymentRecord } from '#core/payments';
import { DEFAULT_QUIET_HOURS, type QuietHours } from '#core/quiet-hours';

const at = (iso: string): Date => new Date(iso);
const NO_QUIET = DEFAULT_QUIET_HOURS;
const quiet = (startHour: number, endHour: number, timezone: string): QuietHours => ({ startHour, endHour, timezone, enabled: true });

const campaign = (overrides: Partial<CampaignRecord> = {}): CampaignRecord => ({
  ...newCampaign(
    'm_1',
    {
      name: 'Soft declines',
      trigger: 'payment_failed',
      filters: {},
      steps: [
        { action: 'email', delay_hours: 0, template_id: 'tmpl_a' },
        { action: 'retry', delay_hours: 24, template_id: null },
        { action: 'sms', delay_hours: 48, template_id: 'tmpl_b' },
      ],
      delay_hours: 2,
    },
    at('2026-03-01T00:00:00Z'),
  ),
  status: 'active',
  ...overrides,
});

const enrollment = (overrides: Partial<EnrollmentRecord> = {}): EnrollmentRecord => ({
  merchant_id: 'm_1',
  campaign_id: 'camp_1',
  payment_id: 'pe_1',
  recovery_id: 'rec_1',
  customer_id: 'cust_1',
  status: 'active',
  step_index: 0,
  next_step_at: '2026-03-01T09:00:00.000Z',
  total_steps: 3,
  retries_run: 0,
  enrolled_at: '2026-03-01T03:00:00.000Z',
  ended_at: null,
  end_reason: null,
  steps: [],
  version: 2,
  ...overrides,
});

const payment = (status: PaymentRecord['status']): PaymentRecord => ({ status }) as PaymentRecord;

describe('isInWindow', () => {
  it.each([
    [9, 21, 9, true],
    [9, 21, 21, true],
    [9, 21, 22, false],
    [9, 21, 8, false],
    [22, 6, 23, true],
    [22, 6, 3, true],
    [22, 6, 6, true],
    [22, 6, 12, false],
    [0, 23, 0, true],
    [5, 5, 5, true],
    [5, 5, 6, false],
  ])('window %i-%i holds hour %i: %s', (start, end, hour, expected) => {
    // Act and assess
    expect(isInWindow({ start_hour: start, end_hour: end }, hour)).toBe(expected);
  });
});

describe('stepTimeFor', () => {
  it('keeps an instant already inside the window and outside quiet hours', () => {
    // Act
    const when = stepTimeFor(at('2026-03-01T10:15:00Z'), { start_hour: 9, end_hour: 21 }, 'UTC', NO_QUIET);
    // Assess
    expect(when.toISOString()).toBe('2026-03-01T10:15:00.000Z');
  });

  it('moves an instant before the window to its start hour, in the given time zone', () => {
    // Act: 03:00 UTC is 22:00 the day before in New York (EST, UTC-5)
    const when = stepTimeFor(at('2026-03-01T03:00:00Z'), { start_hour: 9, end_hour: 21 }, 'America/New_York', NO_QUIET);
    // Assess: 09:00 New York is 14:00 UTC
    expect(when.toISOString()).toBe('2026-03-01T14:00:00.000Z');
  });

  it('moves an instant after the window to the next day start', () => {
    // Act
    const when = stepTimeFor(at('2026-03-01T22:30:00Z'), { start_hour: 9, end_hour: 21 }, 'UTC', NO_QUIET);
    // Assess
    expect(when.toISOString()).toBe('2026-03-02T09:00:00.000Z');
  });

  it('handles a window across midnight', () => {
    // Act: window 22:00-02:59 local; 15:00 is outside, so the next start is 22:00
    const outside = stepTimeFor(at('2026-03-01T15:00:00Z'), { start_hour: 22, end_hour: 2 }, 'UTC', NO_QUIET);
    const inside = stepTimeFor(at('2026-03-02T01:30:00Z'), { start_hour: 22, end_hour: 2 }, 'UTC', NO_QUIET);
    // Assess
    expect(outside.toISOString()).toBe('2026-03-01T22:00:00.000Z');
    expect(inside.toISOString()).toBe('2026-03-02T01:30:00.000Z');
  });

  it('follows the spring-forward DST change of the zone', () => {
    // Prepare: New York moves from EST (UTC-5) to EDT (UTC-4) on 2026-03-08 at 02:00 local
    // Act: 2026-03-08T05:00Z is 00:00 EST (before the change); 09:00 EDT that day is 13:00 UTC
    const when = stepTimeFor(at('2026-03-08T05:00:00Z'), { start_hour: 9, end_hour: 21 }, 'America/New_York', NO_QUIET);
    // Assess
    expect(when.toISOString()).toBe('2026-03-08T13:00:00.000Z');
  });

  it('follows the fall-back DST change of the zone', () => {
    // Prepare: London moves from BST (UTC+1) to GMT on 2026-10-25 at 02:00 local
    // Act: 2026-10-24T22:00Z is 23:00 BST; 09:00 GMT the next day is 09:00 UTC
    const when = stepTimeFor(at('2026-10-24T22:00:00Z'), { start_hour: 9, end_hour: 21 }, 'Europe/London', NO_QUIET);
    // Assess
    expect(when.toISOString()).toBe('2026-10-25T09:00:00.000Z');
  });

  it('moves out of the merchant quiet hours, kept in their own zone', () => {
    // Prepare: window 9-21 UTC; quiet 8-12 in Asia/Kolkata (UTC+5:30) is 02:30-06:30 UTC
    const q = quiet(8, 12, 'Asia/Kolkata');
    // Act: the window has room before (09:00 UTC is 14:30 Kolkata: not quiet)
    const inWindow = stepTimeFor(at('2026-03-01T09:00:00Z'), { start_hour: 9, end_hour: 21 }, 'UTC', q);
    // Act: a window of 0-10 UTC with quiet hours 02:30-06:30 UTC: 03:00 moves to 06:30
    const quietMorning = stepTimeFor(at('2026-03-01T03:00:00Z'), { start_hour: 0, end_hour: 10 }, 'UTC', q);
    // Assess
    expect(inWindow.toISOString()).toBe('2026-03-01T09:00:00.000Z');
    expect(quietMorning.toISOString()).toBe('2026-03-01T06:30:00.000Z');
  });

  it('gives the first instant of the window when the window lies entirely inside the quiet hours', () => {
    // Act: window 23-1 UTC, quiet 22-7 UTC: never both
    const when = stepTimeFor(at('2026-03-01T12:00:00Z'), { start_hour: 23, end_hour: 1 }, 'UTC', quiet(22, 7, 'UTC'));
    // Assess
    expect(when.toISOString()).toBe('2026-03-01T23:00:00.000Z');
  });
});

describe('stepDueAt', () => {
  it('counts the campaign delay and the first step delay from enrollment, then applies the window', () => {
    // Act: enrolled 03:00 + delay 2 h + step 0 h = 05:00, before the 9-21 window
    const first = stepDueAt(campaign(), 0, at('2026-03-01T03:00:00Z'), 'UTC', NO_QUIET);
    // Assess
    expect(first.toISOString()).toBe('2026-03-01T09:00:00.000Z');
  });

  it('counts a later step from the previous run, without the campaign delay', () => {
    // Act: step 1 waits 24 h after step 0 ran at 10:00
    const second = stepDueAt(campaign(), 1, at('2026-03-01T10:00:00Z'), 'UTC', NO_QUIET);
    // Assess
    expect(second.toISOString()).toBe('2026-03-02T10:00:00.000Z');
  });
});

describe('decideStep', () => {
  const now = at('2026-03-01T09:00:00Z');

  it.each([
    ['recovered', 'recovered', 'payment_recovered'],
    ['terminal', 'stopped', 'payment_terminal'],
  ] as const)('ends the enrollment when the payment is %s', (status, ended, reason) => {
    // Act
    const decision = decideStep(enrollment(), campaign(), payment(status), now);
    // Assess
    expect(decision).toEqual({ kind: 'end', status: ended, reason });
  });

  it('stops when the payment is gone (erased) or the campaign is archived or gone', () => {
    // Act and assess
    expect(decideStep(enrollment(), campaign(), undefined, now)).toEqual({ kind: 'end', status: 'stopped', reason: 'payment_erased' });
    expect(decideStep(enrollment(), campaign({ status: 'archived' }), payment('retrying'), now)).toEqual({
      kind: 'end',
      status: 'stopped',
      reason: 'campaign_archived',
    });
    expect(decideStep(enrollment(), undefined, payment('retrying'), now)).toMatchObject({ kind: 'end', status: 'stopped' });
  });

  it('goes on for a paused campaign (A: in-progress enrollments continue)', () => {
    // Act
    const decision = decideStep(enrollment(), campaign({ status: 'paused' }), payment('retrying'), now);
    // Assess
    expect(decision).toMatchObject({ kind: 'run', index: 0, step: { action: 'email' } });
  });

  it('postpones the step of a paused payment by its wait (at least an hour)', () => {
    // Act
    const first = decideStep(enrollment(), campaign(), payment('paused'), now);
    const second = decideStep(enrollment({ step_index: 1 }), campaign(), payment('paused'), now);
    // Assess
    expect(first).toEqual({ kind: 'postpone', until: at('2026-03-01T10:00:00Z'), reason: 'payment_paused' });
    expect(second).toEqual({ kind: 'postpone', until: at('2026-03-02T09:00:00Z'), reason: 'payment_paused' });
  });

  it('completes when no step is left', () => {
    // Act
    const decision = decideStep(enrollment({ step_index: 3 }), campaign(), payment('pending'), now);
    // Assess
    expect(decision).toEqual({ kind: 'end', status: 'completed', reason: 'steps_done' });
  });
});

describe('stepProgressOf and currentStepOf', () => {
  it('marks run steps done or skipped, the next one pending with its due time, later ones pending', () => {
    // Prepare
    const e = enrollment({
      step_index: 2,
      next_step_at: '2026-03-04T09:00:00.000Z',
      steps: [
        { index: 0, action: 'email', at: '2026-03-01T09:00:00.000Z', outcome: 'message_queued', message_id: 'msg_1' },
        { index: 1, action: 'retry', at: '2026-03-02T09:00:00.000Z', outcome: 'retry_refused: capped', message_id: null },
      ],
    });
    // Act
    const progress = stepProgressOf(e, campaign().steps);
    // Assess
    expect(progress.map((step) => [step.status, step.at])).toEqual([
      ['done', '2026-03-01T09:00:00.000Z'],
      ['skipped', '2026-03-02T09:00:00.000Z'],
      ['pending', '2026-03-04T09:00:00.000Z'],
    ]);
    expect(currentStepOf(e)).toBe(3);
  });

  it('marks steps never run as skipped once the enrollment ended, and reports the last step run', () => {
    // Prepare
    const e = enrollment({
      status: 'recovered',
      step_index: 1,
      next_step_at: null,
      steps: [{ index: 0, action: 'email', at: '2026-03-01T09:00:00.000Z', outcome: 'message_queued', message_id: 'msg_1' }],
    });
    // Act
    const progress = stepProgressOf(e, campaign().steps);
    // Assess
    expect(progress.map((step) => step.status)).toEqual(['done', 'skipped', 'skipped']);
    expect(currentStepOf(e)).toBe(1);
    expect(currentStepOf({ ...e, step_index: 0, steps: [] })).toBe(0);
  });
});

describe('occasionIdFor', () => {
  it('names the same occasion of the same customer alike, and any other differently, with a body shaped like every id body', () => {
    // Prepare
    const month = at('2026-12-01T00:00:00Z');
    // Act
    const id = occasionIdFor('cust_1', 'card_expiring:2026-12', month);
    const again = occasionIdFor('cust_1', 'card_expiring:2026-12', month);
    const others = [occasionIdFor('cust_2', 'card_expiring:2026-12', month), occasionIdFor('cust_1', 'card_expiring:2027-01', month)];
    // Assess
    expect(id).toBe(again);
    expect(id).toMatch(/^occ_[0-9A-HJKMNP-TV-Z]{26}$/);
    for (const other of others) expect(other).not.toBe(id);
    expect(enrollmentBodyOf({ payment_id: null, occasion: { id, kind: 'card_expiring', card_expiry: { month: 12, year: 2026 } } })).toBe(id.slice(4));
    expect(enrollmentBodyOf({ payment_id: 'pe_01JABCDEFGHJKMNPQRSTVWXYZ0', occasion: null })).toBe('01JABCDEFGHJKMNPQRSTVWXYZ0');
  });
});

describe('decideOccasionStep', () => {
  const card = { month: 12, year: 2026 };
  const notice = enrollment({
    payment_id: null,
    recovery_id: null,
    occasion: { id: occasionIdFor('cust_1', 'card_expiring:2026-12', at('2026-12-01T00:00:00Z')), kind: 'card_expiring', card_expiry: card },
  });
  const holder = (expiry: CustomerRecord['card_expiry']): CustomerRecord => ({ id: 'cust_1', card_expiry: expiry }) as CustomerRecord;
  const now = at('2026-11-20T09:00:00Z');

  it.each([
    ['the customer was erased', undefined, 'customer_erased'],
    ['the card was updated', holder({ month: 12, year: 2030 }), 'card_updated'],
    ['the card was cleared', holder(null), 'card_updated'],
  ])('stops a card-expiry notice when %s', (_label, customer, reason) => {
    // Act
    const decision = decideOccasionStep(notice, campaign(), customer, now);
    // Assess
    expect(decision).toEqual({ kind: 'end', status: 'stopped', reason });
  });

  it('runs the next step while the card is the one enrolled, and completes after the last', () => {
    // Act
    const run = decideOccasionStep(notice, campaign(), holder(card), now);
    const done = decideOccasionStep({ ...notice, step_index: 3 }, campaign(), holder(card), now);
    const archived = decideOccasionStep(notice, campaign({ status: 'archived' }), holder(card), now);
    // Assess
    expect(run).toMatchObject({ kind: 'run', index: 0, step: { action: 'email' } });
    expect(done).toEqual({ kind: 'end', status: 'completed', reason: 'steps_done' });
    expect(archived).toEqual({ kind: 'end', status: 'stopped', reason: 'campaign_archived' });
  });

  it('stops a pre-dunning notice once its charge is due', () => {
    // Prepare
    const renewal = { ...notice, occasion: { id: 'occ_x', kind: 'pre_dunning' as const, charge_id: 'upc_x', due_at: '2026-11-25T09:00:00.000Z' } };
    // Act
    const before = decideOccasionStep(renewal, campaign(), holder(null), now);
    const after = decideOccasionStep(renewal, campaign(), holder(null), at('2026-11-25T09:00:00Z'));
    // Assess
    expect(before.kind).toBe('run');
    expect(after).toEqual({ kind: 'end', status: 'stopped', reason: 'charge_due' });
  });
});
