import { suppressionStats } from '#data/suppression-repository';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { getEmailSuppressionStatsSchemas } from './schemas';

/** GET /api/v1/email/suppressions/stats: counts of the suppression list, read from counters (two reads, whatever its size). */
export const getEmailSuppressionStats = defineOperation({ auth: 'api_key', schemas: getEmailSuppressionStatsSchemas }, async ({ principal, requestId }) => {
  const merchantId = principal.merchantId;
  return { body: envelope(await suppressionStats(merchantId), requestId, merchantId) };
});
