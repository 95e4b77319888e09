import { type CardNetwork, normaliseNetwork } from './decline-codes/card-network-rules';

/**
 * The card networks' reattempt caps (DESIGN §2b, reference/card-network-rules.md §3), counted per
 * card, not per payment: every attempt the engine sends for any payment on the card is in the
 * card's ledger. Pure.
 *
 * | network    | rule                                                                 |
 * |------------|----------------------------------------------------------------------|
 * | visa       | at most 20 reattempts per card, amount and currency in a rolling 30 days |
 * | mastercard | at most 10 attempts per card in 24 hours and 35 in 30 days (any amount: stricter than "same amount", so always within it) |
 * | other / unknown | both sets of limits at their strictest: 10 per 24 hours and 20 per 30 days per card (any amount) |
 *
 * After a do-not-retry answer (Visa category 1, Mastercard MAC 03/21) the card is blocked for 30
 * days (§3.3 item 4): no payment on it is attempted until the customer gives a new card.
 */
export interface CardAttempt {
  readonly at: string;
  readonly amount: number;
  readonly currency: string;
}

export interface CardLedger {
  /** The card's identity (see cardIdentityOf). */
  readonly identity: string;
  /** Attempts of the last 30 days, oldest first (older ones are pruned on each write). */
  readonly attempts: readonly CardAttempt[];
  readonly blocked_until: string | null;
  readonly block_reason: string | null;
}

interface Limit {
  readonly windowHours: number;
  readonly max: number;
  /** Count only attempts of the same amount and currency. */
  readonly sameAmount: boolean;
  readonly label: string;
}

const DAY_HOURS = 24;
const MONTH_HOURS = 30 * DAY_HOURS;
export const BLOCK_HOURS = MONTH_HOURS;

export const NETWORK_LIMITS: Readonly<Record<CardNetwork | 'unknown', readonly Limit[]>> = {
  visa: [{ windowHours: MONTH_HOURS, max: 20, sameAmount: true, label: 'Visa: 20 reattempts per card, amount and currency in 30 days' }],
  mastercard: [
    { windowHours: DAY_HOURS, max: 10, sameAmount: false, label: 'Mastercard: 10 attempts per card in 24 hours' },
    { windowHours: MONTH_HOURS, max: 35, sameAmount: false, label: 'Mastercard: 35 attempts per card in 30 days' },
  ],
  other: [
    { windowHours: DAY_HOURS, max: 10, sameAmount: false, label: 'unknown network: 10 attempts per card in 24 hours' },
    { windowHours: MONTH_HOURS, max: 20, sameAmount: false, label: 'unknown network: 20 attempts per card in 30 days' },
  ],
  unknown: [
    { windowHours: DAY_HOURS, max: 10, sameAmount: false, label: 'unknown network: 10 attempts per card in 24 hours' },
    { windowHours: MONTH_HOURS, max: 20, sameAmount: false, label: 'unknown network: 20 attempts per card in 30 days' },
  ],
};

const HOUR_MS = 3_600_000;

export const emptyLedger = (identity: string): CardLedger => ({ identity, attempts: [], blocked_until: null, block_reason: null });

/**
 * The card a payment is charged on, as the networks count it: the provider's card fingerprint
 * when the event gave one, else the customer's card on file with the provider (one identity per
 * customer and psp, renewed by a card update), which counts every card of the customer together
 * (never fewer attempts than the networks allow per card).
 */
export function cardIdentityOf(input: { psp: string; customerId: string; fingerprint?: string | null; cardGeneration?: string | null }): string {
  if (input.fingerprint) return `fp:${input.psp}:${input.fingerprint}`;
  return `cust:${input.psp}:${input.customerId}${input.cardGeneration ? `:${input.cardGeneration}` : ''}`;
}

export type CapCheck =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly blocked: true; readonly reason: string }
  | { readonly allowed: false; readonly blocked: false; readonly nextAllowedAt: Date; readonly reason: string };

/**
 * Whether one more attempt of `amount` `currency` on the card at `at` stays within the caps of
 * its network; if not, the first instant it would (the oldest counted attempt leaving its
 * window), or `blocked` while a do-not-retry block lasts.
 */
export function checkCardCaps(ledger: CardLedger, network: string | null | undefined, charge: { amount: number; currency: string }, at: Date): CapCheck {
  if (ledger.blocked_until !== null && Date.parse(ledger.blocked_until) > at.getTime()) {
    return { allowed: false, blocked: true, reason: `card blocked until ${ledger.blocked_until}: ${ledger.block_reason ?? 'do-not-retry answer'}` };
  }
  let latest: { at: number; label: string } | undefined;
  for (const limit of NETWORK_LIMITS[normaliseNetwork(network ?? undefined) ?? 'unknown']) {
    const since = at.getTime() - limit.windowHours * HOUR_MS;
    const counted = ledger.attempts.filter(
      (a) => Date.parse(a.at) > since && (!limit.sameAmount || (a.amount === charge.amount && a.currency === charge.currency)),
    );
    if (counted.length < limit.max) continue;
    // The attempt that must leave the window for the count to drop below the cap.
    const leaving = counted[counted.length - limit.max] as CardAttempt;
    const free = Date.parse(leaving.at) + limit.windowHours * HOUR_MS + 1000;
    if (latest === undefined || free > latest.at) latest = { at: free, label: limit.label };
  }
  if (latest === undefined) return { allowed: true };
  return { allowed: false, blocked: false, nextAllowedAt: new Date(latest.at), reason: `card-network cap reached (${latest.label})` };
}

/** The ledger with one more attempt, attempts older than 30 days dropped. */
export function withAttempt(ledger: CardLedger, attempt: CardAttempt): CardLedger {
  const since = Date.parse(attempt.at) - MONTH_HOURS * HOUR_MS;
  return { ...ledger, attempts: [...ledger.attempts.filter((a) => Date.parse(a.at) > since), attempt] };
}

/** The ledger blocked for 30 days from `at` after a do-not-retry answer. */
export function blocked(ledger: CardLedger, at: Date, reason: string): CardLedger {
  return { ...ledger, blocked_until: new Date(at.getTime() + BLOCK_HOURS * HOUR_MS).toISOString(), block_reason: reason };
}
