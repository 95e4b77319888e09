import { CAMPAIGN_TEMPLATES, durationHoursOf } from '#core/campaigns/templates';
import { CampaignName, CampaignStepInput, CampaignStepsInput, Hour, isWithinSendingHours, MaxAttempts } from '#core/campaigns/validation';

describe('campaign field rules', () => {
  it.each([
    [{ action: 'retry', delay_hours: 24 }, true],
    [{ action: 'retry' }, true],
    [{ action: 'email', delay_hours: 0, template_id: 'tmpl_soft_decline_1', subject: 'Your payment' }, true],
    [{ action: 'sms', delay_hours: 720, template_id: 'tmpl_card_update_sms' }, true],
    [{ action: 'whatsapp', delay_hours: 1.5, template_id: 'tmpl_x' }, true],
    [{ action: 'email', delay_hours: 0 }, false],
    [{ action: 'sms', delay_hours: 0, template_id: null }, false],
    [{ action: 'email', delay_hours: 0, template_id: 'tmpl_' }, false],
    [{ action: 'email', delay_hours: 0, template_id: 'tmpl_a-b' }, false],
    [{ action: 'email', delay_hours: 0, template_id: `tmpl_${'a'.repeat(65)}` }, false],
    [{ action: 'retry', delay_hours: 0, template_id: 'tmpl_x' }, false],
    [{ action: 'sms', delay_hours: 0, template_id: 'tmpl_x', subject: 'Hi' }, false],
    [{ action: 'email', delay_hours: 721, template_id: 'tmpl_x' }, false],
    [{ action: 'email', delay_hours: -1, template_id: 'tmpl_x' }, false],
    [{ action: 'call', delay_hours: 0 }, false],
  ])('decides the step %j is valid: %s', (step, valid) => {
    // Act and assess
    expect(CampaignStepInput.safeParse(step).success).toBe(valid);
  });

  it('needs 1 to 20 steps', () => {
    // Act and assess
    expect(CampaignStepsInput.safeParse([]).success).toBe(false);
    expect(CampaignStepsInput.safeParse(Array.from({ length: 20 }, () => ({ action: 'retry' }))).success).toBe(true);
    expect(CampaignStepsInput.safeParse(Array.from({ length: 21 }, () => ({ action: 'retry' }))).success).toBe(false);
  });

  it('holds names to 1-200 characters, hours to integers 0-23 and max_attempts to 1-10', () => {
    // Act and assess
    expect(CampaignName.safeParse('').success).toBe(false);
    expect(CampaignName.safeParse('   ').success).toBe(false);
    expect(CampaignName.safeParse('a'.repeat(200)).success).toBe(true);
    expect(CampaignName.safeParse('a'.repeat(201)).success).toBe(false);
    expect([0, 23].map((h) => Hour.safeParse(h).success)).toEqual([true, true]);
    expect([-1, 24, 9.5].map((h) => Hour.safeParse(h).success)).toEqual([false, false, false]);
    expect([0, 1, 10, 11].map((n) => MaxAttempts.safeParse(n).success)).toEqual([false, true, true, false]);
  });

  it.each([
    [9, 21, 9, true],
    [9, 21, 21, true],
    [9, 21, 22, false],
    [9, 21, 8, false],
    [22, 6, 23, true],
    [22, 6, 3, true],
    [22, 6, 12, false],
    [5, 5, 5, true],
  ])('decides that window %i-%i admits hour %i: %s', (start_hour, end_hour, hour, expected) => {
    // Act and assess
    expect(isWithinSendingHours({ start_hour, end_hour }, hour)).toBe(expected);
  });
});

describe('CAMPAIGN_TEMPLATES', () => {
  it('offers soft decline, hard decline, card expiring and high value templates whose steps are valid', () => {
    // Act and assess
    expect(CAMPAIGN_TEMPLATES.map((t) => t.id)).toEqual(['soft_decline', 'hard_decline', 'card_expiring', 'high_value']);
    for (const template of CAMPAIGN_TEMPLATES) expect(CampaignStepsInput.safeParse(template.steps).success).toBe(true);
  });

  it('runs the soft decline template over 14 days and the hard decline one over 28 days with 5 emails and 1 SMS', () => {
    // Prepare
    const [soft, hard] = CAMPAIGN_TEMPLATES;
    // Act and assess
    expect(durationHoursOf(soft as (typeof CAMPAIGN_TEMPLATES)[number]) / 24).toBe(14);
    expect(durationHoursOf(hard as (typeof CAMPAIGN_TEMPLATES)[number]) / 24).toBe(28);
    expect(hard?.steps.filter((s) => s.action === 'email')).toHaveLength(5);
    expect(hard?.steps.filter((s) => s.action === 'sms')).toHaveLength(1);
  });
});
