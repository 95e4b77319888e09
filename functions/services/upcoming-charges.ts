import type { CardExpiry } from '#core/customers';
import { isCurrency } from '#core/money';
import { type UpcomingChargeRecord, upcomingChargeIdFor } from '#core/upcoming-charges';
import { getCustomerByEmail, setCardExpiry } from '#data/customer-repository';
import { getUpcomingCharge, putUpcomingCharge } from '#data/upcoming-charge-repository';

/** An upcoming charge as a provider announced it (the webhook consumer's normalised `upcoming_charge`). */
export interface AnnouncedCharge {
  readonly psp: string;
  readonly providerEventId: string;
  readonly customerEmail: string;
  readonly subscriptionId?: string | undefined;
  readonly amount?: number | undefined;
  readonly currency?: string | undefined;
  readonly dueAt: string;
  readonly cardExpiry?: CardExpiry | null | undefined;
}

export type AnnouncedChargeOutcome =
  | { readonly outcome: 'stored'; readonly charge: UpcomingChargeRecord }
  /** Not stored: no customer of ours has that email (nothing to foresee: no card expiry, no failed payment), or no usable amount. */
  | { readonly outcome: 'ignored'; readonly reason: string; readonly customerId?: string };

/**
 * Stores an announced renewal for the daily pre-dunning task (services/pre-dunning.ts): one item
 * per psp, subscription and due time (a reminder of the same renewal replaces it, keeping its
 * `created_at`). Only for a customer we know (by email): a customer we have never seen has neither
 * a failed payment nor a card expiry, so the task could not single it out. A card the
 * announcement carries (Chargebee's reminder) updates the customer's card expiry.
 */
export async function recordAnnouncedCharge(merchantId: string, announced: AnnouncedCharge, now: Date): Promise<AnnouncedChargeOutcome> {
  const customer = await getCustomerByEmail(merchantId, announced.customerEmail);
  if (customer === undefined) return { outcome: 'ignored', reason: 'unknown customer' };
  if (announced.cardExpiry != null) await setCardExpiry(merchantId, customer.id, announced.cardExpiry, now);
  const currency = announced.currency?.toLowerCase();
  if (announced.amount === undefined || currency === undefined || !isCurrency(currency))
    return { outcome: 'ignored', reason: 'no amount in a supported currency', customerId: customer.id };
  const id = upcomingChargeIdFor(announced.psp, announced.subscriptionId ?? customer.id, new Date(announced.dueAt));
  const existing = await getUpcomingCharge(merchantId, id);
  const at = now.toISOString();
  const charge: UpcomingChargeRecord = {
    id,
    merchant_id: merchantId,
    customer_id: customer.id,
    psp: announced.psp,
    subscription_id: announced.subscriptionId ?? null,
    amount: announced.amount,
    currency,
    due_at: new Date(announced.dueAt).toISOString(),
    provider_event_id: announced.providerEventId,
    created_at: existing?.created_at ?? at,
    updated_at: at,
  };
  await putUpcomingCharge(charge);
  return { outcome: 'stored', charge };
}
