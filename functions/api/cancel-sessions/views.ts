import type { CancelSessionRecord } from '#core/cancel-sessions';
import { sessionState } from '#core/cancel-sessions';
import type { z } from '#shared/zod';
import type { CancelSession } from './schemas';

/** The session as its holder reads it: the current step without the flow's branching (customers see where they go, not why). */
export function cancelSessionView(session: CancelSessionRecord, now: Date): z.output<typeof CancelSession> {
  const index = session.steps.findIndex((step) => step.id === session.current_step);
  const step = session.steps[index];
  const state = sessionState(session, now);
  return {
    id: session.id,
    state,
    flow_id: session.flow_id,
    customer_id: session.customer_id,
    subscription_id: session.subscription_id,
    current_step:
      step === undefined
        ? null
        : {
            id: step.id,
            step_type: step.step_type,
            title: step.title,
            body: step.body,
            options: step.options.map(({ value, label }) => ({ value, label })),
            button_label: step.button_label,
            offer: step.offer === null ? null : { type: step.offer.type, value: step.offer.value, duration_months: step.offer.duration_months },
          },
    step_number: step === undefined ? null : index + 1,
    total_steps: session.steps.length,
    answers: session.answers.map(({ step_id, step_type, selected_reason, accepted, at }) => ({ step_id, step_type, selected_reason, accepted, at })),
    accepted_offer:
      session.accepted_offer === null
        ? null
        : {
            step_id: session.accepted_offer.step_id,
            type: session.accepted_offer.type,
            value: session.accepted_offer.value,
            duration_months: session.accepted_offer.duration_months,
          },
    outcome: session.outcome,
    reason: session.reason,
    feedback: session.feedback,
    save_status: session.save_status,
    created_at: session.created_at,
    expires_at: session.expires_at,
    completed_at: session.completed_at,
  };
}
