import type { ExperimentKind } from '#core/experiments/experiment';
import type { PaymentRecord } from '#core/payments';
import { recordConversions } from '#data/experiment-repository';
import { logger } from '#shared/logger';

/**
 * Experiment conversions (docs/experiments.md, "Conversions"), kept apart from the experiments use
 * cases so that the retry executor, ingest and cancel sessions load only this.
 */

/** The experiment kinds a recovered payment converts in: those that steer the payment's recovery. */
export const RECOVERY_CONVERTS: readonly ExperimentKind[] = ['retry_timing', 'campaign', 'channel'];
/** The experiment kinds a saved cancel session converts in: the offer the customer was shown. */
export const SAVE_CONVERTS: readonly ExperimentKind[] = ['offer'];

/**
 * A recovered payment (by a retry, the provider, a card update's retry, after a campaign message)
 * converts its customer in each running retry-timing, campaign and channel experiment they were
 * assigned in. Best effort after the recovery is written: a failure is logged and never undoes the
 * recovery.
 */
export async function recordExperimentConversion(payment: Pick<PaymentRecord, 'merchant_id' | 'customer_id' | 'id'>, now: Date): Promise<void> {
  await convertQuietly(payment.merchant_id, payment.customer_id, RECOVERY_CONVERTS, { payment_id: payment.id }, now);
}

/**
 * A cancel session completed saved (saved_discount, saved_pause, saved_other) converts its customer
 * in the running offer experiment they were assigned in; best effort, as recordExperimentConversion.
 */
export async function recordSaveConversion(
  session: { readonly merchant_id: string; readonly customer_id: string; readonly id: string },
  now: Date,
): Promise<void> {
  await convertQuietly(session.merchant_id, session.customer_id, SAVE_CONVERTS, { session_id: session.id }, now);
}

async function convertQuietly(
  merchantId: string,
  customerId: string,
  kinds: readonly ExperimentKind[],
  about: Record<string, string>,
  now: Date,
): Promise<void> {
  try {
    await recordConversions(merchantId, customerId, now, kinds);
  } catch (error) {
    logger.error('experiment conversion not recorded', { merchant_id: merchantId, ...about, error });
  }
}
