import { findDeclineCode } from '#core/decline-codes/catalogue';
import { baselineRecoveryRate } from '#core/decline-codes/recovery-rates';
import type { DeclineSubcategory } from '#core/decline-codes/types';
import { type AmountsByCurrency, addAmount } from '#core/money';
import type { PaymentRecord } from '#core/payments';
import type { CampaignFailure, FailureCustomer } from './failure';
import { campaignMatches } from './matching';
import type { CampaignFilters, CampaignStep, MessageChannel } from './types';

/**
 * POST /campaigns/simulate, the pure part: replays past failed payments through a trigger,
 * filters and steps. Each payment that would have enrolled (campaignMatches, ignoring the other
 * campaigns: overlap answers that) runs the steps from its failure time: step i at
 * created_at + delay_hours + the delays of steps 1..i. A step is not counted when the payment was
 * recovered before the step's time and stop_on_recovery holds. Sending hours and quiet hours are
 * not applied (they shift a step by hours, not whether it is sent). Steps later than now count as
 * sent unless the payment is already recovered (with stop_on_recovery): its future is unknown.
 *
 * Expected recoveries, two ways, per currency (never summed across currencies):
 * - from the catalogue: each enrolled payment's decline code's recovery_rate
 *   (functions/core/decline-codes/recovery-rates.ts), or its subcategory's baseline when the code
 *   is not in the catalogue; count = the sum of rates, amount = Σ amount × rate (rounded);
 * - from the merchant's own history: the enrolled payments that were in fact recovered.
 */
export interface SimulationPlan {
  readonly trigger: string;
  readonly filters: CampaignFilters;
  readonly steps: readonly CampaignStep[];
  readonly delay_hours: number;
  readonly stop_on_recovery: boolean;
}

export interface ReplayedFailure {
  readonly payment: PaymentRecord;
  readonly failure: CampaignFailure;
}

export interface SimulationOutcome {
  readonly payments_considered: number;
  readonly would_enroll: number;
  readonly messages: Readonly<Record<MessageChannel, number>> & { readonly total: number };
  readonly retries: number;
  /** Steps not taken because the payment had been recovered before their time. */
  readonly steps_stopped_by_recovery: number;
  readonly enrolled_amount_by_currency: AmountsByCurrency;
  readonly expected_recoveries: {
    readonly catalogue: { readonly recoveries: number; readonly recovery_rate: number; readonly amount_by_currency: AmountsByCurrency };
    readonly history: { readonly recoveries: number; readonly recovery_rate: number; readonly amount_by_currency: AmountsByCurrency };
  };
}

const HOUR_MS = 3_600_000;
const round2 = (value: number): number => Math.round(value * 100) / 100;

/** The catalogue's expected recovery rate of a failed payment (its code's, else its subcategory's baseline). */
export function catalogueRecoveryRate(payment: Pick<PaymentRecord, 'psp' | 'decline_code' | 'decline_category' | 'decline_subcategory'>): number {
  const entry = payment.decline_code === null ? undefined : findDeclineCode(payment.psp, payment.decline_code);
  return entry?.recovery_rate ?? baselineRecoveryRate(payment.decline_category, payment.decline_subcategory as DeclineSubcategory);
}

export function simulateCampaign(plan: SimulationPlan, replayed: readonly ReplayedFailure[], now: Date): SimulationOutcome {
  const messages: Record<MessageChannel, number> = { email: 0, sms: 0, whatsapp: 0 };
  let retries = 0;
  let stopped = 0;
  let enrolled = 0;
  let enrolledAmount: AmountsByCurrency = {};
  let catalogueCount = 0;
  let catalogueAmount: AmountsByCurrency = {};
  let historyCount = 0;
  let historyAmount: AmountsByCurrency = {};
  for (const { payment, failure } of replayed) {
    if (!campaignMatches(plan, failure)) continue;
    enrolled += 1;
    enrolledAmount = addAmount(enrolledAmount, payment.currency, payment.amount);
    const rate = catalogueRecoveryRate(payment);
    catalogueCount += rate;
    catalogueAmount = addAmount(catalogueAmount, payment.currency, Math.round(payment.amount * rate));
    if (payment.status === 'recovered') {
      historyCount += 1;
      historyAmount = addAmount(historyAmount, payment.currency, payment.amount);
    }
    const recoveredAt = payment.recovered_at === null ? undefined : Date.parse(payment.recovered_at);
    let at = Date.parse(payment.created_at) + plan.delay_hours * HOUR_MS;
    for (const step of plan.steps) {
      at += step.delay_hours * HOUR_MS;
      const recoveredBefore = recoveredAt !== undefined && (recoveredAt <= at || at > now.getTime());
      if (plan.stop_on_recovery && recoveredBefore) {
        stopped += 1;
        continue;
      }
      if (step.action === 'retry') retries += 1;
      else messages[step.action] += 1;
    }
  }
  return {
    payments_considered: replayed.length,
    would_enroll: enrolled,
    messages: { ...messages, total: messages.email + messages.sms + messages.whatsapp },
    retries,
    steps_stopped_by_recovery: stopped,
    enrolled_amount_by_currency: enrolledAmount,
    expected_recoveries: {
      catalogue: {
        recoveries: round2(catalogueCount),
        recovery_rate: enrolled === 0 ? 0 : round2(catalogueCount / enrolled),
        amount_by_currency: catalogueAmount,
      },
      history: { recoveries: historyCount, recovery_rate: enrolled === 0 ? 0 : round2(historyCount / enrolled), amount_by_currency: historyAmount },
    },
  };
}

/**
 * The customer facts of past payments, as they stood at each failure: earlier failures are the
 * customer's failed_payments now less its payments in the replayed set from this one on (exact
 * when the set holds every payment of the customer since this one, which a full read of the
 * window does); lifetime value is the customer's value now (an estimate for the past).
 */
export function earlierFailureCounts(payments: readonly PaymentRecord[], customers: ReadonlyMap<string, FailureCustomer>): Map<string, FailureCustomer> {
  const byCustomer = new Map<string, PaymentRecord[]>();
  for (const payment of payments) byCustomer.set(payment.customer_id, [...(byCustomer.get(payment.customer_id) ?? []), payment]);
  const facts = new Map<string, FailureCustomer>();
  for (const [customerId, own] of byCustomer) {
    const customer = customers.get(customerId);
    const newestFirst = [...own].sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
    newestFirst.forEach((payment, i) => {
      facts.set(payment.id, {
        failed_payments: Math.max(0, (customer?.failed_payments ?? own.length) - (i + 1)),
        lifetime_value_by_currency: customer?.lifetime_value_by_currency ?? {},
      });
    });
  }
  return facts;
}
