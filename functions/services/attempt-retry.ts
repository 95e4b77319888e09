import { paymentGatewayNamed } from '#adapters/payment-gateways/index';
import { blocked, withAttempt } from '#core/card-caps';
import { classifyDecline } from '#core/decline-codes/index';
import { attemptIdempotencyKey, GatewayError, type GatewayCredentials, type GatewayName, type GatewayOutcome } from '#core/payment-gateway';
import type { AttemptDecline, PaymentEvent, PaymentRecord, RetryAttempt } from '#core/payments';
import { retryForbiddenBy, withinQuietHoursAndCaps } from '#core/retry-policy';
import { cardLedgerPut, getCardLedger } from '#data/card-ledger-repository';
import type { TransactItem } from '#data/customer-repository';
import { gatewayNameFor } from '#data/gateway-config-repository';
import { outboundEventItem } from '#data/outbound-event-repository';
import { changePayment, type PaymentChange } from '#data/payment-repository';
import { getProviderApiKey } from '#data/provider-secret-repository';
import { eventOfPlan, loadPlanningContext } from '#data/retry-planning';
import { logger } from '#shared/logger';
import { recordExperimentConversion } from './experiment-conversions';
import { campaignChannelOf } from './recovery-attribution';

/**
 * One due retry of one payment, end to end, for the every-minute job (execute-due-retries.ts), the
 * one place that charges. POST /payments/{id}/retry charges nothing itself: it makes the retry due
 * now (services/request-retry.ts) and the next run attempts it here:
 * 1. Claim, in one conditional transaction on fresh state: check eligibility again (status,
 *    max_retries, card update, the merchant's quiet hours and the card-network caps, counted in
 *    the card's ledger); if it may go now, record the attempt (number, idempotency key, gateway,
 *    a lease) and count it in the card's ledger, both guarded by the versions read. Of two runs
 *    claiming the same payment, one wins; the other finds the attempt in flight and skips it.
 *    If it may not go now, the payment is rescheduled (or ended, or set to wait for a new card)
 *    with the reason.
 * 2. Call the gateway with the recorded idempotency key.
 * 3. Resolve, in one transaction: success → recovered; a decline → reclassified with the new code,
 *    then the policy's next decision (another retry, a card update, or terminal at max_retries
 *    or on a do-not-retry answer, which also blocks the card for 30 days); a gateway error → the
 *    same attempt again later, not counted as a customer attempt.
 * A crash between 1 and 3 leaves the attempt recorded with its lease; once the lease has run out
 * the next run re-sends the same attempt with the same idempotency key, so the provider answers
 * it once and nobody is charged twice.
 */
export type AttemptResult =
  | { readonly kind: 'skipped'; readonly reason: string }
  | { readonly kind: 'rescheduled'; readonly payment: PaymentRecord; readonly reason: string }
  | { readonly kind: 'attempted'; readonly outcome: 'succeeded' | 'declined' | 'gateway_error'; readonly payment: PaymentRecord };

export interface AttemptOptions {
  /** The run's time: only a retry due by then (next_retry_at ≤ now) is attempted, else skipped. */
  readonly now: Date;
  /** How long a recorded attempt belongs to its run before the next run may re-send it. */
  readonly leaseMs?: number;
  /** Called between the gateway's answer and its recording: tests inject a crash here. */
  readonly afterGatewayCall?: (outcome: GatewayOutcome | GatewayError) => void | Promise<void>;
}

export const DEFAULT_LEASE_MS = 5 * 60_000;
/** Without a configured gateway the payment is looked at again after this long. */
const NO_GATEWAY_WAIT_MS = 24 * 3_600_000;
/** A gateway error is retried after 5 min, doubling per error, at most 6 h. */
const gatewayErrorWaitMs = (errors: number): number => Math.min(5 * 60_000 * 2 ** Math.max(0, errors - 1), 6 * 3_600_000);

type Claim =
  | { readonly kind: 'attempt'; readonly attempt: RetryAttempt }
  | { readonly kind: 'rescheduled'; readonly reason: string }
  | { readonly kind: 'skipped'; readonly reason: string };

const skip = (reason: string): PaymentChange<Claim> => ({ events: [], result: { kind: 'skipped', reason } });

