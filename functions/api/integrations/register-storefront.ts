import { StateConflictError } from '#core/errors';
import { normaliseShopDomain } from '#core/integrations/shop-domain';
import { registerStorefront as register } from '#data/storefront-repository';
import { defineOperation } from '#api/operation';
import { envelope } from '#api/pipeline/responses';
import { registerStorefrontSchemas } from './schemas';

/**
 * POST /api/v1/integrations/storefront/register (admin): associates the merchant with a shop
 * domain (lowercased). 201 when the merchant had none, 200 when it replaces the previous domain
 * (released for others) or names the same one again (nothing written). A domain another merchant
 * holds is 409 with `param: shop_domain`; an invalid one 422 (or 400 when missing) with the param.
 */
export const registerStorefront = defineOperation({ auth: 'api_key', schemas: registerStorefrontSchemas }, async ({ body, principal, requestId }) => {
  const merchantId = principal.merchantId;
  // The schema admitted it, so it normalises.
  const domain = normaliseShopDomain(body.shop_domain) as string;
  const result = await register(merchantId, domain);
  if (result.outcome === 'taken' || result.outcome === 'concurrent') {
    const message =
      result.outcome === 'taken'
        ? 'This shop domain is registered to another account.'
        : 'The storefront association changed meanwhile; send the request again.';
    throw new StateConflictError(message, { param: 'shop_domain' });
  }
  const { shop_domain, created_at, updated_at } = result.association;
  return { statusCode: result.outcome === 'created' ? 201 : 200, body: envelope({ shop_domain, created_at, updated_at }, requestId, merchantId) };
});
