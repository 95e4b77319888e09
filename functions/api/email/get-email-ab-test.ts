import { ResourceNotFoundError } from '#core/errors';
import { getAbTest } from '#data/ab-test-repository';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { getEmailAbTestSchemas } from './ab-test-schemas';
import { abTestView } from './ab-test-views';

/** GET /api/v1/email/ab-test/{campaign_id}: the campaign's test, per-variant counts and rates, and its statistics computed now. 404 without one (another merchant's campaign included). */
export const getEmailAbTest = defineOperation({ auth: 'api_key', schemas: getEmailAbTestSchemas }, async ({ params, principal, requestId }) => {
  const test = await getAbTest(principal.merchantId, params.campaign_id);
  if (test === undefined) throw new ResourceNotFoundError(`No A/B test on campaign ${params.campaign_id}.`, { param: 'campaign_id' });
  return { body: envelope(abTestView(test), requestId, principal.merchantId) };
});
