import { advanceSession, completeSession, firstVisibleStep, needsSaveRecheck, saveWindowClosesOn, sessionState } from '#core/cancel-sessions';
import { InvalidRequestError, StateConflictError, ValidationError } from '#core/errors';
import { SESSION_CREATED_AT, sessionRecord } from '#test/fixtures/cancel-flows';

const NOW = new Date(SESSION_CREATED_AT);
const steps = sessionRecord().steps;
const session = sessionRecord;
const none = new Set<string>();

describe('the cancel-session state machine', () => {
  it('branches a survey answer to the offer its option names', () => {
    // Act
    const { session: after, accepted } = advanceSession(session(), { selected_reason: 'taking_a_break' }, none, NOW);
    // Assess
    expect(after).toMatchObject({ state: 'in_progress', current_step: 'pause', version: 2 });
    expect(after.answers).toEqual([expect.objectContaining({ step_id: 'why', selected_reason: 'taking_a_break' })]);
    expect(accepted).toBeNull();
  });

  it('goes to the next step in order for an option without a branch', () => {
    // Act
    const { session: after } = advanceSession(session(), { selected_reason: 'missing_features' }, none, NOW);
    // Assess
    expect(after.current_step).toBe('discount');
  });

  it('skips an offer the customer reached the cap of, branch or not', () => {
    // Act
    const branched = advanceSession(session(), { selected_reason: 'too_expensive' }, new Set(['discount']), NOW).session;
    const inOrder = advanceSession(session(), { selected_reason: 'missing_features' }, new Set(['discount', 'pause']), NOW).session;
    // Assess
    expect(branched.current_step).toBe('pause');
    expect(inOrder.current_step).toBe('confirm');
    expect(firstVisibleStep(steps, 1, new Set(['discount']))).toBe('pause');
  });

  it('refuses a survey answer that is missing (400) or not an option (422), naming selected_reason', () => {
    // Act
    const missing = () => advanceSession(session(), {}, none, NOW);
    const unknown = () => advanceSession(session(), { selected_reason: 'nope' }, none, NOW);
    // Assess
    expect(missing).toThrow(InvalidRequestError);
    expect(unknown).toThrow(ValidationError);
    expect(() => unknown()).toThrow(expect.objectContaining({ param: 'selected_reason' }));
  });

  it('completes the session as saved when an offer is accepted, and moves on when it is declined', () => {
    // Prepare
    const atOffer = session({
      current_step: 'discount',
      answers: [{ step_id: 'why', step_type: 'survey', selected_reason: 'too_expensive', accepted: null, response: null, at: NOW.toISOString() }],
    });
    // Act
    const accepted = advanceSession(atOffer, { response: { accepted: true } }, none, NOW);
    const declined = advanceSession(atOffer, { response: { accepted: false } }, none, NOW);
    // Assess
    expect(accepted.session).toMatchObject({
      state: 'completed',
      outcome: 'saved_discount',
      save_status: 'pending',
      reason: 'too_expensive',
      current_step: null,
    });
    expect(accepted.accepted).toMatchObject({ step_id: 'discount', type: 'discount', value: 30, redemption_cap: 1 });
    expect(declined.session).toMatchObject({ state: 'in_progress', current_step: 'pause' });
    expect(declined.accepted).toBeNull();
    expect(() => advanceSession(atOffer, { response: { accepted: 'yes' } }, none, NOW)).toThrow(ValidationError);
    expect(() => advanceSession(atOffer, {}, none, NOW)).toThrow(InvalidRequestError);
  });

  it('leaves only completion after the last step, and refuses to advance further (409)', () => {
    // Act
    const after = advanceSession(session({ current_step: 'confirm' }), {}, none, NOW).session;
    // Assess
    expect(after.current_step).toBeNull();
    expect(() => advanceSession(after, {}, none, NOW)).toThrow(StateConflictError);
  });

  it('completes once: a completed session refuses advance and complete (409)', () => {
    // Prepare
    const done = completeSession(session(), { outcome: 'cancelled', feedback: 'bye' }, NOW).session;
    // Assess
    expect(done).toMatchObject({ state: 'completed', outcome: 'cancelled', feedback: 'bye', save_status: null, completed_at: NOW.toISOString() });
    expect(() => completeSession(done, { outcome: 'abandoned' }, NOW)).toThrow(StateConflictError);
    expect(() => advanceSession(done, {}, none, NOW)).toThrow(StateConflictError);
  });

  it('accepts saved_discount and saved_pause only as the acceptance of the current offer of that type', () => {
    // Act
    const onPause = completeSession(session({ current_step: 'pause' }), { outcome: 'saved_pause' }, NOW);
    const wrong = () => completeSession(session({ current_step: 'why' }), { outcome: 'saved_discount' }, NOW);
    const other = completeSession(session({ current_step: 'why' }), { outcome: 'saved_other' }, NOW);
    // Assess
    expect(onPause.accepted).toMatchObject({ step_id: 'pause', type: 'pause' });
    expect(onPause.session.save_status).toBe('pending');
    expect(wrong).toThrow(expect.objectContaining({ param: 'outcome', statusCode: 422 }));
    expect(other).toMatchObject({ accepted: null, session: { outcome: 'saved_other', save_status: 'pending' } });
  });

  it('reads an in-progress session past its 24 h as expired, and a completed one as completed', () => {
    // Prepare
    const later = new Date(NOW.getTime() + 24 * 3600_000);
    // Assess
    expect(sessionState(session(), NOW)).toBe('in_progress');
    expect(sessionState(session(), later)).toBe('expired');
    expect(sessionState(session({ state: 'completed' }), later)).toBe('completed');
  });

  it('re-checks every completed session but abandoned ones, 30 days after completion', () => {
    // Assess
    expect(needsSaveRecheck({ state: 'completed', outcome: 'cancelled' })).toBe(true);
    expect(needsSaveRecheck({ state: 'completed', outcome: 'saved_pause' })).toBe(true);
    expect(needsSaveRecheck({ state: 'completed', outcome: 'abandoned' })).toBe(false);
    expect(needsSaveRecheck({ state: 'in_progress', outcome: null })).toBe(false);
    expect(saveWindowClosesOn('2026-11-25T23:30:00.000Z')).toBe('2026-12-25');
  });
});
