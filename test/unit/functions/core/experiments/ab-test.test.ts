import type { CampaignStep } from '#core/campaigns/types';
import { newAbTest, refuseNewAbTest } from '#core/experiments/ab-test';
import { ResourceNotFoundError, StateConflictError, ValidationError } from '#core/errors';

const now = new Date('2026-11-25T10:00:00.000Z');
const variants = [
  { name: 'Control', subject: 'Your payment failed', template_id: 'tmpl_control' },
  { name: 'Urgent', subject: 'Action needed today', template_id: 'tmpl_urgent' },
] as const;
const counts = (assigned: number, recovered: number, sent = assigned, clicked = 0) => ({ assigned, sent, clicked, recovered });

describe('newAbTest', () => {
  it('starts a running test with the defaults: split 0.5, metric recovery, 100 per arm, zero counters', () => {
    // Act
    const test = newAbTest('m_1', 'camp_1', { variants }, now);
    // Assess
    expect(test).toMatchObject({
      merchant_id: 'm_1',
      campaign_id: 'camp_1',
      status: 'running',
      traffic_split: 0.5,
      metric: 'recovery',
      minimum_sample_per_arm: 100,
      counters: { A: counts(0, 0), B: counts(0, 0) },
      last_evaluation: null,
      winner: null,
      created_at: now.toISOString(),
    });
    expect(test.id).toMatch(/^abt_[0-9A-HJKMNP-TV-Z]{26}$/);
  });
});

describe('refuseNewAbTest', () => {
  const email: CampaignStep = { action: 'email', delay_hours: 0, template_id: 'tmpl_a' };
  const retry: CampaignStep = { action: 'retry', delay_hours: 24, template_id: null };

  it.each(['draft', 'active', 'paused'] as const)('accepts a %s campaign with an email step and no test', (status) => {
    // Act and assess
    expect(() => refuseNewAbTest('camp_1', { status, steps: [retry, email] }, undefined)).not.toThrow();
  });

  it('accepts a campaign whose test is completed (the new test replaces it)', () => {
    // Act and assess
    expect(() => refuseNewAbTest('camp_1', { status: 'active', steps: [email] }, { id: 'abt_1', status: 'completed' })).not.toThrow();
  });

  it.each([
    ['an unknown campaign', undefined, undefined, ResourceNotFoundError, 'campaign_id'],
    ['an archived campaign', { status: 'archived', steps: [email] }, undefined, StateConflictError, undefined],
    ['a completed campaign', { status: 'completed', steps: [email] }, undefined, StateConflictError, undefined],
    ['a campaign without an email step', { status: 'draft', steps: [retry] }, undefined, ValidationError, 'campaign_id'],
    ['a campaign with a running test', { status: 'active', steps: [email] }, { id: 'abt_1', status: 'running' }, StateConflictError, undefined],
  ] as const)('refuses %s', (_case, campaign, existing, errorClass, param) => {
    // Act
    let thrown: unknown;
    try {
      refuseNewAbTest('camp_1', campaign, existing);
    } catch (error) {
      thrown = error;
    }
    // Assess
    expect(thrown).toBeInstanceOf(errorClass);
    expect((thrown as { param?: string }).param).toBe(param);
  });
});