/** Step 1 (see above). */
async function claim(
  merchantId: string,
  paymentId: string,
  gateway: GatewayName | undefined,
  options: AttemptOptions,
): Promise<{ claim: Claim; payment: PaymentRecord } | undefined> {
  const { now } = options;
  const changed = await changePayment<Claim>(
    merchantId,
    paymentId,
    async (before): Promise<PaymentChange<Claim> | undefined> => {
      if (before.status !== 'retrying') return skip(`it is ${before.status}`);
      if (before.next_retry_at === null || Date.parse(before.next_retry_at) > now.getTime()) return skip('its retry is not due yet');
      if (before.attempt !== null) {
        if (Date.parse(before.attempt.lease_until) > now.getTime()) return skip(`retry ${before.attempt.number} is in flight`);
        // The run that recorded it crashed (or timed out) before recording the outcome: re-send it, same key.
        const attempt: RetryAttempt = { ...before.attempt, lease_until: new Date(now.getTime() + (options.leaseMs ?? DEFAULT_LEASE_MS)).toISOString() };
        return {
          events: [
            {
              type: 'start_attempt',
              attempt,
              reason: `the lease of the attempt recorded at ${before.attempt.recorded_at} ran out with no outcome; re-sent with the same idempotency key`,
            },
          ],
          result: { kind: 'attempt', attempt },
        };
      }
      const forbidden = retryForbiddenBy(before);
      if (forbidden !== undefined) return { events: [eventOfPlan(forbidden)], result: { kind: 'rescheduled', reason: forbidden.reason } };
      if (gateway === undefined) {
        const at = new Date(now.getTime() + NO_GATEWAY_WAIT_MS).toISOString();
        const reason = `no payment gateway is configured for ${before.psp} (gateways set); looked at again at ${at}`;
        return { events: [{ type: 'schedule_retry', at, reason }], result: { kind: 'rescheduled', reason } };
      }
      const context = await loadPlanningContext(merchantId, before);
      const reasons: string[] = [];
      const allowed = withinQuietHoursAndCaps(before, context.quietHours, context.card.ledger, now, reasons);
      if (allowed.action !== 'schedule') return { events: [eventOfPlan(allowed)], result: { kind: 'rescheduled', reason: allowed.reason } };
      if (allowed.at.getTime() > now.getTime()) {
        const reason = `Retry ${before.retry_count + 1} moved to ${allowed.at.toISOString()}: ${allowed.reason}`;
        return { events: [{ type: 'schedule_retry', at: allowed.at.toISOString(), reason }], result: { kind: 'rescheduled', reason } };
      }
      const number = before.retry_count + 1;
      const attempt: RetryAttempt = {
        number,
        idempotency_key: attemptIdempotencyKey(before.id, number),
        gateway,
        recorded_at: now.toISOString(),
        lease_until: new Date(now.getTime() + (options.leaseMs ?? DEFAULT_LEASE_MS)).toISOString(),
      };
      const requested = before.retry_requested_at !== null && before.next_retry_at <= before.retry_requested_at;
      const events: PaymentEvent[] = [
        { type: 'start_attempt', attempt, reason: `due at ${before.next_retry_at}${requested ? ' (requested through the API)' : ''}` },
      ];
      const ledger = withAttempt(context.card.ledger, { at: now.toISOString(), amount: before.amount, currency: before.currency });
      return { events, items: [cardLedgerPut(merchantId, before.customer_id, context.card, ledger)], result: { kind: 'attempt', attempt } };
    },
    now,
  );
  if (changed === undefined) return undefined;
  return { claim: changed.result ?? { kind: 'skipped', reason: 'nothing to do' }, payment: changed.after };
}

/** The decline of a gateway answer, classified by DESIGN §2b's precedence. */
function declineOf(psp: string, outcome: Extract<GatewayOutcome, { status: 'declined' }>): { decline: AttemptDecline; doNotRetry: boolean; reason: string } {
  const classification = classifyDecline({
    psp,
    declineCode: outcome.declineCode,
    networkCode: outcome.networkCode,
    network: outcome.network,
    adviceCode: outcome.adviceCode,
  });
  return {
    decline: {
      decline_code: outcome.declineCode,
      decline_category: classification.category,
      decline_subcategory: classification.subcategory,
      network_code: outcome.networkCode ?? null,
      advice_code: outcome.adviceCode ?? null,
      card_network: outcome.network ?? null,
    },
    doNotRetry: !classification.retry.allowed && classification.category === 'terminal',
    reason: classification.retry.reason,
  };
}

