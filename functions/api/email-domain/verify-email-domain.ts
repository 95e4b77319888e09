import { verifyDomain } from '#services/email-domains';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { verifyEmailDomainSchemas } from './schemas';
import { emailDomainView } from './views';

/** POST /api/email-domain/verify `{ id? | domain? }` (neither: the merchant's custom domain): checks DNS and SES now, stores the outcome, answers it per record. */
export const verifyEmailDomain = defineOperation({ auth: 'api_key', schemas: verifyEmailDomainSchemas }, async ({ body, principal, requestId }) => {
  const diagnostics = await verifyDomain(principal.merchantId, body);
  return { statusCode: 200, body: envelope(await emailDomainView(diagnostics), requestId, principal.merchantId) };
});
