import { contextOf, successProbability } from './curves';
import { PARAMETERS } from './parameters';
import { declineOfKind, doNotRetryDecline, type Portfolio, type SimDecline, type SimPayment } from './portfolio';
import { exponential, keyedUniform } from './random';

/** One authorisation on a card, as the card networks see it: the first failure or a retry. */
export interface Authorisation {
  readonly payment: number;
  /** The card as the networks count it: the card and its generation (a card update is a new card). */
  readonly card: string;
  readonly network: SimPayment['card']['network'];
  readonly amount: number;
  readonly currency: string;
  readonly at: Date;
  /** 0 for the first failure, n for retry n. */
  readonly attempt: number;
  readonly succeeded: boolean;
  readonly decline: SimDecline | null;
}

const HOUR_MS = 3_600_000;

/**
 * The simulated customers and issuers of one strategy's run: which card each customer has at a
 * time, whether an attempt succeeds (drawn from the curves with the seed's keyed draws), the
 * answer a decline carries, and every authorisation, for the network-rule audit. Each strategy
 * gets its own world over the same portfolio and seed.
 */
export class World {
  readonly authorisations: Authorisation[] = [];
  readonly recoveries = new Map<number, Date>();
  /** Card updates by customer, in time order (spontaneous ones from the portfolio, and replies to messages). */
  private readonly updates = new Map<number, Date[]>();
  private readonly closed = new Set<string>();
  private readonly lastMessage = new Map<number, Date>();
  /** Campaign messages so far, by payment. */
  private readonly messagesSeen = new Map<number, number>();
  readonly byProviderId: ReadonlyMap<string, SimPayment>;

  constructor(readonly portfolio: Portfolio) {
    this.byProviderId = new Map(portfolio.payments.map((p) => [p.providerPaymentId, p]));
    for (const payment of portfolio.payments) {
      if (payment.spontaneousCardUpdateAt !== null) this.addCardUpdate(payment.customer.index, payment.spontaneousCardUpdateAt);
      const card = this.cardAt(payment, payment.failedAt);
      if (payment.kind === 'do_not_retry') this.closed.add(card);
      this.record(payment, card, payment.failedAt, 0, { succeeded: false, decline: payment.decline });
    }
  }

  private record(payment: SimPayment, card: string, at: Date, attempt: number, outcome: { succeeded: boolean; decline?: SimDecline }): void {
    this.authorisations.push({
      payment: payment.index,
      card,
      network: payment.card.network,
      amount: payment.amount,
      currency: payment.currency,
      at,
      attempt,
      succeeded: outcome.succeeded,
      decline: outcome.succeeded ? null : (outcome.decline ?? null),
    });
  }

  /** The customer's card updates so far (sorted). */
  cardUpdatesOf(customer: number): readonly Date[] {
    return this.updates.get(customer) ?? [];
  }

  private addCardUpdate(customer: number, at: Date): void {
    const list = [...(this.updates.get(customer) ?? []), at].sort((a, b) => a.getTime() - b.getTime());
    this.updates.set(customer, list);
  }

  /** The card a payment is charged on at `at`: its own card, renewed by each customer card update after its failure. */
  cardAt(payment: SimPayment, at: Date): string {
    const generation = this.cardUpdatesOf(payment.customer.index).filter((u) => u > payment.failedAt && u <= at).length;
    return `${payment.card.id}#${generation}`;
  }

  /**
   * A campaign message about `payment` reached its customer at `at`: it nudges the customer's next
   * attempts and, with the chance of its channel, brings a card update after a drawn delay,
   * returned so the caller can deliver it (undefined when the customer does not react). The draws
   * are keyed by the payment and its message count, so messages of several payments sent at the
   * same instant give the same answers in any order.
   */
  messageReceived(payment: SimPayment, channel: string, at: Date): Date | undefined {
    const customer = payment.customer.index;
    const last = this.lastMessage.get(customer);
    if (last === undefined || last < at) this.lastMessage.set(customer, at);
    const count = (this.messagesSeen.get(payment.index) ?? 0) + 1;
    this.messagesSeen.set(payment.index, count);
    const response = PARAMETERS.messageResponse;
    if (keyedUniform(this.portfolio.seed, payment.index, 'message', count) >= (response.cardUpdateChance[channel] ?? 0)) return undefined;
    const delay = exponential(keyedUniform(this.portfolio.seed, payment.index, 'message-delay', count), response.meanDelayHours) * HOUR_MS;
    // At least a minute later: the reply follows the message.
    const update = new Date(at.getTime() + Math.max(1, Math.round(delay / 60_000)) * 60_000);
    this.addCardUpdate(customer, update);
    return update;
  }

  private nudged(customer: number, at: Date): boolean {
    const last = this.lastMessage.get(customer);
    return last !== undefined && last <= at && at.getTime() - last.getTime() <= PARAMETERS.messageResponse.nudgeHours * HOUR_MS;
  }

  /** Retry `attempt` of the payment at `at`: success, or the decline the issuer answers. Recorded for the audit. */
  attempt(payment: SimPayment, attempt: number, at: Date): { succeeded: true } | { succeeded: false; decline: SimDecline } {
    const card = this.cardAt(payment, at);
    const newCard = !card.endsWith('#0');
    const seed = this.portfolio.seed;
    let outcome: { succeeded: true } | { succeeded: false; decline: SimDecline };
    if (this.closed.has(card)) {
      outcome = { succeeded: false, decline: doNotRetryDecline(payment.card.network, keyedUniform(seed, payment.index, 'closed-code', attempt)) };
    } else {
      const p = newCard
        ? PARAMETERS.newCardSuccess
        : successProbability(
            contextOf({
              kind: payment.kind,
              attempt,
              at,
              failedAt: payment.failedAt,
              timezone: payment.customer.timezone,
              nudged: this.nudged(payment.customer.index, at),
            }),
          );
      if (keyedUniform(seed, payment.index, 'attempt', attempt, card) < p) outcome = { succeeded: true };
      else if (keyedUniform(seed, payment.index, 'closes', attempt, card) < PARAMETERS.closedAccountPerAttempt) {
        this.closed.add(card);
        outcome = { succeeded: false, decline: doNotRetryDecline(payment.card.network, keyedUniform(seed, payment.index, 'closed-code', attempt)) };
      } else {
        const kind = newCard ? 'generic' : payment.kind;
        outcome = { succeeded: false, decline: kind === payment.kind ? payment.decline : declineOfKind(kind, payment.card.network, 0) };
      }
    }
    this.record(payment, card, at, attempt, outcome);
    if (outcome.succeeded && !this.recoveries.has(payment.index)) this.recoveries.set(payment.index, at);
    return outcome;
  }
}
