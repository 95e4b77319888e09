import { classifyDecline } from '#core/decline-codes/index';
import { GatewayError, type GatewayChargeRequest, type GatewayOutcome, type PaymentGateway } from '#core/payment-gateway';
import { getSandboxCharge, recordRepeatedCall, storeSandboxAnswer } from '#data/sandbox-charge-repository';

/**
 * The deterministic sandbox gateway, like a provider's test mode: what an attempt answers
 * depends only on the decline code the payment holds and the attempt number, as a provider's
 * test cards decide their outcome. Used locally and in tests; never charges anyone.
 *
 * | decline code held          | attempt 1                          | attempt 2 and later        |
 * |----------------------------|------------------------------------|----------------------------|
 * | `processing_error`         | succeeds                           | succeeds                   |
 * | `sandbox_always_decline`   | declines `sandbox_always_decline`  | declines the same          |
 * | `sandbox_do_not_retry`     | declines `do_not_honor`, Mastercard MAC 03 (do not try again) | (never reached) |
 * | `sandbox_expired_card`     | declines `expired_card` (hard_customer) | (after a card update) succeeds |
 * | `sandbox_gateway_error`    | first call with each key: gateway error (no answer); the same key again: succeeds | |
 * | a hard_customer code (`expired_card`, …) | succeeds: such a payment is attempted only after a card update, and the new card works | |
 * | any other code             | declines with the same code        | succeeds                   |
 *
 * Like a provider, it answers every call with an idempotency key it has seen with its first
 * answer, and counts the calls (data/sandbox-charge-repository.ts), so a re-sent attempt never
 * charges twice.
 */
const chargeIdOf = (request: GatewayChargeRequest): string => `sbx_ch_${request.idempotencyKey}`;

/**
 * What decides a first call's answer in place of the table above: the recovery simulator
 * (`npm run simulate`, simulator/) draws it from its recovery curves, so the retry engine runs
 * unchanged against simulated customers. `succeeded` answers get the sandbox's charge id. Unset
 * (the default, and always outside the simulator), the table decides. Idempotency is unchanged:
 * a key already answered gets its first answer back, whatever the source says now.
 */
export type SandboxOutcomeSource = (request: GatewayChargeRequest) => { readonly status: 'succeeded' } | Extract<GatewayOutcome, { status: 'declined' }>;

let outcomeSource: SandboxOutcomeSource | undefined;

/** Installs (or, with undefined, removes) the source of the sandbox's answers (see SandboxOutcomeSource). */
export function useSandboxOutcomeSource(source: SandboxOutcomeSource | undefined): void {
  outcomeSource = source;
}

function drawn(request: GatewayChargeRequest, source: SandboxOutcomeSource): GatewayOutcome {
  const answer = source(request);
  return answer.status === 'succeeded' ? { status: 'succeeded', providerChargeId: chargeIdOf(request) } : answer;
}

function scenario(request: GatewayChargeRequest): GatewayOutcome | 'gateway_error' {
  const code = request.declineCode ?? 'generic_decline';
  const succeeded: GatewayOutcome = { status: 'succeeded', providerChargeId: chargeIdOf(request) };
  switch (code) {
    case 'processing_error':
      return succeeded;
    case 'sandbox_always_decline':
      return { status: 'declined', declineCode: code };
    case 'sandbox_do_not_retry':
      return { status: 'declined', declineCode: 'do_not_honor', network: 'mastercard', adviceCode: '03' };
    case 'sandbox_expired_card':
      return { status: 'declined', declineCode: 'expired_card' };
    case 'sandbox_gateway_error':
      return 'gateway_error';
    default:
      if (classifyDecline({ psp: request.psp, declineCode: code }).category === 'hard_customer') return succeeded;
      return request.attemptNumber === 1 ? { status: 'declined', declineCode: code } : succeeded;
  }
}

async function charge(request: GatewayChargeRequest): Promise<GatewayOutcome> {
  const seen = await getSandboxCharge(request.merchantId, request.idempotencyKey);
  if (seen?.state === 'answered' && seen.outcome !== null) {
    await recordRepeatedCall(request.merchantId, request.idempotencyKey);
    return seen.outcome;
  }
  const planned = outcomeSource === undefined ? scenario(request) : drawn(request, outcomeSource);
  const base = { idempotency_key: request.idempotencyKey, payment_id: request.paymentId, amount: request.amount, currency: request.currency };
  if (planned === 'gateway_error' && seen === undefined) {
    await storeSandboxAnswer(request.merchantId, { ...base, state: 'errored', outcome: null }, undefined, new Date());
    throw new GatewayError('sandbox', 'scenario sandbox_gateway_error: no answer on the first call with this key');
  }
  const outcome: GatewayOutcome = planned === 'gateway_error' ? { status: 'succeeded', providerChargeId: chargeIdOf(request) } : planned;
  const stored = await storeSandboxAnswer(request.merchantId, { ...base, state: 'answered', outcome }, seen, new Date());
  if (stored.outcome === null) throw new GatewayError('sandbox', 'a concurrent call with this key got no answer');
  return stored.outcome;
}

export const sandboxGateway: PaymentGateway = { name: 'sandbox', needsApiKey: false, charge };
