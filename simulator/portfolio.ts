import { DECLINE_KINDS, type DeclineKind, NETWORKS, type Network, PARAMETERS } from './parameters';
import { exponential, keyedUniform, type Random, seededRandom, weighted } from './random';

/** A card on file: its network; `id` names it for the network rules' per-card counters. */
export interface SimCard {
  readonly id: string;
  readonly network: Network;
}

export interface SimCustomer {
  readonly index: number;
  readonly email: string;
  readonly timezone: string;
  readonly currency: string;
  readonly cards: readonly SimCard[];
}

/** One failed payment of the portfolio. */
export interface SimPayment {
  readonly index: number;
  /** The provider's id of the failed charge: how the simulated gateway recognises the payment. */
  readonly providerPaymentId: string;
  readonly customer: SimCustomer;
  readonly card: SimCard;
  readonly kind: DeclineKind;
  readonly amount: number;
  readonly currency: string;
  readonly failedAt: Date;
  /** The first decline as the provider reports it (decline code, and the network's codes when it gave them). */
  readonly decline: SimDecline;
  /** When the customer gives a new card by themselves, if they do within the follow-up window. */
  readonly spontaneousCardUpdateAt: Date | null;
}

export interface SimDecline {
  readonly declineCode: string;
  readonly network: Network;
  readonly networkCode?: string;
  readonly adviceCode?: string;
}

export interface Portfolio {
  readonly seed: number;
  readonly payments: readonly SimPayment[];
  readonly customers: readonly SimCustomer[];
  readonly start: Date;
  /** The end of the follow-up window of the last failure. */
  readonly end: Date;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * A do-not-retry answer as each network gives it: Visa category 1 (46 closed account, 04 pick up),
 * Mastercard MAC 03 (do not try again) or 21 (payment cancelled); other networks have no such
 * code, so their issuers answer with a stolen card (a hard decline).
 */
export function doNotRetryDecline(network: Network, uniform: number): SimDecline {
  if (network === 'visa') return { declineCode: 'do_not_honor', network, networkCode: uniform < 0.5 ? '46' : '04' };
  if (network === 'mastercard')
    return uniform < 0.7 ? { declineCode: 'do_not_honor', network, adviceCode: '03' } : { declineCode: 'transaction_not_allowed', network, adviceCode: '21' };
  return { declineCode: 'stolen_card', network };
}

/** The decline codes of each kind (the ones the service's catalogue classifies as that kind). */
const DECLINE_CODES: Readonly<Record<Exclude<DeclineKind, 'do_not_retry'>, string>> = {
  insufficient_funds: 'insufficient_funds',
  generic: 'do_not_honor',
  limit: 'card_velocity_exceeded',
  processing: 'processing_error',
  expired: 'expired_card',
};

export function declineOfKind(kind: DeclineKind, network: Network, uniform: number): SimDecline {
  return kind === 'do_not_retry' ? doNotRetryDecline(network, uniform) : { declineCode: DECLINE_CODES[kind], network };
}

function customerOf(random: Random, index: number, seed: number): SimCustomer {
  const region = weighted(
    random,
    PARAMETERS.regions.map((r) => ({ weight: r.weight, value: r })),
  );
  const count = weighted(random, PARAMETERS.cardsPerCustomer);
  const networks = NETWORKS.map((n) => ({ weight: PARAMETERS.networkMix[n], value: n }));
  const cards = Array.from({ length: count }, (_, c) => ({ id: `card_${seed}_${index}_${c}`, network: weighted(random, networks) }));
  return { index, email: `customer${index}@sim.example`, timezone: region.timezone, currency: region.currency, cards };
}

/**
 * The seeded portfolio: `size` failed payments of about size / paymentsPerCustomer customers,
 * drawn in one fixed order from `seed`, so a seed always gives the same portfolio.
 */
export function buildPortfolio(seed: number, size: number): Portfolio {
  const random = seededRandom(seed);
  const customerCount = Math.max(1, Math.round(size / PARAMETERS.paymentsPerCustomer));
  const customers = Array.from({ length: customerCount }, (_, i) => customerOf(random, i, seed));
  const start = new Date(PARAMETERS.start);
  const kinds = DECLINE_KINDS.map((k) => ({ weight: PARAMETERS.declineMix[k], value: k }));
  const payments: SimPayment[] = [];
  for (let index = 0; index < size; index += 1) {
    // Every customer fails at least once; the rest of the payments go to customers at random.
    const customer = customers[index < customerCount ? index : Math.floor(random() * customerCount)] as SimCustomer;
    const card = customer.cards[Math.floor(random() * customer.cards.length)] as SimCard;
    const kind = weighted(random, kinds);
    const prices = customer.currency === 'jpy' ? PARAMETERS.prices.jpy : PARAMETERS.prices.default;
    const major = weighted(random, prices);
    const amount = customer.currency === 'jpy' ? major : major * 100 - 1;
    const failedAt = new Date(start.getTime() + Math.floor((random() * PARAMETERS.failureWindowDays * DAY_MS) / 60_000) * 60_000);
    const update = PARAMETERS.spontaneousCardUpdate;
    const updates = random() < update.chance[kind];
    const delay = exponential(random(), update.meanDelayHours) * HOUR_MS;
    const spontaneousCardUpdateAt =
      updates && delay < PARAMETERS.followDays * DAY_MS ? new Date(failedAt.getTime() + Math.round(delay / 60_000) * 60_000) : null;
    payments.push({
      index,
      providerPaymentId: `sim_${seed}_${index}`,
      customer,
      card,
      kind,
      amount,
      currency: customer.currency,
      failedAt,
      decline: declineOfKind(kind, card.network, keyedUniform(seed, index, 'first-decline')),
      spontaneousCardUpdateAt,
    });
  }
  payments.sort((a, b) => a.failedAt.getTime() - b.failedAt.getTime() || a.index - b.index);
  const end = new Date(start.getTime() + (PARAMETERS.failureWindowDays + PARAMETERS.followDays) * DAY_MS);
  return { seed, payments, customers, start, end };
}
