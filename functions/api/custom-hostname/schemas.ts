import { ResponseMeta } from '#api/envelope-schemas';
import * as z from '#shared/zod';
import { BrandingData, MerchantParams } from '../widget/schemas';

/** GET /api/custom-hostname/branding/{merchant_id}: public, cacheable 5 minutes, in the `{ data, meta }` envelope. */
export const getCustomHostnameBrandingSchemas = {
  params: MerchantParams,
  responses: { 200: z.object({ data: BrandingData, meta: ResponseMeta }) },
} as const;
