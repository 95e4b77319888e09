import { type CancelSessionRecord, isSaved, SAVE_WINDOW_DAYS } from '#core/cancel-sessions';
import type { PaymentRecord } from '#core/payments';
import { customerPaymentsForRecheck, customerSessions, saveTransition, sessionsDueOn } from '#data/cancel-session-repository';
import { StateConflictError } from '#core/errors';
import { logger } from '#shared/logger';

const DAY_MS = 86_400_000;
/** Days of the due index read back from today, so that a run missed (or failed) is caught up by the next ones. */
export const RECHECK_CATCH_UP_DAYS = 7;

/**
 * Whether a saved customer churned within the save window (completed_at … +30 days): a later
 * cancel session of theirs completed as cancelled, or a payment of theirs (of the session's
 * subscription, when it names one) ended terminal, which is also what a subscription_cancelled
 * event does to open payments. Without such a sign the customer is still subscribed.
 */
export function churnedWithin(session: CancelSessionRecord, later: readonly CancelSessionRecord[], payments: readonly PaymentRecord[]): boolean {
  const from = Date.parse(session.completed_at ?? session.created_at);
  const until = from + SAVE_WINDOW_DAYS * DAY_MS;
  const inWindow = (at: string | null) => at !== null && Date.parse(at) > from && Date.parse(at) <= until;
  const cancelledLater = later.some((other) => other.id !== session.id && other.outcome === 'cancelled' && inWindow(other.completed_at));
  const sameSubscription = (payment: PaymentRecord) =>
    session.subscription_id === null || payment.subscription_id === null || payment.subscription_id === session.subscription_id;
  const endedLater = payments.some((payment) => payment.status === 'terminal' && sameSubscription(payment) && inWindow(payment.terminal_at));
  return cancelledLater || endedLater;
}

/**
 * The daily task `cancel-save-recheck`: every completed, not abandoned session whose 30-day window
 * closed (today, or in the last RECHECK_CATCH_UP_DAYS days for runs missed) leaves the due index
 * with `save_window_closed`; a saved one also gets `save_status` confirmed or lost. Each write is
 * conditional on the version read: a rerun or a concurrent run changes nothing twice.
 */
export async function recheckCancelSaves(now: Date): Promise<{ checked: number; confirmed: number; lost: number; conflicts: number }> {
  const summary = { checked: 0, confirmed: 0, lost: 0, conflicts: 0 };
  for (let back = RECHECK_CATCH_UP_DAYS; back >= 0; back -= 1) {
    const day = new Date(now.getTime() - back * DAY_MS).toISOString().slice(0, 10);
    for (const { session, tokenHash } of await sessionsDueOn(day)) {
      if (session.completed_at === null || Date.parse(session.completed_at) + SAVE_WINDOW_DAYS * DAY_MS > now.getTime()) continue;
      let save_status = session.save_status;
      if (isSaved(session.outcome)) {
        const [sessions, payments] = await Promise.all([
          customerSessions(session.merchant_id, session.customer_id),
          customerPaymentsForRecheck(session.merchant_id, session.customer_id),
        ]);
        save_status = churnedWithin(session, sessions, payments) ? 'lost' : 'confirmed';
      }
      const after: CancelSessionRecord = { ...session, save_window_closed: true, save_status, updated_at: now.toISOString(), version: session.version + 1 };
      try {
        await saveTransition(session, after, tokenHash);
      } catch (error) {
        // Changed since it was read (an erasure, a concurrent run): the next run reads it afresh.
        if (!(error instanceof StateConflictError)) throw error;
        summary.conflicts += 1;
        logger.warn('cancel save re-check skipped a session changed meanwhile', { session_id: session.id, error: (error as Error).name });
        continue;
      }
      summary.checked += 1;
      if (save_status === 'confirmed') summary.confirmed += 1;
      if (save_status === 'lost') summary.lost += 1;
    }
  }
  return summary;
}
