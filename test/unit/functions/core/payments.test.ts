import { StateConflictError } from '#core/errors';
import { commitInstant, MANUAL_RETRY_SPACING_MS, type PaymentRecord, type RetryAttempt, transition } from '#core/payments';

const T = new Date('2026-12-07T15:00:00.000Z');
const MINUTE = 60_000;
const iso = (ms: number): string => new Date(T.getTime() + ms).toISOString();

/** A soft decline, retrying with retry 1 planned a day later. */
const payment = (overrides: Partial<PaymentRecord> = {}): PaymentRecord => ({
  id: 'pe_01JTEST',
  recovery_id: 'rec_01JTEST',
  merchant_id: 'merch_1',
  customer_id: 'cus_1',
  customer_email: 'a@example.com',
  psp: 'stripe',
  provider_payment_id: 'pi_1',
  amount: 2500,
  currency: 'usd',
  status: 'retrying',
  previous_status: null,
  decline_code: 'insufficient_funds',
  decline_category: 'soft_retry',
  decline_subcategory: 'balance',
  retry_count: 0,
  max_retries: 4,
  next_retry_at: iso(24 * 60 * MINUTE),
  paused_at: null,
  resumed_at: null,
  recovered_at: null,
  recovery_method: null,
  terminal_at: null,
  card_updated_at: null,
  awaiting_card_update: false,
  network_code: null,
  advice_code: null,
  card_network: null,
  card_identity: 'cust:stripe:cus_1',
  attempt: null,
  gateway_errors: 0,
  last_attempt_at: null,
  retry_requested_at: null,
  subscription_id: null,
  invoice_id: null,
  campaign_id: null,
  metadata: {},
  state_history: [{ status: 'pending', at: iso(-60 * MINUTE), reason: 'Payment failed' }],
  created_at: iso(-60 * MINUTE),
  updated_at: iso(-60 * MINUTE),
  version: 2,
  ...overrides,
});

const attempt: RetryAttempt = { number: 1, idempotency_key: 'retry-pe_01JTEST-1', gateway: 'sandbox', recorded_at: iso(-MINUTE), lease_until: iso(4 * MINUTE) };

