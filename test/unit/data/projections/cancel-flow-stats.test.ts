import { cancelFlowStatsProjection } from '#data/projections/cancel-flow-stats';
import { incrementsOf } from '#data/projections/increments';
import { CANCEL_FLOW_ENTITY, cancelFlowKeys } from '#data/keys';

const FLOW_BODY = '01JD8Y1A2B3C4D5E6F7G8H9J0K';
const item = (fields: Record<string, unknown>) => ({
  entity: CANCEL_FLOW_ENTITY.session,
  merchant_id: 'm_1',
  flow_id: `cf_${FLOW_BODY}`,
  state: 'in_progress',
  ...fields,
});

describe('cancelFlowStatsProjection', () => {
  it('counts a started session, then moves it to its outcome when it completes', () => {
    // Act
    const started = incrementsOf([cancelFlowStatsProjection], undefined, item({}));
    const completed = incrementsOf([cancelFlowStatsProjection], item({}), item({ state: 'completed', outcome: 'saved_pause', save_status: 'pending' }));
    // Assess
    expect(started).toEqual([expect.objectContaining({ key: cancelFlowKeys.stats('m_1', FLOW_BODY), counters: { started: 1 } })]);
    expect(completed[0]?.counters).toEqual({ completed: 1, outcome_saved_pause: 1 });
  });

  it('counts the re-check: the window closed and the save confirmed or lost', () => {
    // Prepare
    const saved = item({ state: 'completed', outcome: 'saved_discount', save_status: 'pending' });
    // Act
    const lost = incrementsOf([cancelFlowStatsProjection], saved, { ...saved, save_status: 'lost', save_window_closed: true });
    // Assess
    expect(lost[0]?.counters).toEqual({ window_closed: 1, save_lost: 1 });
  });

  it('ignores other items and a session whose flow id is not one', () => {
    // Assess
    expect(cancelFlowStatsProjection({ entity: 'payment', merchant_id: 'm_1' })).toEqual([]);
    expect(cancelFlowStatsProjection(item({ flow_id: 'nope' }))).toEqual([]);
  });
});
