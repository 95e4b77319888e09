import type { CancelFlowRecord } from '#core/cancel-flows';
import type { z } from '#shared/zod';
import type { CancelFlow, CancelFlowStats } from './schemas';

/** A flow's statistics from its counter item (absent before its first session). */
export function statsView(counters: Readonly<Record<string, number>> = {}): z.output<typeof CancelFlowStats> {
  const n = (name: string) => counters[name] ?? 0;
  const saved = { saved_discount: n('outcome_saved_discount'), saved_pause: n('outcome_saved_pause'), saved_other: n('outcome_saved_other') };
  const closed = n('window_closed');
  return {
    started: n('started'),
    completed: n('completed'),
    in_progress_or_expired: n('started') - n('completed'),
    cancelled: n('outcome_cancelled'),
    abandoned: n('outcome_abandoned'),
    saved: { ...saved, total: saved.saved_discount + saved.saved_pause + saved.saved_other },
    save_window_closed: closed,
    save_confirmed: n('save_confirmed'),
    save_lost: n('save_lost'),
    save_rate: closed === 0 ? null : n('save_confirmed') / closed,
  };
}

export function cancelFlowView(flow: CancelFlowRecord, counters?: Readonly<Record<string, number>>): z.output<typeof CancelFlow> {
  return {
    id: flow.id,
    name: flow.name,
    status: flow.status,
    is_active: flow.status === 'active',
    steps: flow.steps.map((step) => ({
      ...step,
      options: step.options.map((option) => ({ ...option })),
      offer: step.offer === null ? null : { ...step.offer },
    })),
    stats: statsView(counters),
    created_at: flow.created_at,
    updated_at: flow.updated_at,
    activated_at: flow.activated_at,
    deactivated_at: flow.deactivated_at,
  };
}
