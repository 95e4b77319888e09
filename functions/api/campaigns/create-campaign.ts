import { newCampaign } from '#core/campaigns/lifecycle';
import { createCampaign as writeCampaign } from '#data/campaign-repository';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { assertStepTemplates, filtersOfBody, stepsOfBody, triggerOfBody } from './campaign-input';
import { createCampaignSchemas } from './schemas';
import { getSendingPause } from '#data/channel-repository';
import { campaignView } from './views';

/**
 * POST /api/v1/campaigns: a draft campaign from A's body (trigger_type, steps, delay_hours,
 * max_attempts, stop rules, hours; defaults applied) or B's (trigger, default payment_failed;
 * filters_json), 201 for both. Everything is validated before the one write, including that each
 * message step's template exists for its channel (404 / 422 naming `steps.<i>.template_id`).
 */
export const createCampaign = defineOperation({ auth: 'api_key', schemas: createCampaignSchemas }, async ({ body, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const steps = stepsOfBody(body.steps);
  await assertStepTemplates(merchantId, steps);
  const campaign = newCampaign(
    merchantId,
    {
      name: body.name,
      trigger: triggerOfBody(body) ?? 'payment_failed',
      filters: filtersOfBody(body) ?? {},
      steps,
      ...(body.delay_hours === undefined ? {} : { delay_hours: body.delay_hours }),
      ...(body.max_attempts === undefined ? {} : { max_attempts: body.max_attempts }),
      ...(body.stop_on_recovery === undefined ? {} : { stop_on_recovery: body.stop_on_recovery }),
      ...(body.stop_on_card_update === undefined ? {} : { stop_on_card_update: body.stop_on_card_update }),
      ...(body.start_hour === undefined ? {} : { start_hour: body.start_hour }),
      ...(body.end_hour === undefined ? {} : { end_hour: body.end_hour }),
    },
    new Date(),
  );
  await writeCampaign(campaign);
  return { statusCode: 201, body: envelope(campaignView(campaign, await getSendingPause(principal.merchantId)), requestId, merchantId) };
});
