import { cancelFlowBodyOf } from '../entities/cancel-flow';
import { CANCEL_FLOW_ENTITY, cancelFlowKeys } from '../keys';
import type { Projection } from './projection';

/**
 * A cancel flow's session statistics (`COUNT#CFLOW#<flow>`, read by GET /cancel-flows): every
 * session started, those completed and each outcome, and after the 30-day re-check those whose
 * save window closed (completed, not abandoned) and the saves it confirmed or found lost
 * (docs/cancel-flows.md, "Save rate").
 */
export const cancelFlowStatsProjection: Projection = (item) => {
  if (item.entity !== CANCEL_FLOW_ENTITY.session || typeof item.merchant_id !== 'string' || typeof item.flow_id !== 'string') return [];
  const body = cancelFlowBodyOf(item.flow_id);
  if (body === undefined) return [];
  const counters: Record<string, number> = { started: 1 };
  if (item.state === 'completed' && typeof item.outcome === 'string') {
    counters.completed = 1;
    counters[`outcome_${item.outcome}`] = 1;
  }
  if (item.save_window_closed === true) counters.window_closed = 1;
  if (item.save_status === 'confirmed') counters.save_confirmed = 1;
  if (item.save_status === 'lost') counters.save_lost = 1;
  return [{ key: cancelFlowKeys.stats(item.merchant_id, body), counters, attributes: { entity: CANCEL_FLOW_ENTITY.stats, flow_id: item.flow_id } }];
};
