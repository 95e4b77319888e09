import { listSuppressions } from '#data/suppression-repository';
import { pagedEnvelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { listEmailSuppressionsSchemas } from './schemas';
import { suppressionView } from './views';

/**
 * GET /api/v1/email/suppressions: the merchant's suppression list, alphabetical by address,
 * offset-paged. `search`: start of the address, any case; `reason`: one of hard_bounce, complaint,
 * unsubscribe, manual (anything else is 400 `param: reason`); `active_only` (`true` by default)
 * leaves lifted suppressions out.
 */
export const listEmailSuppressions = defineOperation({ auth: 'api_key', schemas: listEmailSuppressionsSchemas }, async ({ query, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const { suppressions, pagination } = await listSuppressions(
    merchantId,
    { search: query.search, reason: query.reason, activeOnly: query.active_only === 'true' },
    query.page,
    query.per_page,
  );
  return { body: pagedEnvelope(suppressions.map(suppressionView), pagination, requestId, merchantId) };
});
