import * as z from '#shared/zod';
import { CAMPAIGN_STEP_ACTIONS } from './types';

/**
 * The rules of a campaign's fields (spec "Campaign" and Limits), as zod schemas shared by the
 * API's request schemas. Defaults (A): delay_hours 0, max_attempts 4, stop_on_recovery and
 * stop_on_card_update true, start_hour 9, end_hour 21.
 */
export const MAX_STEPS = 20;
export const MAX_DELAY_HOURS = 720;
export { CAMPAIGN_DEFAULTS } from './types';

/** A message template id: `tmpl_` and 1-64 letters, digits or underscores. Existence and channel are checked by the operations (services/check-templates.ts). */
export const TEMPLATE_ID_PATTERN = /^tmpl_[A-Za-z0-9_]{1,64}$/;

export const CampaignName = z.string().check(z.trim(), z.minLength(1), z.maxLength(200));
export const DelayHours = z.number().check(z.gte(0), z.lte(MAX_DELAY_HOURS));
export const Hour = z.number().check(z.int(), z.gte(0), z.lte(23));
export const MaxAttempts = z.number().check(z.int(), z.gte(1), z.lte(10));
const Subject = z.string().check(z.trim(), z.minLength(1), z.maxLength(255), z.regex(/^[^\p{Cc}\u2028\u2029]*$/u, 'must be one line of text'));

/**
 * A step: `action`, `delay_hours` (hours after the previous step; default 0), `template_id`
 * (required for email, sms and whatsapp; absent or null for retry), `subject` (email only).
 */
export const CampaignStepInput = z
  .object({
    action: z.enum(CAMPAIGN_STEP_ACTIONS),
    delay_hours: z._default(DelayHours, 0),
    template_id: z.optional(z.nullable(z.string().check(z.regex(TEMPLATE_ID_PATTERN, 'must be tmpl_ followed by 1-64 letters, digits or underscores')))),
    subject: z.optional(Subject),
  })
  .check(
    z.superRefine((step, ctx) => {
      const hasTemplate = step.template_id !== undefined && step.template_id !== null;
      if (step.action !== 'retry' && !hasTemplate)
        ctx.issues.push({ code: 'custom', input: step.template_id, path: ['template_id'], message: `is required for an ${step.action} step` });
      if (step.action === 'retry' && hasTemplate)
        ctx.issues.push({ code: 'custom', input: step.template_id, path: ['template_id'], message: 'a retry step takes no template' });
      if (step.action !== 'email' && step.subject !== undefined)
        ctx.issues.push({ code: 'custom', input: step.subject, path: ['subject'], message: 'only an email step has a subject' });
    }),
  );

export const CampaignStepsInput = z.array(CampaignStepInput).check(z.minLength(1), z.maxLength(MAX_STEPS));

/** Whether `hour` (0-23, in the recipient's time zone) is inside the window start_hour..end_hour, both included; start > end spans midnight. */
export function isWithinSendingHours(window: { readonly start_hour: number; readonly end_hour: number }, hour: number): boolean {
  return window.start_hour <= window.end_hour ? hour >= window.start_hour && hour <= window.end_hour : hour >= window.start_hour || hour <= window.end_hour;
}
