import { newAbTest } from '#core/experiments/ab-test';
import { ResourceNotFoundError } from '#core/errors';
import { createAbTest } from '#data/ab-test-repository';
import { getCampaign } from '#data/campaign-repository';
import { assertTemplatesUsable } from '#services/check-templates';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { createEmailAbTestSchemas } from './ab-test-schemas';
import { abTestView } from './ab-test-views';

/**
 * POST /api/v1/email/ab-test: a running A/B test of two variants (subject and template) of the
 * campaign's first email step, 201. The campaign must be the merchant's (404 naming campaign_id,
 * another merchant's included), draft, active or paused (409), with an email step (422), and
 * without a running test (409); a completed test on it is replaced. Each variant's template must be
 * an email template the merchant can use (404 / 422 naming `variants.<i>.template_id`). One
 * conditional write.
 */
export const createEmailAbTest = defineOperation({ auth: 'api_key', schemas: createEmailAbTestSchemas }, async ({ body, principal, requestId }) => {
  const [a, b] = body.variants;
  if (a === undefined || b === undefined) throw new Error('The schema admits exactly two variants');
  if ((await getCampaign(principal.merchantId, body.campaign_id)) === undefined) {
    throw new ResourceNotFoundError(`No campaign ${body.campaign_id}.`, { param: 'campaign_id' });
  }
  await assertTemplatesUsable(
    principal.merchantId,
    body.variants.map((variant, index) => ({ templateId: variant.template_id, channel: 'email' as const, param: `variants.${index}.template_id` })),
  );
  const test = newAbTest(
    principal.merchantId,
    body.campaign_id,
    { variants: [a, b], traffic_split: body.traffic_split, metric: body.metric, minimum_sample_per_arm: body.minimum_sample_per_arm },
    new Date(),
  );
  await createAbTest(test);
  return { statusCode: 201, body: envelope(abTestView(test), requestId, principal.merchantId) };
});
