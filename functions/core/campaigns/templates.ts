import type { CampaignTrigger } from './triggers';
import type { CampaignFilters, CampaignStep } from './types';

/**
 * Pre-built, decline-aware campaigns (GET /campaigns/templates, POST /campaigns/from-template).
 * Cadences follow the figures in ../shared/reference/stage2-anchors.md §1:
 * - Churnkey's templates run 28 days / 5 emails or 14 days / 5 messages
 *   (docs.churnkey.co/failed-payment-recovery/campaign-templates);
 * - Churn Buster: retries resolve ~15% before any outreach, recovery window 25-28 days;
 * - SMS is used sparingly (Churnkey 1-2, Churn Buster 1 text).
 * A step's delay_hours counts from the previous step. The message template ids are the built-in
 * ones the templates work defines (tmpl_soft_decline_1 ...).
 */
export interface CampaignTemplate {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly trigger: CampaignTrigger;
  readonly filters: CampaignFilters;
  readonly steps: readonly CampaignStep[];
  readonly delay_hours: number;
  readonly max_attempts: number;
  readonly stop_on_recovery: boolean;
  readonly stop_on_card_update: boolean;
  readonly start_hour: number;
  readonly end_hour: number;
  /** Where its cadence comes from. */
  readonly source: string;
}

const retry = (delay_hours: number): CampaignStep => ({ action: 'retry', delay_hours, template_id: null });
const email = (delay_hours: number, template_id: string): CampaignStep => ({ action: 'email', delay_hours, template_id });
const sms = (delay_hours: number, template_id: string): CampaignStep => ({ action: 'sms', delay_hours, template_id });

const COMMON = { filters: {}, delay_hours: 0, stop_on_recovery: true, stop_on_card_update: true, start_hour: 9, end_hour: 20 } as const;

export const CAMPAIGN_TEMPLATES: readonly CampaignTemplate[] = [
  {
    ...COMMON,
    id: 'soft_decline',
    name: 'Soft decline: retries and reminders over 14 days',
    description:
      'For insufficient funds, limits and processing errors: a retry first (retries alone recover ~15%), then reminders between retries timed for balances that refill; 3 retries and 3 emails over 14 days.',
    trigger: 'soft_decline',
    // Day 1 retry, day 2 email, day 5 retry, day 7 email, day 11 retry, day 14 final email (14 days, 6 touches).
    steps: [retry(24), email(24, 'tmpl_soft_decline_1'), retry(72), email(48, 'tmpl_soft_decline_2'), retry(96), email(72, 'tmpl_soft_decline_final')],
    max_attempts: 4,
    source: 'Churnkey template 14 days / 5 messages; Churn Buster: retries first (~15% before outreach).',
  },
  {
    ...COMMON,
    id: 'hard_decline',
    name: 'Hard decline or expired card: update-card emails and one SMS over 28 days',
    description:
      'For expired, closed or stolen cards and other declines a retry cannot fix: ask for a new card at once, then 4 reminders and one SMS; 5 emails and 1 SMS over 28 days, no retries until the card is updated.',
    trigger: 'payment_failed_hard',
    // Day 0, 3 emails; day 7 SMS; day 14, 21 emails; day 28 final email.
    steps: [
      email(0, 'tmpl_card_update_1'),
      email(72, 'tmpl_card_update_2'),
      sms(96, 'tmpl_card_update_sms'),
      email(168, 'tmpl_card_update_2'),
      email(168, 'tmpl_card_update_2'),
      email(168, 'tmpl_card_update_final'),
    ],
    max_attempts: 1,
    source: 'Churnkey template 28 days / 5 emails; Churn Buster recovery window 25-28 days; one SMS (Churn Buster 1 text, Churnkey 1-2).',
  },
  {
    ...COMMON,
    id: 'card_expiring',
    name: 'Card expiring: pre-dunning before the card lapses',
    description:
      'Before a card on file expires: two emails a week apart asking for the new card, so the next charge does not fail. Enrolls cards found by the daily card-expiry check.',
    trigger: 'card_expiring',
    steps: [email(0, 'tmpl_card_expiring_1'), email(168, 'tmpl_card_expiring_2')],
    max_attempts: 1,
    source: 'Pre-dunning as Churnkey and Churn Buster offer it; spacing of one week within their 14-28 day windows.',
  },
  {
    ...COMMON,
    id: 'high_value',
    name: 'High value: more touches, retries and SMS over 21 days',
    description:
      'For customers whose lifetime value or payment is high: an email at once, retries, and two SMS among 3 emails; 2 retries, 3 emails, 2 SMS over 21 days.',
    trigger: 'high_value_churn',
    // Day 0 email, day 1 retry, day 2 SMS, day 5 email, day 7 retry, day 14 email, day 21 SMS.
    steps: [
      email(0, 'tmpl_high_value_1'),
      retry(24),
      sms(24, 'tmpl_high_value_sms'),
      email(72, 'tmpl_high_value_2'),
      retry(48),
      email(168, 'tmpl_high_value_2'),
      sms(168, 'tmpl_high_value_sms'),
    ],
    max_attempts: 4,
    source: 'Churnkey 28 days / 5 emails with 1-2 SMS, condensed to 21 days for high-value customers.',
  },
];

/** The default cadence for a trigger (a simulation without steps): its template's, else the soft decline template's. */
export const defaultTemplateFor = (trigger: string): CampaignTemplate =>
  CAMPAIGN_TEMPLATES.find((template) => template.trigger === trigger) ?? (CAMPAIGN_TEMPLATES[0] as CampaignTemplate);

export const campaignTemplateById = (id: string): CampaignTemplate | undefined => CAMPAIGN_TEMPLATES.find((template) => template.id === id);

/** Total hours from enrollment to the last step. */
export const durationHoursOf = (campaign: { readonly delay_hours: number; readonly steps: readonly CampaignStep[] }): number =>
  campaign.steps.reduce((hours, step) => hours + step.delay_hours, campaign.delay_hours);
