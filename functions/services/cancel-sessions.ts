import {
  type AdvanceInput,
  advanceSession,
  type CancelSessionRecord,
  type CompleteInput,
  completeSession,
  firstVisibleStep,
  isSaved,
  SESSION_TTL_MS,
  type Transition,
} from '#core/cancel-sessions';
import type { CancelFlowStep } from '#core/cancel-flows';
import { ResourceNotFoundError, StateConflictError } from '#core/errors';
import { stepsWithOffer } from '#core/experiments/offer-setting';
import { timeOrderedId } from '#core/ids';
import { hashSessionToken, newSessionToken } from '#core/session-tokens';
import { getActiveCancelFlow } from '#data/cancel-flow-repository';
import { createCancelSession, redemptionCounts, redemptionItem, saveTransition } from '#data/cancel-session-repository';
import type { TransactItem } from '#data/customer-repository';
import { getCustomerByAnyId } from '#data/customer-repository';
import { cancelSessionIdFor } from '#data/entities/cancel-flow';
import { outboundEventItem } from '#data/outbound-event-repository';
import { strategySettingFor } from '#data/strategy-settings';
import { recordSaveConversion } from './experiment-conversions';

/** The offer steps of the session's flow whose redemption cap the customer has reached. */
async function exhaustedOffers(session: Pick<CancelSessionRecord, 'merchant_id' | 'customer_id' | 'flow_id' | 'steps'>): Promise<Set<string>> {
  if (!session.steps.some((step) => step.step_type === 'offer')) return new Set();
  const counts = await redemptionCounts(session.merchant_id, session.customer_id, session.flow_id);
  return new Set(session.steps.filter((step) => step.offer !== null && (counts.get(step.id) ?? 0) >= step.offer.redemption_cap).map((step) => step.id));
}

/**
 * Starts a session of the merchant's active flow for one of its own customers (by our id or the
 * provider's): a customer of another merchant is 404, as an unknown one. No active flow: 409.
 * The token (32 random bytes, base64url) is returned once; only its SHA-256 is stored.
 */
export async function startCancelSession(
  merchantId: string,
  input: { readonly customer_id: string; readonly subscription_id?: string | undefined },
  now: Date,
): Promise<{ session: CancelSessionRecord; token: string }> {
  const customer = await getCustomerByAnyId(merchantId, input.customer_id);
  if (customer === undefined) throw new ResourceNotFoundError(`No customer ${input.customer_id}.`, { param: 'customer_id' });
  const flow = await getActiveCancelFlow(merchantId);
  if (flow === undefined) throw new StateConflictError('The merchant has no active cancel flow: activate one first.');
  const at = now.toISOString();
  const draft = { merchant_id: merchantId, customer_id: customer.id, flow_id: flow.id, steps: await offeredSteps(merchantId, customer.id, flow.steps, now) };
  const session: CancelSessionRecord = {
    id: cancelSessionIdFor(timeOrderedId(now)),
    ...draft,
    subscription_id: input.subscription_id ?? null,
    state: 'in_progress',
    current_step: firstVisibleStep(flow.steps, 0, await exhaustedOffers(draft)),
    answers: [],
    accepted_offer: null,
    outcome: null,
    reason: null,
    feedback: null,
    created_at: at,
    updated_at: at,
    expires_at: new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
    completed_at: null,
    save_status: null,
    save_window_closed: false,
    version: 1,
  };
  const token = newSessionToken();
  await createCancelSession(session, hashSessionToken(token));
  return { session, token };
}

/**
 * The flow's steps with the customer's offer setting applied (core/experiments/offer-setting.ts):
 * their variant of a running offer experiment, assigned here when the flow has an offer step (the
 * exposure), else the merchant's default offer, else the flow's own offers. A flow without offer
 * steps reads nothing.
 */
async function offeredSteps(merchantId: string, customerId: string, steps: readonly CancelFlowStep[], now: Date): Promise<readonly CancelFlowStep[]> {
  if (!steps.some((step) => step.step_type === 'offer' && step.offer !== null)) return steps;
  const choice = await strategySettingFor(merchantId, customerId, 'offer', now);
  return choice === undefined ? steps : stepsWithOffer(steps, choice.setting);
}

/** The event object of a completed session (what the merchant's webhook receives). */
export function completedEventObject(session: CancelSessionRecord): Record<string, unknown> {
  return {
    session_id: session.id,
    flow_id: session.flow_id,
    customer_id: session.customer_id,
    subscription_id: session.subscription_id,
    outcome: session.outcome,
    reason: session.reason,
    feedback: session.feedback,
    accepted_offer: session.accepted_offer,
    completed_at: session.completed_at,
  };
}

/** Writes a transition with what it causes: a redemption of the accepted offer, and the event of a completion. */
async function commit(before: CancelSessionRecord, transition: Transition, tokenHash: string, now: Date): Promise<CancelSessionRecord> {
  const { session, accepted } = transition;
  const also: TransactItem[] = [];
  if (accepted !== null) also.push(redemptionItem(session, accepted.step_id, accepted.redemption_cap, now));
  if (session.state === 'completed')
    also.push(outboundEventItem(session.merchant_id, session.customer_id, ['cancel_session.completed'], completedEventObject(session), now));
  await saveTransition(before, session, tokenHash, also);
  // A save converts the customer in the offer experiment they were assigned in (once).
  if (session.state === 'completed' && isSaved(session.outcome)) await recordSaveConversion(session, now);
  return session;
}

export async function advanceCancelSession(session: CancelSessionRecord, tokenHash: string, input: AdvanceInput, now: Date): Promise<CancelSessionRecord> {
  const exhausted = session.state === 'completed' ? new Set<string>() : await exhaustedOffers(session);
  return commit(session, advanceSession(session, input, exhausted, now), tokenHash, now);
}

export async function completeCancelSession(session: CancelSessionRecord, tokenHash: string, input: CompleteInput, now: Date): Promise<CancelSessionRecord> {
  return commit(session, completeSession(session, input, now), tokenHash, now);
}
