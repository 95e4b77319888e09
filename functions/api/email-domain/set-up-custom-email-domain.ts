import { setUpCustomDomain } from '#services/email-domains';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { setUpCustomEmailDomainSchemas } from './schemas';
import { emailDomainView } from './views';

/**
 * POST /api/email-domain/custom-setup: 201 with the pending domain and the DNS records to create
 * (3 DKIM CNAMEs, MAIL FROM MX and SPF, a DMARC suggestion); 200 with it when the same domain was
 * set up before. 422 `param: domain` for a bad name; 409 when another account holds it, or the
 * merchant has another custom domain.
 */
export const setUpCustomEmailDomain = defineOperation({ auth: 'api_key', schemas: setUpCustomEmailDomainSchemas }, async ({ body, principal, requestId }) => {
  const { diagnostics, created } = await setUpCustomDomain(principal.merchantId, body.domain);
  return { statusCode: created ? 201 : 200, body: envelope(await emailDomainView(diagnostics), requestId, principal.merchantId) };
});
