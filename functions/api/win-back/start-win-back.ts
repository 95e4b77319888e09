import { defineOperation } from '#api/operation';
import { envelope } from '#api/pipeline/responses';
import { sendWinBack } from '#services/win-back';
import { startWinBackSchemas } from './schemas';

/** POST /api/v1/win-back/{customerId}: the offer goes out by email (queued now) and is recorded; 201 with the record. */
export const startWinBack = defineOperation({ auth: 'api_key', schemas: startWinBackSchemas }, async ({ principal, params, body, requestId }) => {
  const record = await sendWinBack(principal.merchantId, {
    customerId: params.customerId,
    campaignId: body.campaign_id,
    offerType: body.offer_type,
    offerValue: body.offer_value,
  });
  return { statusCode: 201, body: envelope(record, requestId, principal.merchantId) };
});