describe('payment status machine', () => {
  describe('pause and resume', () => {
    it('drops the planned retry on pause (no next_retry_at while paused)', () => {
      // Act
      const paused = transition(payment(), { type: 'pause', reason: 'test' }, T);
      // Assess
      expect(paused.changes).toMatchObject({ status: 'paused', previous_status: 'retrying', paused_at: T.toISOString(), next_retry_at: null });
    });

    it('clears paused_at on resume and leaves next_retry_at for the policy to plan again', () => {
      // Act
      const resumed = transition(
        payment({ status: 'paused', previous_status: 'retrying', paused_at: iso(-MINUTE), next_retry_at: null }),
        { type: 'resume', reason: 'test' },
        T,
      );
      // Assess
      expect(resumed.changes).toEqual({ status: 'retrying', previous_status: null, paused_at: null, resumed_at: T.toISOString(), next_retry_at: null });
    });

    it('makes an attempt recorded before the pause due at the end of its lease on resume', () => {
      // Act
      const resumed = transition(
        payment({ status: 'paused', previous_status: 'retrying', paused_at: iso(-MINUTE), next_retry_at: null, attempt }),
        { type: 'resume', reason: 'test' },
        T,
      );
      // Assess
      expect(resumed.changes).toMatchObject({ status: 'retrying', paused_at: null, next_retry_at: attempt.lease_until });
    });
  });

  describe('request_retry (POST /payments/{id}/retry)', () => {
    it('makes the retry due at the time asked, records the request and leaves a retry_scheduled entry', () => {
      // Act
      const requested = transition(payment(), { type: 'request_retry', at: T.toISOString(), reason: 'asked' }, T);
      // Assess
      expect(requested.changes).toEqual({ status: 'retrying', next_retry_at: T.toISOString(), retry_requested_at: T.toISOString() });
      expect(requested.history).toEqual({ status: 'retrying', at: T.toISOString(), reason: 'asked' });
      expect(requested.timeline).toMatchObject({ type: 'retry_scheduled', details: { retry_number: 1, scheduled_at: T.toISOString(), requested: true } });
    });

    it.each([
      ['the last attempt', { last_attempt_at: iso(-MANUAL_RETRY_SPACING_MS + 1) }],
      ['the last manual request', { retry_requested_at: iso(-MANUAL_RETRY_SPACING_MS + 1) }],
    ] as const)('refuses a request within 5 minutes of %s with 409 naming when the next is allowed', (_what, overrides) => {
      // Act
      const act = () => transition(payment(overrides), { type: 'request_retry', at: T.toISOString(), reason: 'asked' }, T);
      // Assess
      expect(act).toThrow(StateConflictError);
      expect(act).toThrow(`the next manual retry is allowed at ${iso(1)}`);
    });

    it('accepts a request 5 minutes after the last attempt and request', () => {
      // Act
      const requested = transition(
        payment({ last_attempt_at: iso(-MANUAL_RETRY_SPACING_MS), retry_requested_at: iso(-MANUAL_RETRY_SPACING_MS) }),
        { type: 'request_retry', at: T.toISOString(), reason: 'asked' },
        T,
      );
      // Assess
      expect(requested.changes.next_retry_at).toBe(T.toISOString());
    });

    it.each([
      ['paused', { status: 'paused' }, /it is paused/],
      ['recovered', { status: 'recovered' }, /it is recovered/],
      ['at max_retries', { retry_count: 4 }, /maximum of 4 retries/],
      ['waiting for a card', { status: 'pending', awaiting_card_update: true, decline_category: 'hard_customer' }, /waits for a card update/],
      ['with an attempt in flight', { attempt }, /retry 1 is being attempted now/],
    ] as const)('refuses a payment %s', (_what, overrides, why) => {
      // Act / Assess
      expect(() => transition(payment(overrides as Partial<PaymentRecord>), { type: 'request_retry', at: T.toISOString(), reason: 'asked' }, T)).toThrow(why);
    });
  });

  describe('decline_detailed (a late decline code)', () => {
    const late = {
      decline_code: 'insufficient_funds',
      decline_category: 'soft_retry',
      decline_subcategory: 'balance',
      network_code: '51',
      advice_code: null,
      card_network: 'visa',
    } as const;
    const unknown = { decline_code: null, decline_category: 'unknown', decline_subcategory: 'unmapped' } as const;

    it('drops a retry planned for the unknown decline and not attempted yet, so the policy plans it again', () => {
      // Act
      const detailed = transition(payment(unknown), { type: 'decline_detailed', decline: late, reason: 'sibling' }, T);
      // Assess
      expect(detailed.changes).toEqual({ ...late, next_retry_at: null });
      expect(detailed.history).toBeUndefined();
    });

    it('keeps the lease of an attempt in flight (its outcome reclassifies the payment)', () => {
      // Act
      const detailed = transition(
        payment({ ...unknown, attempt, next_retry_at: attempt.lease_until }),
        { type: 'decline_detailed', decline: late, reason: 'sibling' },
        T,
      );
      // Assess
      expect(detailed.changes).toEqual(late);
    });

    it('makes a hard decline wait for a card update', () => {
      // Act
      const detailed = transition(
        payment(unknown),
        {
          type: 'decline_detailed',
          decline: { ...late, decline_code: 'expired_card', decline_category: 'hard_customer', decline_subcategory: 'expired' },
          reason: 'sibling',
        },
        T,
      );
      // Assess
      expect(detailed.changes).toMatchObject({ decline_code: 'expired_card', status: 'pending', awaiting_card_update: true, next_retry_at: null });
      expect(detailed.history).toEqual({ status: 'pending', at: T.toISOString(), reason: 'sibling' });
    });
  });

  describe('commitInstant', () => {
    it('is now when the last write is older', () => {
      expect(commitInstant(payment(), T)).toEqual(T);
    });

    it('is 1 ms after the last write when that is as late or later than now (a request that waited)', () => {
      // Prepare
      const later = payment({ updated_at: iso(250), state_history: [{ status: 'paused', at: iso(250), reason: 'x' }] });
      // Act / Assess
      expect(commitInstant(later, T).toISOString()).toBe(iso(251));
      expect(commitInstant(payment({ updated_at: T.toISOString() }), T).toISOString()).toBe(iso(1));
    });
  });
});
