import { findDeclineCodeAcrossProviders } from '../decline-codes/catalogue';
import type { DeclineCategory } from '../decline-codes/types';
import type { PaymentRecord } from '../payments';
import { countedRecoveryMethodOf } from '../recovery-method';
import type { RecoveryFeatures, RecoveryStrategy, VectorOutcome } from './features';

/** Whether the (trimmed, lowercased) code is one of the catalogue's, for any provider. */
export const isKnownDeclineCode = (code: string): boolean => findDeclineCodeAcrossProviders(code).length > 0;

/** The catalogue's category of a code: that of the provider's own entry, else of the first provider listing it, else unknown. */
export function categoryOfCode(code: string, psp?: string): DeclineCategory {
  const entries = findDeclineCodeAcrossProviders(code);
  return (entries.find((entry) => entry.psp === psp) ?? entries[0])?.category ?? 'unknown';
}

/** Payments that embed themselves: recovered and terminal ones (their outcome is known). */
export const isEmbeddable = (payment: Pick<PaymentRecord, 'status'>): boolean => payment.status === 'recovered' || payment.status === 'terminal';

/** The outcome a payment's status stands for. */
export const outcomeOfPayment = (payment: Pick<PaymentRecord, 'status'>): VectorOutcome =>
  payment.status === 'recovered' ? 'recovered' : payment.status === 'terminal' ? 'failed' : 'pending';

/** What was done to recover a payment: its recovery method when recovered; for the others, retry once attempted, else none. */
export function strategyOfPayment(
  payment: Pick<PaymentRecord, 'status' | 'recovery_method' | 'recovered_at' | 'last_attempt_at' | 'retry_count'>,
): RecoveryStrategy {
  return countedRecoveryMethodOf(payment) ?? (payment.retry_count > 0 ? 'retry' : 'none');
}

/** The features of a stored payment (its own decline, amount, provider and failure time; no segment, which the payment does not record). */
export function featuresOfPayment(payment: PaymentRecord, withStrategy: boolean): RecoveryFeatures {
  const declineCode = payment.decline_code ?? 'unknown';
  return {
    declineCode,
    declineCategory: payment.decline_category,
    amount: payment.amount,
    currency: payment.currency,
    provider: payment.psp,
    failedAt: new Date(payment.created_at),
    ...(withStrategy ? { strategy: strategyOfPayment(payment) } : {}),
  };
}
