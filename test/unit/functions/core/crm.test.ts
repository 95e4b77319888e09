/** The CRM OAuth state (functions/core/crm.ts): signed claims round-trip; tampering, another key, another CRM and expiry are refused. */
import { randomBytes } from 'node:crypto';
import { CRM_STATE_TTL_SECONDS, crmErrorOfStatus, signCrmState, verifyCrmState } from '#core/crm';

describe('CRM OAuth state', () => {
  const key = randomBytes(32);
  const now = 1_800_000_000;
  const claims = { merchant_id: 'm_1', crm: 'crm_a' as const, nonce: 'n1', exp: now + CRM_STATE_TTL_SECONDS };

  it('verifies a state it signed, for its CRM, before its expiry', () => {
    // Prepare
    const state = signCrmState(claims, key);

    // Act
    const verified = verifyCrmState(state, 'crm_a', key, now);

    // Assess
    expect(verified).toEqual(claims);
  });

  it('refuses a changed payload, another key, the other CRM, an expired state and garbage', () => {
    // Prepare
    const state = signCrmState(claims, key);
    const [, signature] = state.split('.');
    const changed = `${Buffer.from(JSON.stringify({ ...claims, merchant_id: 'm_2' })).toString('base64url')}.${signature}`;

    // Act
    const outcomes = [
      verifyCrmState(changed, 'crm_a', key, now),
      verifyCrmState(state, 'crm_a', randomBytes(32), now),
      verifyCrmState(state, 'crm_b', key, now),
      verifyCrmState(state, 'crm_a', key, claims.exp),
      verifyCrmState('abc', 'crm_a', key, now),
      verifyCrmState(`${Buffer.from('not json').toString('base64url')}.${signature}`, 'crm_a', key, now),
    ];

    // Assess
    expect(outcomes).toEqual(['bad_signature', 'bad_signature', 'wrong_crm', 'expired', 'malformed', 'bad_signature']);
  });

  it('classifies CRM answers: 401/403 unauthorized, 429 and 5xx unavailable, others bad_response', () => {
    // Act
    const kinds = [401, 403, 429, 500, 503, 400, 404].map((status) => crmErrorOfStatus('crm_b', status).kind);

    // Assess
    expect(kinds).toEqual(['unauthorized', 'unauthorized', 'unavailable', 'unavailable', 'unavailable', 'bad_response', 'bad_response']);
  });
});
