import { type PaymentRecord, type RetryAttempt, transition } from '#core/payments';
import { countedRecoveryMethodOf, recoveryMethodOf } from '#core/recovery-method';

const T = new Date('2026-12-07T15:00:00.000Z');
const attempt: RetryAttempt = { number: 1, idempotency_key: 'retry-pe_1-1', gateway: 'sandbox', recorded_at: T.toISOString(), lease_until: T.toISOString() };

/** The fields the rule reads, of an open payment with no card update and no attempt in flight. */
const open = { card_updated_at: null, attempt: null } as const;

describe('recoveryMethodOf', () => {
  it.each([
    ['a retry of ours', open, 'retry', null, 'retry'],
    ['a provider report', open, 'provider', null, 'provider'],
    ['a provider report while our attempt is in flight', { ...open, attempt }, 'provider', null, 'retry'],
    ['a retry after a card update', { ...open, card_updated_at: T.toISOString() }, 'retry', null, 'card_update'],
    ['a provider report after a card update', { ...open, card_updated_at: T.toISOString() }, 'provider', null, 'card_update'],
    ['a retry after a campaign email', open, 'retry', 'email', 'campaign_email'],
    ['a provider report after a campaign SMS', open, 'provider', 'sms', 'campaign_sms'],
    ['a card update after a campaign email', { ...open, card_updated_at: T.toISOString() }, 'retry', 'email', 'campaign_email'],
  ] as const)('attributes %s', (_case, before, by, channel, expected) => {
    // Act
    const method = recoveryMethodOf(before, by, channel);
    // Assess
    expect(method).toBe(expected);
  });
});

describe('countedRecoveryMethodOf', () => {
  const at = T.toISOString();
  it.each([
    ['its own method', { status: 'recovered', recovery_method: 'campaign_sms', recovered_at: at, last_attempt_at: null }, 'campaign_sms'],
    ['retry for an old record recovered by its last attempt', { status: 'recovered', recovery_method: null, recovered_at: at, last_attempt_at: at }, 'retry'],
    ['provider for an old record recovered otherwise', { status: 'recovered', recovery_method: null, recovered_at: at, last_attempt_at: null }, 'provider'],
    ['null for a payment not recovered', { status: 'retrying', recovery_method: null, recovered_at: null, last_attempt_at: at }, null],
  ] as const)('counts %s', (_case, payment, expected) => {
    // Act
    const method = countedRecoveryMethodOf(payment);
    // Assess
    expect(method).toBe(expected);
  });
});

describe('the transitions to recovered', () => {
  const payment = { status: 'retrying', attempt: null, card_updated_at: null, awaiting_card_update: false } as unknown as PaymentRecord;

  it('records the method of a provider report', () => {
    // Act
    const change = transition(payment, { type: 'recover', reason: 'paid', campaignChannel: 'sms' }, T);
    // Assess
    expect(change.changes).toMatchObject({ status: 'recovered', recovery_method: 'campaign_sms' });
  });

  it('records the method of a successful attempt', () => {
    // Act
    const change = transition({ ...payment, attempt }, { type: 'attempt_succeeded', providerChargeId: 'ch_1', reason: 'charged' }, T);
    // Assess
    expect(change.changes).toMatchObject({ status: 'recovered', recovery_method: 'retry' });
  });

  it('stamps a card update, which a later recovery reads', () => {
    // Act
    const updated = transition({ ...payment, awaiting_card_update: true }, { type: 'card_updated', reason: 'new card' }, T);
    const recovered = transition({ ...payment, ...updated.changes }, { type: 'recover', reason: 'paid' }, T);
    // Assess
    expect(updated.changes).toMatchObject({ awaiting_card_update: false, card_updated_at: T.toISOString() });
    expect(recovered.changes.recovery_method).toBe('card_update');
  });
});
