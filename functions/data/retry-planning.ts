import type { CardLedger } from '#core/card-caps';
import type { PaymentEvent, PaymentRecord } from '#core/payments';
import type { QuietHours } from '#core/quiet-hours';
import { planNextRetry, policyTimeZoneOf, type RetryPlan, retryScoreInputOf } from '#core/retry-policy';
import { scoreRetryByRules } from '#core/scoring/rules';
import type { RetryTimingSetting } from '#core/experiments/experiment';
import { getCardLedger, type StoredCardLedger } from './card-ledger-repository';
import { assignCustomer } from './experiment-repository';
import { mergeRetryTiming } from './recovery-strategy-repository';
import { getQuietHours } from './settings-repository';
import { loadStrategyInputs, type StrategyInputs } from './strategy-settings';

/**
 * What the retry policy needs beyond the payment: the merchant's quiet hours and the card's
 * ledger. Read before a write that plans, so the plan is decided on fresh state; the ledger's
 * version guards the write when it changes the ledger (a claim).
 */
export interface PlanningContext {
  readonly quietHours: QuietHours;
  readonly card: StoredCardLedger;
  /** The merchant's retry timing for this customer (retryTimingFor). */
  readonly retryTiming: RetryTimingSetting;
  /** The defaults and experiments it was decided from, for the operation's other settings (strategy-settings.ts). */
  readonly strategyInputs: StrategyInputs;
}

export async function loadPlanningContext(merchantId: string, payment: Pick<PaymentRecord, 'card_identity' | 'customer_id'>): Promise<PlanningContext> {
  const [quietHours, card, strategyInputs] = await Promise.all([
    getQuietHours(merchantId),
    getCardLedger(merchantId, payment.card_identity),
    loadStrategyInputs(merchantId),
  ]);
  return { quietHours, card, retryTiming: await retryTimingFor(merchantId, payment.customer_id, new Date(), strategyInputs), strategyInputs };
}

/**
 * The retry timing that applies to a customer's payments: the merchant's default (promoted or
 * applied), overlaid with the customer's variant of each running retry-timing experiment, whose
 * assignment is recorded here (the exposure) the first time the policy plans for them.
 */
export async function retryTimingFor(merchantId: string, customerId: string, now: Date = new Date(), inputs?: StrategyInputs): Promise<RetryTimingSetting> {
  const { strategy, experiments } = inputs ?? (await loadStrategyInputs(merchantId));
  let timing = strategy.retry_timing;
  for (const experiment of experiments) {
    if (experiment.kind !== 'retry_timing' || experiment.status !== 'running') continue;
    const variant = await assignCustomer(experiment, customerId, now);
    timing = mergeRetryTiming(timing, variant.setting as RetryTimingSetting);
  }
  return timing;
}

/**
 * Whether the policy owes the payment a decision: open and neither paused nor waiting for a card,
 * with no retry scheduled or in flight. Such a payment would otherwise never be picked up.
 */
export const needsRetryPlan = (p: PaymentRecord): boolean =>
  (p.status === 'pending' || p.status === 'retrying') && !p.awaiting_card_update && p.attempt === null && p.next_retry_at === null;

/** The status-machine event of the policy's decision for the payment's next attempt (core/retry-policy.ts). */
export function plannedRetryEvent(
  payment: PaymentRecord,
  context: { quietHours: QuietHours; ledger: CardLedger; retryTiming?: RetryTimingSetting },
  now: Date,
): PaymentEvent {
  return eventOfPlan(
    planNextRetry({
      payment,
      now,
      quietHours: context.quietHours,
      ledger: context.ledger,
      score: scoreRetryByRules(retryScoreInputOf(payment, now, policyTimeZoneOf(payment, context.quietHours))),
      ...(context.retryTiming === undefined ? {} : { retryTiming: context.retryTiming }),
    }),
  );
}

/** The status-machine event that carries out a policy decision. */
export function eventOfPlan(plan: RetryPlan): PaymentEvent {
  switch (plan.action) {
    case 'schedule':
      return { type: 'schedule_retry', at: plan.at.toISOString(), reason: plan.reason };
    case 'await_card_update':
      return { type: 'await_card_update', reason: plan.reason };
    case 'stop':
      return { type: 'terminate', reason: plan.reason };
  }
}