/** Step 3 (see above); undefined when the attempt was resolved elsewhere meanwhile (a webhook recovered the payment, another run re-sent it). */
async function resolve(
  merchantId: string,
  paymentId: string,
  attempt: RetryAttempt,
  answer: GatewayOutcome | GatewayError,
  now: Date,
): Promise<PaymentRecord | undefined> {
  const changed = await changePayment(
    merchantId,
    paymentId,
    async (before): Promise<PaymentChange<undefined> | undefined> => {
      if (before.attempt?.idempotency_key !== attempt.idempotency_key) return undefined;
      // The change's other events (retry scheduled, recovered, terminal) are changePayment's, naming this retry.
      const retry = { retry_number: attempt.number, gateway: attempt.gateway };
      const object = { payment_id: before.id, recovery_id: before.recovery_id, ...retry };
      const attempted = (outcome: string) => outboundEventItem(merchantId, before.customer_id, ['recovery.retry_attempted'], { ...object, outcome }, now);
      if (answer instanceof GatewayError) {
        const at = new Date(now.getTime() + gatewayErrorWaitMs(before.gateway_errors + 1)).toISOString();
        // Paused meanwhile: nothing is scheduled now; resuming plans the retry.
        const again: PaymentEvent[] =
          before.status === 'paused'
            ? []
            : [
                {
                  type: 'schedule_retry',
                  at,
                  reason: `Retry ${attempt.number} again at ${at} with the same idempotency key after a gateway error (not counted as an attempt)`,
                },
              ];
        return {
          events: [{ type: 'attempt_errored', reason: answer.message }, ...again],
          items: [attempted('gateway_error')],
          retry,
        };
      }
      if (answer.status === 'succeeded') {
        return {
          events: [
            {
              type: 'attempt_succeeded',
              providerChargeId: answer.providerChargeId,
              campaignChannel: await campaignChannelOf(before),
              reason: `charged ${before.amount} ${before.currency} through the ${attempt.gateway} gateway`,
            },
          ],
          items: [attempted('succeeded')],
          retry: { ...retry, provider_charge_id: answer.providerChargeId },
        };
      }
      const { decline, doNotRetry, reason } = declineOf(before.psp, answer);
      const items: TransactItem[] = [attempted('declined')];
      if (doNotRetry) {
        const card = await getCardLedger(merchantId, before.card_identity);
        items.push(cardLedgerPut(merchantId, before.customer_id, card, blocked(card.ledger, now, reason)));
      }
      // The policy's decision follows the decline in the same write; changePayment records its event (retry scheduled, terminal).
      return { events: [{ type: 'attempt_declined', decline, reason }], items, retry };
    },
    now,
  );
  return changed?.after;
}

async function credentialsFor(merchantId: string, psp: string, needsApiKey: boolean): Promise<GatewayCredentials | undefined> {
  if (!needsApiKey) return undefined;
  const key = await getProviderApiKey(merchantId, psp);
  if (key === undefined) throw new GatewayError(psp, `the merchant has no ${psp} API key (providers set-api-key)`);
  return { apiKey: key.api_key };
}

/** Runs one retry of the payment (see above). */
export async function attemptRetry(merchantId: string, paymentId: string, psp: string, options: AttemptOptions): Promise<AttemptResult> {
  const log = logger.child({ merchant_id: merchantId, payment_id: paymentId });
  const gatewayName = await gatewayNameFor(merchantId, psp);
  const claimed = await claim(merchantId, paymentId, gatewayName, options);
  if (claimed === undefined) return { kind: 'skipped', reason: 'nothing to do' };
  const { claim: decision, payment } = claimed;
  if (decision.kind === 'skipped') return decision;
  if (decision.kind === 'rescheduled') {
    log.info('retry rescheduled', { reason: decision.reason, next_retry_at: payment.next_retry_at, status: payment.status });
    return { kind: 'rescheduled', payment, reason: decision.reason };
  }
  const { attempt } = decision;
  let answer: GatewayOutcome | GatewayError;
  try {
    const gateway = paymentGatewayNamed(attempt.gateway as GatewayName);
    if (gateway === undefined) throw new GatewayError(attempt.gateway, 'this build has no gateway of that name');
    answer = await gateway.charge(
      {
        merchantId,
        paymentId: payment.id,
        psp: payment.psp,
        providerPaymentId: payment.provider_payment_id,
        invoiceId: payment.invoice_id,
        amount: payment.amount,
        currency: payment.currency,
        declineCode: payment.decline_code,
        attemptNumber: attempt.number,
        idempotencyKey: attempt.idempotency_key,
      },
      await credentialsFor(merchantId, payment.psp, gateway.needsApiKey),
    );
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    answer = error;
  }
  await options.afterGatewayCall?.(answer);
  const after = await resolve(merchantId, paymentId, attempt, answer, options.now);
  const outcome = answer instanceof GatewayError ? 'gateway_error' : answer.status;
  log.info('retry attempted', { retry_number: attempt.number, gateway: attempt.gateway, outcome, status: after?.status });
  if (after === undefined) return { kind: 'skipped', reason: 'the attempt was resolved elsewhere meanwhile' };
  if (after.status === 'recovered') await recordExperimentConversion(after, options.now);
  return { kind: 'attempted', outcome, payment: after };
}
