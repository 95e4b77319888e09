import { domainStatus } from '#services/email-domains';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { getEmailDomainStatusSchemas } from './schemas';
import { emailDomainView } from './views';

/** GET /api/email-domain/status/{id}: the domain with each record expected vs found now, SES's statuses and today's warm-up cap; another merchant's id is 404. */
export const getEmailDomainStatus = defineOperation({ auth: 'api_key', schemas: getEmailDomainStatusSchemas }, async ({ params, principal, requestId }) => {
  const diagnostics = await domainStatus(principal.merchantId, params.id);
  return { statusCode: 200, body: envelope(await emailDomainView(diagnostics), requestId, principal.merchantId) };
});
