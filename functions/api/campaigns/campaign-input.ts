import { normaliseCampaignFilters, parseCampaignFilters } from '#core/campaigns/filters';
import { type ATriggerType, type CampaignTrigger, canonicalTrigger, type TriggerInput } from '#core/campaigns/triggers';
import type { CampaignFilters, CampaignStep } from '#core/campaigns/types';
import { ValidationError } from '#core/errors';

/**
 * The trigger of a body that may name it as A's `trigger_type`, B's `trigger`, or both (which must
 * then name the same canonical trigger: 422 `param: trigger` otherwise). Undefined when neither.
 */
export function triggerOfBody(body: {
  readonly trigger_type?: ATriggerType | undefined;
  readonly trigger?: TriggerInput | undefined;
}): CampaignTrigger | undefined {
  const fromA = body.trigger_type === undefined ? undefined : canonicalTrigger(body.trigger_type);
  const fromB = body.trigger === undefined ? undefined : canonicalTrigger(body.trigger);
  if (fromA !== undefined && fromB !== undefined && fromA !== fromB) {
    throw new ValidationError(`trigger (${body.trigger}) and trigger_type (${body.trigger_type}) name different triggers; send one, or both naming the same.`, {
      param: 'trigger',
    });
  }
  return fromB ?? fromA;
}

/**
 * The filters of a body: B's `filters_json` text, or `filters` as an object (B's update body names
 * it so); both must then be the same filters (422 `param: filters`). Undefined when neither.
 */
export function filtersOfBody(body: {
  readonly filters_json?: string | undefined;
  readonly filters?: Readonly<Record<string, unknown>> | undefined;
}): CampaignFilters | undefined {
  const fromJson = body.filters_json === undefined ? undefined : parseCampaignFilters(body.filters_json, 'filters_json');
  const fromObject = body.filters === undefined ? undefined : normaliseCampaignFilters(body.filters, 'filters');
  if (fromJson !== undefined && fromObject !== undefined && JSON.stringify(fromJson) !== JSON.stringify(fromObject)) {
    throw new ValidationError('filters and filters_json name different filters; send one, or both the same.', { param: 'filters' });
  }
  return fromJson ?? fromObject;
}

/** Steps as the validated body gives them (template_id optional) in the record's form (null for none). */
export const stepsOfBody = (
  steps: readonly {
    readonly action: CampaignStep['action'];
    readonly delay_hours: number;
    readonly template_id?: string | null | undefined;
    readonly subject?: string | undefined;
  }[],
): CampaignStep[] =>
  steps.map((step) => ({
    action: step.action,
    delay_hours: step.delay_hours,
    template_id: step.template_id ?? null,
    ...(step.subject === undefined ? {} : { subject: step.subject }),
  }));
