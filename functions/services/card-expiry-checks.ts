import { type CardExpiry, cardExpiryMonth, sameCardExpiry } from '#core/customers';
import { occasionIdFor } from '#core/enrollments';
import { cardsExpiringIn } from '#data/card-expiry-repository';
import { getCustomer } from '#data/customer-repository';
import { enrollForOccasionOrLog, occasionCampaignLookup } from './campaign-enrollment';

/** What one run of `card-expiry-checks` did (counts only: the job's report never holds records). */
export interface CardExpiryCheckSummary {
  /** The expiry months read (`YYYY-MM`): the run's UTC month and the next. */
  readonly months: readonly string[];
  /** Index entries read. */
  readonly cards: number;
  readonly enrolled: number;
  /** Enrolled for this card already (an earlier run, another day): nothing written. */
  readonly already_enrolled: number;
  /** Their merchant has no active `card_expiring` campaign (with steps). */
  readonly no_campaign: number;
  /** The customer was erased, or its card changed since the index entry was read. */
  readonly skipped: number;
  /** Could not be enrolled this run (logged); the next run tries again. */
  readonly failed: number;
}

/** The run's UTC month and the next one, `YYYY-MM`. */
export function expiryMonthsAt(now: Date): [string, string] {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() + 1;
  const next = month === 12 ? { month: 1, year: year + 1 } : { month: month + 1, year };
  return [cardExpiryMonth({ month, year }), cardExpiryMonth(next)];
}

/** The first instant of the card's expiry month (UTC): the time of its occasion id. */
const monthStart = (expiry: CardExpiry): Date => new Date(Date.UTC(expiry.year, expiry.month - 1, 1));

/**
 * The daily `card-expiry-checks` task: every customer, of every merchant, whose card on file
 * expires at the end of the run's UTC month or the next one is enrolled in its merchant's active
 * `card_expiring` campaign (occasionCampaignOf), once per card: the enrollment's key is the
 * customer and the card's expiry month (core/enrollments.ts occasionIdFor), so reruns the same
 * day and the runs of the next weeks find it there and write nothing. It reads only the
 * card-expiry index of those two months (data/card-expiry-repository.ts: 8 Queries a month, never
 * a Scan), then, per entry, the customer (consistent read: an erased customer or one whose card
 * changed since is skipped) and, once per merchant, the active-campaign index. A card updated
 * after enrollment ends the enrollment (`card_updated`) when the card changes
 * (payment_method_updated) or, at the latest, at its next step (decideOccasionStep).
 */
export async function checkCardExpiries(now: Date): Promise<CardExpiryCheckSummary> {
  const months = expiryMonthsAt(now);
  const campaignOf = occasionCampaignLookup('card_expiring');
  const counts = { cards: 0, enrolled: 0, already_enrolled: 0, no_campaign: 0, skipped: 0, failed: 0 };
  for (const month of months) {
    for await (const card of cardsExpiringIn(month)) {
      counts.cards += 1;
      const campaign = await campaignOf(card.merchantId);
      if (campaign === undefined) {
        counts.no_campaign += 1;
        continue;
      }
      const customer = await getCustomer(card.merchantId, card.customerId);
      const expiry = { month: card.month, year: card.year };
      if (customer === undefined || !sameCardExpiry(customer.card_expiry, expiry)) {
        counts.skipped += 1;
        continue;
      }
      const occasion = {
        id: occasionIdFor(customer.id, `card_expiring:${cardExpiryMonth(expiry)}`, monthStart(expiry)),
        kind: 'card_expiring' as const,
        card_expiry: expiry,
      };
      const outcome = await enrollForOccasionOrLog(customer, campaign, occasion, now);
      counts[outcome === 'campaign_not_active' ? 'no_campaign' : outcome] += 1;
    }
  }
  return { months, ...counts };
}
