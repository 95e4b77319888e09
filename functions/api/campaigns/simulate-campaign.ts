import { filtersJsonOf, parseCampaignFilters } from '#core/campaigns/filters';
import { simulateCampaign as replaySteps } from '#core/campaigns/simulation';
import { type CampaignTemplate, defaultTemplateFor } from '#core/campaigns/templates';
import { canonicalTrigger, triggerRuleOf, triggerTypeOf } from '#core/campaigns/triggers';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { stepsOfBody } from './campaign-input';
import { replayFailures } from './replay';
import { simulateCampaignSchemas } from './schemas';
import { stepView } from './views';

const DAY_MS = 86_400_000;

/**
 * POST /api/v1/campaigns/simulate: replays the merchant's payments failed in the last
 * `lookback_days` (1-365, default 30) through the trigger, filters and steps (the trigger's
 * template cadence when no steps are sent): how many would enroll, the messages per channel and
 * retries that would run (core/campaigns/simulation.ts: a step is skipped when the payment was
 * recovered before it and stop_on_recovery holds), expected recoveries from the catalogue's rates
 * and from the merchant's own outcomes, amounts per currency, and the items read. Served from the
 * payment indexes, at most REPLAY_BOUND payments (then `truncated`). Other active campaigns are
 * not considered (see POST /campaigns/overlap).
 */
export const simulateCampaign = defineOperation({ auth: 'api_key', schemas: simulateCampaignSchemas }, async ({ body, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const trigger = canonicalTrigger(body.trigger);
  const filters = body.filters_json === undefined ? {} : parseCampaignFilters(body.filters_json);
  const template = body.steps === undefined ? defaultTemplateFor(trigger) : undefined;
  const steps = body.steps === undefined ? (template as CampaignTemplate).steps : stepsOfBody(body.steps);
  const plan = {
    trigger,
    filters,
    steps,
    delay_hours: body.delay_hours ?? template?.delay_hours ?? 0,
    stop_on_recovery: body.stop_on_recovery ?? true,
  };
  const now = new Date();
  const since = new Date(now.getTime() - body.lookback_days * DAY_MS);
  const enrolls = triggerRuleOf(trigger).enrollsOnFailure;
  const replay = enrolls ? await replayFailures(merchantId, plan, [], { since, until: now }) : undefined;
  const outcome = replaySteps(plan, replay?.replayed ?? [], now);
  const itemsRead = replay?.items_read ?? { payments: 0, customers: 0 };
  const data = {
    trigger,
    trigger_type: triggerTypeOf(trigger),
    filters: JSON.parse(filtersJsonOf(filters)),
    steps: steps.map(stepView),
    steps_source: template === undefined ? 'request' : `template:${template.id}`,
    lookback_days: body.lookback_days,
    window_start: since.toISOString(),
    window_end: now.toISOString(),
    ...outcome,
    items_read: { ...itemsRead, total: itemsRead.payments + itemsRead.customers },
    truncated: replay?.truncated ?? false,
    note: enrolls
      ? null
      : `The ${trigger} trigger enrolls no failed payment: it enrolls through ${trigger === 'manual' ? 'the analytics enroll route' : 'the daily card-expiry check'}, which is not built yet, so there is nothing to replay.`,
  };
  return { body: envelope(data, requestId, merchantId) };
});
