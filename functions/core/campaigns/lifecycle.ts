import { StateConflictError } from '#core/errors';
import { timeOrderedId } from '#core/ids';
import type { CampaignTemplate } from './templates';
import { CAMPAIGN_DEFAULTS } from './types';
import { type CampaignFilters, type CampaignRecord, type CampaignStatus, type CampaignStep, campaignIdFor, NO_STATS } from './types';

/**
 * The campaign state machine (spec "States and transitions", Campaign):
 *   draft → active ⇄ paused; draft, active, paused, completed → archived (permanent);
 *   active or paused → completed (the engine, once every enrollment has ended and none can start).
 * Updates (PUT) only in draft or paused; an update keeps the status.
 */
export const CAMPAIGN_ACTIONS = ['activate', 'pause', 'archive', 'complete', 'update'] as const;
export type CampaignAction = (typeof CAMPAIGN_ACTIONS)[number];

export const ALLOWED_FROM: Readonly<Record<CampaignAction, readonly CampaignStatus[]>> = {
  activate: ['draft', 'paused'],
  pause: ['active'],
  archive: ['draft', 'active', 'paused', 'completed'],
  complete: ['active', 'paused'],
  update: ['draft', 'paused'],
};

const TARGET: Readonly<Record<Exclude<CampaignAction, 'update'>, CampaignStatus>> = {
  activate: 'active',
  pause: 'paused',
  archive: 'archived',
  complete: 'completed',
};

/** 409 `state_conflict` unless the action is allowed from the campaign's status. */
export function refuseCampaignAction(campaign: Pick<CampaignRecord, 'id' | 'status'>, action: CampaignAction): void {
  if (!ALLOWED_FROM[action].includes(campaign.status)) {
    const allowed = ALLOWED_FROM[action].join(', ');
    throw new StateConflictError(`Cannot ${action} campaign ${campaign.id}: it is ${campaign.status} (allowed from ${allowed}).`);
  }
}

/** The campaign after a status action at `now` (timestamps of that action set), or 409. */
export function transitionCampaign(campaign: CampaignRecord, action: Exclude<CampaignAction, 'update'>, now: Date): CampaignRecord {
  refuseCampaignAction(campaign, action);
  const at = now.toISOString();
  const stamp = { activate: 'activated_at', pause: 'paused_at', archive: 'archived_at', complete: 'completed_at' } as const;
  return { ...campaign, status: TARGET[action], [stamp[action]]: at, updated_at: at, version: campaign.version + 1 };
}

/** The fields a create or an update sets (defaults applied by newCampaign). */
export interface CampaignFields {
  readonly name: string;
  readonly trigger: string;
  readonly filters: CampaignFilters;
  readonly steps: readonly CampaignStep[];
  readonly delay_hours?: number;
  readonly max_attempts?: number;
  readonly stop_on_recovery?: boolean;
  readonly stop_on_card_update?: boolean;
  readonly start_hour?: number;
  readonly end_hour?: number;
  readonly source_template_id?: string | null;
}

/** A template's trigger, filters, steps and rules as a new campaign's fields, named `name` or the template's name. */
export const fieldsOfTemplate = (template: CampaignTemplate, name?: string): CampaignFields => ({
  name: name ?? template.name,
  trigger: template.trigger,
  filters: template.filters,
  steps: template.steps,
  delay_hours: template.delay_hours,
  max_attempts: template.max_attempts,
  stop_on_recovery: template.stop_on_recovery,
  stop_on_card_update: template.stop_on_card_update,
  start_hour: template.start_hour,
  end_hour: template.end_hour,
  source_template_id: template.id,
});

/** A new draft campaign with A's defaults and zero stats. */
export function newCampaign(merchantId: string, fields: CampaignFields, now: Date): CampaignRecord {
  const at = now.toISOString();
  return {
    id: campaignIdFor(timeOrderedId(now)),
    merchant_id: merchantId,
    name: fields.name,
    status: 'draft',
    trigger: fields.trigger,
    filters: fields.filters,
    steps: fields.steps.map(stepOf),
    delay_hours: fields.delay_hours ?? CAMPAIGN_DEFAULTS.delay_hours,
    max_attempts: fields.max_attempts ?? CAMPAIGN_DEFAULTS.max_attempts,
    stop_on_recovery: fields.stop_on_recovery ?? CAMPAIGN_DEFAULTS.stop_on_recovery,
    stop_on_card_update: fields.stop_on_card_update ?? CAMPAIGN_DEFAULTS.stop_on_card_update,
    start_hour: fields.start_hour ?? CAMPAIGN_DEFAULTS.start_hour,
    end_hour: fields.end_hour ?? CAMPAIGN_DEFAULTS.end_hour,
    stats: NO_STATS,
    source_template_id: fields.source_template_id ?? null,
    created_at: at,
    updated_at: at,
    activated_at: null,
    paused_at: null,
    archived_at: null,
    completed_at: null,
    version: 1,
  };
}

/** A campaign after a partial update (only the fields given change), or 409 unless draft or paused. */
export function updateCampaign(campaign: CampaignRecord, changes: Partial<CampaignFields>, now: Date): CampaignRecord {
  refuseCampaignAction(campaign, 'update');
  const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as Partial<CampaignFields>;
  return {
    ...campaign,
    ...defined,
    steps: (defined.steps ?? campaign.steps).map(stepOf),
    source_template_id: campaign.source_template_id,
    updated_at: now.toISOString(),
    version: campaign.version + 1,
  };
}

/** A step as stored: template_id null for a retry, subject only when given. */
const stepOf = (step: CampaignStep): CampaignStep => ({
  action: step.action,
  delay_hours: step.delay_hours,
  template_id: step.action === 'retry' ? null : step.template_id,
  ...(step.subject === undefined ? {} : { subject: step.subject }),
});
