import { defineOperation } from '#api/operation';
import { ResourceNotFoundError } from '#core/errors';
import { brandingOf } from '#services/branding';
import { BRANDING_HEADERS } from './branding-headers';
import { brandingSchemas } from './schemas';

/** GET /api/widget/branding/{merchant_id}: public, unwrapped; an unknown merchant is 404. */
export const getWidgetBranding = defineOperation({ auth: 'public', schemas: brandingSchemas }, async ({ params }) => {
  const branding = await brandingOf(params.merchant_id);
  if (branding === undefined) throw new ResourceNotFoundError('No such merchant.', { param: 'merchant_id' });
  return { body: branding, headers: BRANDING_HEADERS };
});
