import { newCampaign } from '#core/campaigns/lifecycle';
import type { CampaignRecord, CampaignStatus } from '#core/campaigns/types';
import { AB_TEST_NOW, AB_TEST_VARIANTS, counts, testWith } from '#test/fixtures/ab-test-records';
import { assignArm } from '#core/experiments/assign';
import { abTestVariantFor, promoteVariant, promotionTarget } from '#core/experiments/promotion';

const now = AB_TEST_NOW;
const variants = AB_TEST_VARIANTS;

describe('promotionTarget and promoteVariant', () => {
  const campaign = (status: CampaignStatus): CampaignRecord => ({
    ...newCampaign(
      'm_1',
      {
        name: 'Soft',
        trigger: 'soft_decline',
        filters: {},
        steps: [
          { action: 'retry', delay_hours: 24, template_id: null },
          { action: 'email', delay_hours: 0, template_id: 'tmpl_old', subject: 'Old' },
          { action: 'email', delay_hours: 48, template_id: 'tmpl_later' },
        ],
      },
      now,
    ),
    status,
  });

  it.each(['draft', 'active', 'paused'] as const)('targets the first email step of a %s campaign', (status) => {
    // Act and assess
    expect(promotionTarget(campaign(status))).toEqual({ step_index: 1 });
  });

  it.each([
    ['archived', 'campaign_archived'],
    ['completed', 'campaign_completed'],
  ] as const)('refuses a %s campaign', (status, reason) => {
    // Act and assess
    expect(promotionTarget(campaign(status))).toEqual({ refused: reason });
  });

  it('refuses a campaign without an email step', () => {
    // Act and assess
    expect(promotionTarget({ status: 'active', steps: [{ action: 'retry', delay_hours: 0, template_id: null }] })).toEqual({ refused: 'no_email_step' });
  });

  it("writes the variant's template and subject into that step only and bumps the version", () => {
    // Prepare
    const before = campaign('active');
    // Act
    const after = promoteVariant(before, 1, variants[1], new Date('2026-11-26T00:00:00.000Z'));
    // Assess
    expect(after.steps).toEqual([
      before.steps[0],
      { action: 'email', delay_hours: 0, template_id: 'tmpl_urgent', subject: 'Action needed today' },
      before.steps[2],
    ]);
    expect(after).toMatchObject({ version: before.version + 1, updated_at: '2026-11-26T00:00:00.000Z', status: 'active' });
  });
});

describe('abTestVariantFor', () => {
  it("gives a payment its hashed arm's variant while the test runs, the same on every call", () => {
    // Prepare
    const test = testWith(counts(0, 0), counts(0, 0), { traffic_split: 0.5 });
    const ids = Array.from({ length: 50 }, (_, i) => `pe_${i}`);
    // Act
    const chosen = ids.map((id) => abTestVariantFor(test, id));
    // Assess
    expect(chosen).toEqual(ids.map((id) => abTestVariantFor(test, id)));
    for (const [i, id] of ids.entries()) {
      const arm = assignArm(test.id, id, 0.5);
      expect(chosen[i]).toEqual({ arm, variant: arm === 'A' ? variants[0] : variants[1] });
    }
    expect(new Set(chosen.map((choice) => choice?.arm))).toEqual(new Set(['A', 'B']));
  });

  it('gives nothing once the test is completed', () => {
    // Act and assess
    expect(abTestVariantFor(testWith(counts(0, 0), counts(0, 0), { status: 'completed' }), 'pe_1')).toBeUndefined();
  });
});
