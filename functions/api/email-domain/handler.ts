import { createGroupHandler } from '#api/group-handler';
import { apiKeyAuth } from '#api/pipeline/api-key';
import { autoProvisionEmailDomain } from './auto-provision-email-domain';
import { deleteEmailDomain } from './delete-email-domain';
import { getEmailDomainStatus } from './get-email-domain-status';
import { emailDomainRoutes } from './routes';
import { setUpCustomEmailDomain } from './set-up-custom-email-domain';
import { verifyEmailDomain } from './verify-email-domain';

/** The email-domain Lambda: sending domains (auto-provision, custom setup, verify, status, delete). */
export const handler = createGroupHandler(
  emailDomainRoutes,
  {
    autoProvisionEmailDomain,
    setUpCustomEmailDomain,
    verifyEmailDomain,
    getEmailDomainStatus,
    deleteEmailDomain,
  },
  apiKeyAuth,
);
