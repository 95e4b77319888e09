import { putQuietHours } from '#data/settings-repository';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { setQuietHoursSchemas } from './schemas';

/**
 * POST /api/v1/settings/quiet-hours: replaces the merchant's quiet hours (start_hour, end_hour,
 * IANA timezone; enabled unless `enabled: false`) and answers 200 with the stored record.
 */
export const setQuietHours = defineOperation({ auth: 'api_key', schemas: setQuietHoursSchemas }, async ({ body, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const record = await putQuietHours(merchantId, { startHour: body.start_hour, endHour: body.end_hour, timezone: body.timezone, enabled: body.enabled });
  return { body: envelope(record, requestId, merchantId) };
});
