import { idBody } from '#core/ids';

/**
 * Campaigns: ordered steps of retries and messages that a newly failed payment is enrolled in
 * (spec "Campaign"; DESIGN §1 statuses). A's statuses plus B's `completed`.
 */
export const CAMPAIGN_STATUSES = ['draft', 'active', 'paused', 'archived', 'completed'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** A's `status` filter values (B adds `completed`; the list accepts all five). */
export const A_CAMPAIGN_STATUSES = ['draft', 'active', 'paused', 'archived'] as const;

/** What a step does: hand over to the retry engine, or queue a message on one channel. */
export const CAMPAIGN_STEP_ACTIONS = ['retry', 'email', 'sms', 'whatsapp'] as const;
export type CampaignStepAction = (typeof CAMPAIGN_STEP_ACTIONS)[number];
export type MessageChannel = Exclude<CampaignStepAction, 'retry'>;
export const MESSAGE_CHANNELS: readonly MessageChannel[] = ['email', 'sms', 'whatsapp'];

export interface CampaignStep {
  readonly action: CampaignStepAction;
  /** Hours after the previous step (after the campaign's own `delay_hours` for the first step). */
  readonly delay_hours: number;
  /** The message template (`tmpl_…`) of an email, sms or whatsapp step; null for a retry. */
  readonly template_id: string | null;
  /** An email's subject, overriding the template's. */
  readonly subject?: string;
}

/** Counters the engine keeps with `ADD` (incrementCampaignStats); all 0 at creation. */
export interface CampaignStats {
  readonly enrolled: number;
  readonly active: number;
  readonly recovered: number;
  readonly stopped: number;
  readonly completed: number;
  readonly messages_sent: number;
}
export const CAMPAIGN_STAT_NAMES = [
  'enrolled',
  'active',
  'recovered',
  'stopped',
  'completed',
  'messages_sent',
] as const satisfies readonly (keyof CampaignStats)[];
export const NO_STATS: CampaignStats = { enrolled: 0, active: 0, recovered: 0, stopped: 0, completed: 0, messages_sent: 0 };

/** Filters of `filters_json`, normalised (filters.ts): every list field a list, absent when not set. */
export interface CampaignFilters {
  readonly amount_min?: number;
  readonly amount_max?: number;
  readonly currency?: readonly string[];
  readonly psp?: readonly string[];
  readonly decline_category?: readonly string[];
  readonly decline_code?: readonly string[];
  readonly customer_segment?: readonly string[];
}

export interface CampaignRecord {
  /** `camp_<time-ordered body>`. */
  readonly id: string;
  readonly merchant_id: string;
  readonly name: string;
  readonly status: CampaignStatus;
  /** The canonical trigger (triggers.ts); A's `trigger_type` is derived from it. */
  readonly trigger: string;
  readonly filters: CampaignFilters;
  readonly steps: readonly CampaignStep[];
  /** Hours to wait after enrollment before the first step. */
  readonly delay_hours: number;
  readonly max_attempts: number;
  readonly stop_on_recovery: boolean;
  readonly stop_on_card_update: boolean;
  readonly start_hour: number;
  readonly end_hour: number;
  readonly stats: CampaignStats;
  /** The campaign template (templates.ts) it was made from, else null. */
  readonly source_template_id: string | null;
  readonly created_at: string;
  readonly updated_at: string;
  /** The last activation (ties between equally specific campaigns go to the earliest). */
  readonly activated_at: string | null;
  readonly paused_at: string | null;
  readonly archived_at: string | null;
  readonly completed_at: string | null;
  /** Optimistic-concurrency version: every write checks and bumps it. */
  readonly version: number;
}

export const campaignIdFor = (body: string): string => `camp_${body}`;
/** The time-ordered body of a `camp_` id, or undefined for anything else. */
export const campaignBodyOf = (id: string): string | undefined => idBody(id, 'camp');

/** A's defaults for the fields a campaign may leave out (spec: Campaign create fields). */
export const CAMPAIGN_DEFAULTS = {
  delay_hours: 0,
  max_attempts: 4,
  stop_on_recovery: true,
  stop_on_card_update: true,
  start_hour: 9,
  end_hour: 21,
} as const;
