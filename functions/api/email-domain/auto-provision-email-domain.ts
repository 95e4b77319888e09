import { autoProvisionDomain } from '#services/email-domains';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { autoProvisionEmailDomainSchemas } from './schemas';
import { emailDomainView } from './views';

/** POST /api/email-domain/auto-provision: 201 with the merchant's managed subdomain, verified at once; 200 with it when it exists already. */
export const autoProvisionEmailDomain = defineOperation({ auth: 'api_key', schemas: autoProvisionEmailDomainSchemas }, async ({ principal, requestId }) => {
  const { domain, created } = await autoProvisionDomain(principal.merchantId);
  return { statusCode: created ? 201 : 200, body: envelope(await emailDomainView({ domain, records: [] }), requestId, principal.merchantId) };
});
