import type { CardExpiry } from './customers';
import { derivedIdBody } from './derived-ids';
import { idBody } from './ids';

/**
 * An upcoming charge (issue 16, pre-dunning): a renewal a provider announced before charging it
 * (Stripe `invoice.upcoming`, Chargebee `subscription_renewal_reminder`). Its id is derived from
 * the provider, the subscription and the due time (upcomingChargeIdFor), so the same renewal
 * announced again (a redelivery, a reminder) is the same item, its amount the newest announced.
 */
export interface UpcomingChargeRecord {
  /** `upc_<body>`: 10 characters of the due time, 16 of a digest (see upcomingChargeIdFor). */
  readonly id: string;
  readonly merchant_id: string;
  readonly customer_id: string;
  readonly psp: string;
  readonly subscription_id: string | null;
  /** Smallest currency unit. */
  readonly amount: number;
  readonly currency: string;
  /** When the provider will charge it. */
  readonly due_at: string;
  /** The provider event that announced it last. */
  readonly provider_event_id: string;
  readonly created_at: string;
  readonly updated_at: string;
}

/** How far ahead of a charge the daily pre-dunning task notifies (Stripe's and Chargebee's reminders default to 7 days or fewer). */
export const PRE_DUNNING_LEAD_DAYS = 7;

/** The id of a renewal: the same psp, subscription (else customer) and due time always name the same item (derived-ids.ts). */
export const upcomingChargeIdFor = (psp: string, subscriptionOrCustomer: string, dueAt: Date): string =>
  `upc_${derivedIdBody(dueAt, psp, subscriptionOrCustomer, dueAt.toISOString())}`;

export const upcomingChargeBodyOf = (id: string): string | undefined => idBody(id, 'upc');

/**
 * Whether a card on file expires before a charge: a card is valid through the last day of its
 * expiry month, so it has expired at a charge due on or after the first day of the month after.
 *
 * @example cardExpiresBefore({ month: 5, year: 2041 }, new Date('2041-06-01T00:00:00Z')) // true
 */
export function cardExpiresBefore(expiry: CardExpiry, dueAt: Date): boolean {
  return dueAt.getTime() >= Date.UTC(expiry.year, expiry.month, 1);
}
