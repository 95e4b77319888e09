import { ResourceNotFoundError } from '#core/errors';
import { liftSuppression } from '#data/suppression-repository';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { deleteEmailSuppressionSchemas } from './schemas';
import { suppressionView } from './views';

/**
 * DELETE /api/v1/email/suppressions/{email}: lifts a suppression, so the address is emailed again;
 * the entry stays as history (`active: false`, `lifted_at`; listed with `active_only=false`). A
 * later hard bounce, complaint or unsubscribe suppresses the address again. 404 (`param: email`)
 * when the address is not suppressed for this merchant (never, already lifted, or another
 * merchant's).
 */
export const deleteEmailSuppression = defineOperation({ auth: 'api_key', schemas: deleteEmailSuppressionSchemas }, async ({ params, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const lifted = await liftSuppression(merchantId, params.email);
  if (lifted === undefined) throw new ResourceNotFoundError(`No suppression of ${params.email}.`, { param: 'email' });
  return { body: envelope(suppressionView(lifted), requestId, merchantId) };
});
