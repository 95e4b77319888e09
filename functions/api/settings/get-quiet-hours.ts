import { readQuietHours } from '#data/settings-repository';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { getQuietHoursSchemas } from './schemas';

/** GET /api/v1/settings/quiet-hours: the merchant's quiet hours, or the default (22-7 UTC, disabled) before any are set. */
export const getQuietHours = defineOperation({ auth: 'api_key', schemas: getQuietHoursSchemas }, async ({ principal, requestId }) => {
  const merchantId = principal.merchantId;
  return { body: envelope(await readQuietHours(merchantId), requestId, merchantId) };
});
