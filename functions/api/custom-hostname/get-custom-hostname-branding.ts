import { defineOperation } from '#api/operation';
import { envelope } from '#api/pipeline/responses';
import { ResourceNotFoundError } from '#core/errors';
import { brandingOf } from '#services/branding';
import { BRANDING_HEADERS } from '../widget/branding-headers';
import { getCustomHostnameBrandingSchemas } from './schemas';

/** GET /api/custom-hostname/branding/{merchant_id}: public, in the envelope; an unknown merchant is 404. */
export const getCustomHostnameBranding = defineOperation({ auth: 'public', schemas: getCustomHostnameBrandingSchemas }, async ({ params, requestId }) => {
  const branding = await brandingOf(params.merchant_id);
  if (branding === undefined) throw new ResourceNotFoundError('No such merchant.', { param: 'merchant_id' });
  return { body: envelope(branding, requestId, params.merchant_id), headers: BRANDING_HEADERS };
});
