import { recheckPendingDomains, stepDomainWarmUp } from '#services/email-domains';
import { recheckCancelSaves } from '#services/recheck-cancel-saves';
import { createJobHandler } from './run-job';

// The tasks are added by the issues that build them; until then each is reported not_implemented.
export const handler = createJobHandler('daily', {
  'cancel-save-recheck': (input) => recheckCancelSaves(input.now),
  'pending-domain-provisioning': (input) => recheckPendingDomains(input.now),
  'domain-warm-up': (input) => stepDomainWarmUp(input.now),
});
