import type { PaymentRecord } from './payments';

/**
 * What recovered a payment (issue 12: "Recovery is attributed to its method"). Decided once, in
 * the transition that makes the payment `recovered`, from what the payment and its campaign
 * enrollment record at that moment; it never changes afterwards.
 */
export const RECOVERY_METHODS = ['retry', 'card_update', 'campaign_email', 'campaign_sms', 'provider'] as const;
export type RecoveryMethod = (typeof RECOVERY_METHODS)[number];

/**
 * The channel of the last campaign message the payment's enrollment had sent it when it was
 * recovered (services/recovery-attribution.ts reads it): `email`, or `sms` for a text message
 * (SMS or WhatsApp). Null when the payment was not enrolled, its enrollment was stopped, or no
 * message of its campaign had been sent yet.
 */
export type CampaignChannel = 'email' | 'sms';

/** Who reported the recovery: our own retry attempt succeeded, or the provider said the payment was paid. */
export type RecoveredBy = 'retry' | 'provider';

/**
 * The rule, first match wins:
 * 1. `campaign_email` / `campaign_sms`: the payment was enrolled in a campaign (not stopped) that
 *    had already sent it a message, whatever finished the job (our retry, the provider, after a
 *    card update or not): the campaign's message is what made the customer act. The channel is
 *    that of the last message sent (SMS and WhatsApp are both `campaign_sms`).
 * 2. `card_update`: the customer updated the card (a `card_updated` transition on this payment)
 *    and the payment was then recovered, by our retry or reported by the provider.
 * 3. `retry`: one of our retry attempts with the card on file succeeded; a provider report that
 *    arrives while our attempt is in flight is that attempt's charge, so it counts here too.
 * 4. `provider`: the provider reported the payment paid with no retry of ours succeeding (an
 *    `invoice.paid` webhook, the provider's own retry, the customer paying on the provider's page).
 *
 * @example recoveryMethodOf(payment, 'provider', 'email') // 'campaign_email'
 */
export function recoveryMethodOf(
  before: Pick<PaymentRecord, 'card_updated_at' | 'attempt'>,
  by: RecoveredBy,
  campaignChannel: CampaignChannel | null | undefined,
): RecoveryMethod {
  if (campaignChannel === 'email') return 'campaign_email';
  if (campaignChannel === 'sms') return 'campaign_sms';
  if (before.card_updated_at !== null) return 'card_update';
  if (by === 'retry' || before.attempt !== null) return 'retry';
  return 'provider';
}

/**
 * The method a recovered payment is counted under in analytics: its own `recovery_method`, or,
 * for a payment recovered before attribution was recorded (the field absent, read as null), the
 * best reading of what it holds: `retry` when its recovery is its last attempt (an attempt's
 * success stamps both with the same instant), else `provider`. Null for a payment not recovered.
 */
export function countedRecoveryMethodOf(
  payment: Pick<PaymentRecord, 'status' | 'recovery_method' | 'recovered_at' | 'last_attempt_at'>,
): RecoveryMethod | null {
  if (payment.status !== 'recovered') return null;
  if (payment.recovery_method !== null && payment.recovery_method !== undefined) return payment.recovery_method;
  return payment.last_attempt_at !== null && payment.last_attempt_at !== undefined && payment.last_attempt_at === payment.recovered_at ? 'retry' : 'provider';
}
