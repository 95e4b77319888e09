import { normaliseCampaignFilters, parseCampaignFilters } from '#core/campaigns/filters';
import { type ATriggerType, type CampaignTrigger, canonicalTrigger, type TriggerInput } from '#core/campaigns/triggers';
import type { CampaignFilters, CampaignStep } from '#core/campaigns/types';
import { ValidationError } from '#core/errors';
import { assertTemplatesUsable } from '#services/check-templates';

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
 * The filters of a body: B's `filters_json` text, or `filters` as an object or text (B's update
 * body names it so); both must then be the same filters (422 `param: filters`). Undefined when neither.
 */
export function filtersOfBody(body: {
  readonly filters_json?: string | undefined;
  readonly filters?: string | Readonly<Record<string, unknown>> | undefined;
}): CampaignFilters | undefined {
  const fromJson = body.filters_json === undefined ? undefined : parseCampaignFilters(body.filters_json, 'filters_json');
  const fromObject =
    body.filters === undefined
      ? undefined
      : typeof body.filters === 'string'
        ? parseCampaignFilters(body.filters, 'filters')
        : normaliseCampaignFilters(body.filters, 'filters');
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

/**
 * Refuses steps that name a template the merchant cannot use (services/check-templates.ts): 404
 * for an unknown id, 422 for a template of another channel, naming `steps.<i>.template_id`.
 */
export async function assertStepTemplates(merchantId: string, steps: readonly CampaignStep[]): Promise<void> {
  await assertTemplatesUsable(
    merchantId,
    steps.flatMap((step, index) =>
      step.action === 'retry' || step.template_id === null ? [] : [{ templateId: step.template_id, channel: step.action, param: `steps.${index}.template_id` }],
    ),
  );
}
