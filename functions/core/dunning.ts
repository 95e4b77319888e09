import type { PaymentStatus } from './payments';

/**
 * Manual dunning (POST /recoveries/{id}/dunning) reaches one customer at most once per hour,
 * whichever of the customer's recoveries it is for: a second request within the hour is refused
 * (409 state_conflict, as a business rule that the request itself cannot change, not a rate
 * limit of the API key). The hour runs from the send, or from the end of the quiet period when
 * the email was scheduled for it.
 */
export const MANUAL_DUNNING_COOLDOWN_MS = 60 * 60 * 1000;

/** Statuses of a recovery that may receive a dunning email now. */
export const DUNNING_STATUSES: readonly PaymentStatus[] = ['pending', 'retrying'];

/**
 * Why a recovery in this status takes no dunning email (spec: 409 when recovered or terminal; a
 * paused recovery gets no dunning emails until resumed), or undefined when it may.
 */
export function dunningRefusal(status: PaymentStatus): string | undefined {
  if (DUNNING_STATUSES.includes(status)) return undefined;
  if (status === 'paused') return 'it is paused: no dunning emails until it is resumed';
  return `it is ${status}`;
}
