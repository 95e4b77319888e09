import { updateCampaignFields } from '#data/campaign-repository';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { assertStepTemplates, filtersOfBody, stepsOfBody, triggerOfBody } from './campaign-input';
import { updateCampaignSchemas } from './schemas';
import { getSendingPause } from '#data/channel-repository';
import { campaignView } from './views';

/**
 * PUT /api/v1/campaigns/{id}: a partial update of a draft or paused campaign (A's create fields,
 * B's name, trigger, filters or filters_json); only the fields sent change, and a paused campaign
 * stays paused. Active, archived or completed: 409 `state_conflict`. Another merchant's id: 404.
 * The write is conditional on the status and version read. New steps' templates must exist for
 * their channels (404 / 422 naming `steps.<i>.template_id`).
 */
export const updateCampaign = defineOperation({ auth: 'api_key', schemas: updateCampaignSchemas }, async ({ params, body, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const trigger = triggerOfBody(body);
  const filters = filtersOfBody(body);
  const steps = body.steps === undefined ? undefined : stepsOfBody(body.steps);
  if (steps !== undefined) await assertStepTemplates(merchantId, steps);
  const campaign = await updateCampaignFields(merchantId, params.id, {
    ...(body.name === undefined ? {} : { name: body.name }),
    ...(trigger === undefined ? {} : { trigger }),
    ...(filters === undefined ? {} : { filters }),
    ...(steps === undefined ? {} : { steps }),
    ...(body.delay_hours === undefined ? {} : { delay_hours: body.delay_hours }),
    ...(body.max_attempts === undefined ? {} : { max_attempts: body.max_attempts }),
    ...(body.stop_on_recovery === undefined ? {} : { stop_on_recovery: body.stop_on_recovery }),
    ...(body.stop_on_card_update === undefined ? {} : { stop_on_card_update: body.stop_on_card_update }),
    ...(body.start_hour === undefined ? {} : { start_hour: body.start_hour }),
    ...(body.end_hour === undefined ? {} : { end_hour: body.end_hour }),
  });
  return { body: envelope(campaignView(campaign, await getSendingPause(principal.merchantId)), requestId, merchantId) };
});
