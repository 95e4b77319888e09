import { CAMPAIGN_STATUSES, type CampaignRecord, type CampaignStatus } from '#core/campaigns/types';
import { newCampaign, transitionCampaign, updateCampaign } from '#core/campaigns/lifecycle';
import { StateConflictError } from '#core/errors';

const now = new Date('2026-11-25T10:00:00.000Z');
const later = new Date('2026-11-25T11:00:00.000Z');
const draft = (): CampaignRecord =>
  newCampaign('m_1', { name: 'Soft', trigger: 'soft_decline', filters: {}, steps: [{ action: 'retry', delay_hours: 24, template_id: null }] }, now);
const inStatus = (status: CampaignStatus): CampaignRecord => ({ ...draft(), status });

describe('newCampaign', () => {
  it("starts a draft with A's defaults, zero stats and a time-ordered camp_ id", () => {
    // Act
    const campaign = draft();
    // Assess
    expect(campaign).toMatchObject({
      merchant_id: 'm_1',
      status: 'draft',
      delay_hours: 0,
      max_attempts: 4,
      stop_on_recovery: true,
      stop_on_card_update: true,
      start_hour: 9,
      end_hour: 21,
      stats: { enrolled: 0, active: 0, recovered: 0, stopped: 0, completed: 0, messages_sent: 0 },
      source_template_id: null,
      created_at: now.toISOString(),
      activated_at: null,
      version: 1,
    });
    expect(campaign.id).toMatch(/^camp_[0-9A-HJKMNP-TV-Z]{26}$/);
  });
});

describe('transitionCampaign', () => {
  it.each([
    ['activate', 'draft', 'active', 'activated_at'],
    ['activate', 'paused', 'active', 'activated_at'],
    ['pause', 'active', 'paused', 'paused_at'],
    ['archive', 'draft', 'archived', 'archived_at'],
    ['archive', 'active', 'archived', 'archived_at'],
    ['archive', 'paused', 'archived', 'archived_at'],
    ['archive', 'completed', 'archived', 'archived_at'],
    ['complete', 'paused', 'completed', 'completed_at'],
  ] as const)('lets %s move a %s campaign to %s and stamps %s', (action, from, to, stamp) => {
    // Act
    const after = transitionCampaign(inStatus(from), action, later);
    // Assess
    expect(after.status).toBe(to);
    expect(after[stamp]).toBe(later.toISOString());
    expect(after.version).toBe(2);
  });

  const refused = [
    ...CAMPAIGN_STATUSES.filter((s) => s !== 'draft' && s !== 'paused').map((s) => ['activate', s] as const),
    ...CAMPAIGN_STATUSES.filter((s) => s !== 'active').map((s) => ['pause', s] as const),
    ['archive', 'archived'] as const,
  ];
  it.each(refused)('refuses %s of a %s campaign with 409', (action, from) => {
    // Act and assess
    expect(() => transitionCampaign(inStatus(from), action, later)).toThrow(StateConflictError);
  });
});

describe('updateCampaign', () => {
  it('changes only the fields given and keeps a paused campaign paused', () => {
    // Act
    const after = updateCampaign(inStatus('paused'), { name: 'Renamed', start_hour: 22, end_hour: 6 }, later);
    // Assess
    expect(after).toMatchObject({ status: 'paused', name: 'Renamed', start_hour: 22, end_hour: 6, trigger: 'soft_decline', version: 2 });
  });

  it.each(['active', 'archived', 'completed'] as const)('refuses to update a %s campaign with 409', (status) => {
    // Act and assess
    expect(() => updateCampaign(inStatus(status), { name: 'x' }, later)).toThrow(StateConflictError);
  });
});
