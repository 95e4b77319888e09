import { removeDomain } from '#services/email-domains';
import { defineOperation } from '#api/operation';
import { deleteEmailDomainSchemas } from './schemas';

/** DELETE /api/email-domain/{id}: 204; the SES identity is deleted and the name released; campaign email goes from the default sender again. */
export const deleteEmailDomain = defineOperation({ auth: 'api_key', schemas: deleteEmailDomainSchemas }, async ({ params, principal }) => {
  await removeDomain(principal.merchantId, params.id);
  return { statusCode: 204, body: undefined };
});
