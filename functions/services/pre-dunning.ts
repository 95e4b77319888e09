import { occasionIdFor } from '#core/enrollments';
import { dayOf } from '#core/analytics/period';
import { cardExpiresBefore, PRE_DUNNING_LEAD_DAYS } from '#core/upcoming-charges';
import { getCustomer } from '#data/customer-repository';
import { chargesDueOn } from '#data/upcoming-charge-repository';
import { enrollForOccasionOrLog, occasionCampaignLookup } from './campaign-enrollment';

const DAY_MS = 86_400_000;

/** What one run of `pre-dunning-notifications` did (counts only). */
export interface PreDunningSummary {
  /** The window read: charges due after `from` and at most `to` (the run's `now` + the lead time). */
  readonly from: string;
  readonly to: string;
  /** Upcoming charges due in the window. */
  readonly charges: number;
  readonly enrolled: number;
  /** Enrolled for this charge already (an earlier run): nothing written. */
  readonly already_enrolled: number;
  /** The customer's card outlives the charge and it has no open failed payment: not notified. */
  readonly not_at_risk: number;
  /** Their merchant has no active `pre_dunning` campaign (with steps). */
  readonly no_campaign: number;
  /** The customer was erased. */
  readonly skipped: number;
  /** Could not be enrolled this run (logged); the next run tries again. */
  readonly failed: number;
}

/**
 * The daily `pre-dunning-notifications` task: every upcoming charge (a renewal Stripe or Chargebee
 * announced, services/upcoming-charges.ts) due within PRE_DUNNING_LEAD_DAYS (7) days of the run
 * enrolls its customer in the merchant's active `pre_dunning` campaign when the charge is likely
 * to fail: the customer's card on file expires before it, or the customer has an open failed
 * payment. Once per charge: the enrollment's key is the customer and the charge
 * (occasionIdFor), so reruns and the next days' runs write nothing. Reads the upcoming-charge
 * index of the 8 UTC days the window touches (8 Queries each, never a Scan), each customer
 * (consistently) and, once per merchant, its active-campaign index.
 */
export async function notifyUpcomingCharges(now: Date): Promise<PreDunningSummary> {
  const to = new Date(now.getTime() + PRE_DUNNING_LEAD_DAYS * DAY_MS);
  const campaignOf = occasionCampaignLookup('pre_dunning');
  const counts = { charges: 0, enrolled: 0, already_enrolled: 0, not_at_risk: 0, no_campaign: 0, skipped: 0, failed: 0 };
  for (let day = 0; day <= PRE_DUNNING_LEAD_DAYS; day += 1) {
    for await (const charge of chargesDueOn(dayOf(new Date(now.getTime() + day * DAY_MS)))) {
      const due = new Date(charge.due_at);
      if (due.getTime() <= now.getTime() || due.getTime() > to.getTime()) continue;
      counts.charges += 1;
      const campaign = await campaignOf(charge.merchant_id);
      if (campaign === undefined) {
        counts.no_campaign += 1;
        continue;
      }
      const customer = await getCustomer(charge.merchant_id, charge.customer_id);
      if (customer === undefined) {
        counts.skipped += 1;
        continue;
      }
      const expiring = customer.card_expiry != null && cardExpiresBefore(customer.card_expiry, due);
      if (!expiring && customer.open_payments === 0) {
        counts.not_at_risk += 1;
        continue;
      }
      const occasion = {
        id: occasionIdFor(customer.id, `pre_dunning:${charge.id}`, due),
        kind: 'pre_dunning' as const,
        charge_id: charge.id,
        due_at: charge.due_at,
        amount: charge.amount,
        currency: charge.currency,
      };
      const outcome = await enrollForOccasionOrLog(customer, campaign, occasion, now);
      counts[outcome === 'campaign_not_active' ? 'no_campaign' : outcome] += 1;
    }
  }
  return { from: now.toISOString(), to: to.toISOString(), ...counts };
}
