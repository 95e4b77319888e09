/**
 * How campaigns leave the API: A's fields and B's (`trigger` beside `trigger_type`, `filters_json`
 * beside `filters`) with the same facts, typed against the response schemas.
 */
import type * as z from '#shared/zod';
import { filtersJsonOf } from '#core/campaigns/filters';
import { type CampaignTemplate as Template, durationHoursOf } from '#core/campaigns/templates';
import { triggerTypeOf } from '#core/campaigns/triggers';
import type { CampaignRecord, CampaignStep as Step } from '#core/campaigns/types';
import type { SendingPause } from '#core/sending-pause';
import type { Campaign, CampaignStep, CampaignTemplate } from './schemas';

export const stepView = (step: Step): z.output<typeof CampaignStep> => ({
  action: step.action,
  delay_hours: step.delay_hours,
  template_id: step.template_id,
  ...(step.subject === undefined ? {} : { subject: step.subject }),
});

/**
 * The campaign with its steps, trigger in both forms, filters, stop rules, hours, stats and
 * performance, and whether the merchant's email sending is paused (its bounce or complaint rate).
 */
export const campaignView = (c: CampaignRecord, pause: SendingPause | undefined): z.output<typeof Campaign> => ({
  id: c.id,
  name: c.name,
  status: c.status,
  trigger: c.trigger,
  trigger_type: triggerTypeOf(c.trigger),
  filters: c.filters as z.output<typeof Campaign>['filters'],
  filters_json: filtersJsonOf(c.filters),
  steps: c.steps.map(stepView),
  total_steps: c.steps.length,
  delay_hours: c.delay_hours,
  max_attempts: c.max_attempts,
  stop_on_recovery: c.stop_on_recovery,
  stop_on_card_update: c.stop_on_card_update,
  start_hour: c.start_hour,
  end_hour: c.end_hour,
  stats: { ...c.stats },
  performance: {
    enrolled: c.stats.enrolled,
    active: c.stats.active,
    recovered: c.stats.recovered,
    recovery_rate: c.stats.enrolled === 0 ? 0 : Math.round((c.stats.recovered / c.stats.enrolled) * 10_000) / 10_000,
  },
  sending_paused:
    pause === undefined ? null : { since: pause.since, reason: pause.reason, bounce_rate: pause.bounce_rate, complaint_rate: pause.complaint_rate },
  source_template_id: c.source_template_id,
  created_at: c.created_at,
  updated_at: c.updated_at,
  activated_at: c.activated_at,
  paused_at: c.paused_at,
  archived_at: c.archived_at,
  completed_at: c.completed_at,
});

const countOf = (steps: readonly Step[], action: Step['action']): number => steps.filter((step) => step.action === action).length;

export const campaignTemplateView = (t: Template): z.output<typeof CampaignTemplate> => ({
  id: t.id,
  name: t.name,
  description: t.description,
  trigger: t.trigger,
  trigger_type: triggerTypeOf(t.trigger),
  filters: t.filters as z.output<typeof CampaignTemplate>['filters'],
  filters_json: filtersJsonOf(t.filters),
  steps: t.steps.map(stepView),
  total_steps: t.steps.length,
  delay_hours: t.delay_hours,
  max_attempts: t.max_attempts,
  stop_on_recovery: t.stop_on_recovery,
  stop_on_card_update: t.stop_on_card_update,
  start_hour: t.start_hour,
  end_hour: t.end_hour,
  duration_days: durationHoursOf(t) / 24,
  messages: { email: countOf(t.steps, 'email'), sms: countOf(t.steps, 'sms'), whatsapp: countOf(t.steps, 'whatsapp') },
  retries: countOf(t.steps, 'retry'),
  source: t.source,
});
